/**
 * Whether a run beat its start. Every optimizer's first generation plays the start itself; validation
 * plays it again on the held-out seeds beside the finalists, so the run's best can be weighed against it
 * on the same games. One rule: the run's best is the validated point with the highest held-out value, the
 * start included. So a run whose finalists won their place by in-sample luck hands back its start, and a
 * best that leads the start by less than the noise is kept but said to be so, here, in the one line that
 * the run, show, export, the report and the dashboard all print.
 */
import type { Store } from '../../store/store';
import { figure } from '../../util/figure';
import { meanWithCI95, normalQuantile, stdev } from '../../util/stats';
import type { RunConfig } from '../run/config';
import type { BoundedSpace } from '../space/space';
import { gameObjective, type ScoredGame } from '../objective/fitness';

/** The candidate among these with the start's parameters (a first generation always holds one). */
export function findStart<C extends { params: unknown }>(candidates: readonly C[], startParams: unknown): C | undefined {
  const key = JSON.stringify(startParams);
  return candidates.find((c) => JSON.stringify(c.params) === key);
}

export interface StartVerdict {
  start: { candidate: number; validation: number };
  /** The run's best: the start itself when nothing validated above it. */
  best: { candidate: number; validation: number };
  /** What was weighed against the start: the run's best, or when that is the start, the best finalist (null: every finalist was the start). */
  rival: { candidate: number; validation: number } | null;
  /** Held-out games each played, on the same seeds. */
  games: number;
  /** rival − start, and the half-width of its 95 % interval from the per-seed differences. */
  difference: number;
  halfWidth: number;
  /** True when the rival beats the start by more than that half-width. */
  clear: boolean;
  /** Held-out games per candidate that would find a difference this size 80 % of the time at 5 % (null: no difference, or already outside the noise either way). */
  gamesToResolve: number | null;
  /** Weighed on the second held-out set (validation.confirm) instead of the first. */
  set?: 'confirmation';
}

/** A validated candidate as the verdict weighs it: its held-out value and games. */
export interface ValidatedPoint {
  id: number;
  params: unknown;
  validation: number;
  games: readonly (ScoredGame & { seed: number })[];
}

/**
 * The run's best against its start on their held-out games. `validated` are every validated candidate,
 * the start among them: the rival is the best unless the best is the start, then the best of the others.
 */
export function weighStart(fitness: RunConfig['fitness'], start: ValidatedPoint, bestId: number, validated: readonly ValidatedPoint[]): StartVerdict {
  const startKey = JSON.stringify(start.params);
  const best = validated.find((c) => c.id === bestId)!;
  const others = validated.filter((c) => JSON.stringify(c.params) !== startKey);
  const rival = best.id !== start.id ? best : others.length ? others.reduce((a, b) => (b.validation > a.validation ? b : a)) : null;
  const point = (c: ValidatedPoint) => ({ candidate: c.id, validation: c.validation });
  const verdict = { start: point(start), best: point(best), rival: rival ? point(rival) : null, games: start.games.length };
  if (!rival) return { ...verdict, difference: 0, halfWidth: 0, clear: false, gamesToResolve: null };
  // Paired on the held-out seeds both played (all of them: validation plays every finalist on the same seeds).
  const theirs = new Map(rival.games.map((g) => [g.seed, gameObjective(fitness, g)]));
  const diffs = start.games.filter((g) => theirs.has(g.seed)).map((g) => theirs.get(g.seed)! - gameObjective(fitness, g));
  const difference = rival.validation - start.validation;
  const ci = diffs.length >= 2 ? meanWithCI95(diffs) : null;
  const halfWidth = ci ? (ci.high - ci.low) / 2 : Infinity;
  const sd = diffs.length >= 2 ? stdev(diffs) : 0;
  // Games a gap this size needs to be found 80 % of the time by a two-sided test at 5 % (not merely to be 1.96 standard errors, which finds it half the time).
  const gamesToResolve = Math.abs(difference) > halfWidth || difference === 0 || sd === 0 ? null : Math.ceil((((normalQuantile(0.975) + normalQuantile(0.8)) * sd) / difference) ** 2);
  return { ...verdict, difference, halfWidth, clear: difference > halfWidth, gamesToResolve };
}

/** The verdict of a validated run from its store, or null when its start was not validated (a run from before this check, or not yet validated). */
export function startVerdict(store: Store, runId: number, config: RunConfig, startParams: unknown): StartVerdict | null {
  const run = store.getRun(runId);
  if (!run || run.bestCandidate === null) return null;
  const candidates = store.validatedCandidates(runId);
  // A run with a second held-out set is weighed there: its winner and the start played it, unselected.
  const confirmed = candidates.filter((c) => c.confirmation !== null);
  if (confirmed.length > 0) {
    const points = confirmed.map((c) => ({ id: c.id, params: c.params, validation: c.confirmation!, games: store.getGames(c.id, 'confirmation') }));
    const start = findStart(points, startParams);
    if (start && points.some((c) => c.id === run.bestCandidate)) return { ...weighStart(config.fitness, start, run.bestCandidate, points), set: 'confirmation' };
  }
  const validated = candidates.map((c) => ({ id: c.id, params: c.params, validation: c.validation!, games: store.getGames(c.id, 'validation') }));
  // The start validated as itself, or as a finalist with its parameters (an elite that kept them).
  const start = findStart(validated, startParams);
  if (!start || !validated.some((c) => c.id === run.bestCandidate)) return null;
  return weighStart(config.fitness, start, run.bestCandidate, validated);
}

/** The verdict of a loaded run (show, the report, export). */
export function runStartVerdict(store: Store, problem: { run: { id: number }; config: RunConfig; space: Pick<BoundedSpace, 'params' | 'startGenome'> }): StartVerdict | null {
  return startVerdict(store, problem.run.id, problem.config, problem.space.params(problem.space.startGenome()));
}


/** The verdict in one line, for the end of a run, show, the report and export. */
export function describeStartVerdict(v: StartVerdict): string {
  const signed = (x: number) => `${x >= 0 ? '+' : '−'}${figure(Math.abs(x))}`;
  const gap = `${signed(v.difference)} ± ${figure(v.halfWidth)} (95 %) on ${v.games} ${v.set === 'confirmation' ? 'games of a second held-out set' : 'held-out games'}`;
  const resolve = v.gamesToResolve !== null ? `; about ${v.gamesToResolve.toLocaleString('en-US')} held-out games per candidate (${v.set === 'confirmation' ? 'validation.confirm' : 'validation.games'}) would find a gap this size 80 % of the time` : '';
  if (!v.rival) return `nothing beats the start: every finalist is the start itself (held-out ${figure(v.start.validation)})`;
  if (v.best.candidate === v.start.candidate) {
    return `nothing beats the start: the best finalist (candidate ${v.rival.candidate}) validated ${figure(v.rival.validation)} against the start's ${figure(v.start.validation)}, ${gap}; the run's best is its start (candidate ${v.start.candidate})${resolve}`;
  }
  if (!v.clear) return `the run's best (candidate ${v.best.candidate}, the highest held-out value) leads the start by less than the noise: ${figure(v.best.validation)} against the start's ${figure(v.start.validation)}, ${gap}; it is not shown better than the start${resolve}`;
  return `the best beats the start: candidate ${v.best.candidate} ${figure(v.best.validation)} against the start's ${figure(v.start.validation)}, ${gap}`;
}
