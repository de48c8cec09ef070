/**
 * Whether a run beat its start. Every optimizer's first generation plays the start itself; validation plays it
 * again on the held-out seeds beside the finalists (the control: never stopped by a race, so it plays every
 * held-out seed), so the run's best is weighed against it on the same games. One rule, in one place for the
 * tuner and every view (show, export, the report, the dashboard):
 *
 * - The first held-out set chooses: the best finalist by the round of the race it reached, then its held-out
 *   mean (a finalist stopped early keeps a low-selected mean, never set against full ones); the start instead
 *   when it validates above that finalist (and, in a run within a cost ceiling, keeps within it).
 * - With a second held-out set (validation.confirm), the choice and the best other of the two (the start when
 *   a finalist won; the best other finalist when the start did) play it, and the verdict is read there, where no
 *   choice was made. The choice is not made again on it, unless the second set shows the other clearly better
 *   (its 95 % interval clear of 0): the stated margin, and the verdict says so.
 * - The verdict: the run's best against the start, paired seed by seed, with its interval; "every finalist is the
 *   start itself" only when no finalist plays otherwise than the start.
 */
import type { Store } from '../../store/store';
import { figure } from '../../util/figure';
import { mean, meanWithCI95, normalQuantile, stdev } from '../../util/stats';
import type { RunConfig } from '../config/config';
import { gameObjective, type ScoredGame } from '../objective/fitness';
import { hasCostCeiling, keepsCeiling } from '../objective/cost-ceiling';
import type { RunProblem } from '../run/run-problem';

/** What the verdict needs of a run's problem: which candidates play as its start, and its optimizer's own point. */
export type VerdictProblem = Pick<RunProblem, 'run' | 'config' | 'optimizer' | 'space' | 'pointKey'>;

/** The candidate among these that plays as the start (a first generation always holds one): the same point (space/point.ts). */
export function findStart<C extends { genome: readonly number[] }>(candidates: readonly C[], problem: Pick<RunProblem, 'space' | 'pointKey'>): C | undefined {
  const start = problem.pointKey(problem.space.startGenome());
  return candidates.find((c) => problem.pointKey(c.genome) === start);
}

/**
 * A pooled optimizer without finalists of its own (the surrogate) sets its own point (the
 * candidate of origin "mean") against the start, never another finalist chosen by its held-out noise; undefined
 * for every other optimizer (its best finalist is set against the start).
 */
export function ownPoint<C extends { origin: string }>(problem: Pick<RunProblem, 'optimizer'>, finalists: readonly C[]): C | undefined {
  return problem.optimizer.pooled && !problem.optimizer.finalists ? finalists.find((c) => c.origin === 'mean') : undefined;
}


export interface StartVerdict {
  /** The start, its held-out value over the games paired with the rival's. */
  start: { candidate: number; validation: number };
  /** The run's best: the start itself when nothing validated above it. */
  best: { candidate: number; validation: number };
  /** What was weighed against the start: the run's best, or when that is the start, the best other finalist (null: every finalist is the start). */
  rival: { candidate: number; validation: number } | null;
  /** Games paired: the held-out seeds both played. */
  games: number;
  /** rival − start over those seeds, and the half-width of its 95 % interval from the per-seed differences. */
  difference: number;
  halfWidth: number;
  /** True when the rival beats the start by more than that half-width. */
  clear: boolean;
  /** Held-out games per candidate that would find a difference this size 80 % of the time at 5 % (null: no difference, or already outside the noise either way). */
  gamesToResolve: number | null;
  /** Weighed on the second held-out set (validation.confirm) instead of the first. */
  set?: 'confirmation';
  /** The second set turned the first set's choice over: it showed the other clearly better. */
  overturned?: boolean;
  /** A run within a cost ceiling where the start or the rival cost more than it on their held-out games (neither may then be chosen over the other). */
  overCeiling?: { start: boolean; rival: boolean };
}

/** The overCeiling part of a verdict: present in a run within a cost ceiling when the start or the rival went over it on its held-out games. */
export function ceilingVerdict(config: Pick<RunConfig, 'fitness' | 'optimizer'>, startKept: boolean, rivalKept: boolean): Pick<StartVerdict, 'overCeiling'> {
  return hasCostCeiling(config) && (!startKept || !rivalKept) ? { overCeiling: { start: !startKept, rival: !rivalKept } } : {};
}

/** A validated candidate as the verdict weighs it: its held-out value and games (on one set). */
export interface ValidatedPoint {
  id: number;
  validation: number;
  games: readonly (ScoredGame & { seed: number })[];
}

/** The best of some finalists: the furthest round reached (the most held-out games), then the highest held-out value; ties to the earlier. */
export function bestFinalist<P extends ValidatedPoint>(points: readonly P[]): P | null {
  return points.reduce<P | null>((a, b) => (a === null || b.games.length > a.games.length || (b.games.length === a.games.length && b.validation > a.validation) ? b : a), null);
}

/**
 * The first held-out set's choice: `other` (the best finalist, or a pooled optimizer's own point), unless the
 * start validates above it on the seeds both played and may be chosen. Null `other`: every finalist is the start.
 */
export function firstChoice<P extends ValidatedPoint>(fitness: RunConfig['fitness'], start: P, other: P | null, eligible: boolean): P {
  if (!other) return start;
  if (!eligible) return other;
  const paired = pairedDifference(other, start, (g) => gameObjective(fitness, g));
  return paired.diffs.length > 0 && paired.mean < 0 ? start : other;
}

/** What the first held-out set decides: the choice, the rival the start is weighed against, and who may win on a second set. */
export interface FirstSet<P> {
  first: P;
  /** The choice, or when the start won, what could have been chosen (else the best other finalist, over the ceiling or not); null: no finalist but the start. */
  rival: P | null;
  /** What may be chosen over the start (the best finalist within the ceiling, or a pooled optimizer's own point); null: nothing. */
  contender: P | null;
  overCeiling: Pick<StartVerdict, 'overCeiling'>;
}

/**
 * The first set's decision, for the tuner and every view alike. `own`: a pooled optimizer's own point (null when
 * it is the start; undefined for every other optimizer). `kept`: whether a point's held-out games kept within the
 * run's cost ceiling (always true without one).
 */
export function decideFirstSet<P extends ValidatedPoint>(config: Pick<RunConfig, 'fitness' | 'optimizer'>, start: P, others: readonly P[], own: P | null | undefined, kept: (p: P) => boolean): FirstSet<P> {
  const bestOther = bestFinalist(others.filter(kept));
  const contender = own !== undefined ? own : bestOther;
  const first = firstChoice(config.fitness, start, contender, kept(start));
  // Where every finalist went over the ceiling, the best of them is still what the start is weighed against (never "every finalist is the start").
  const rival = first.id !== start.id ? first : (contender ?? bestOther ?? bestFinalist(others));
  return { first, rival, contender, overCeiling: ceilingVerdict(config, kept(start), rival ? kept(rival) : true) };
}

/** a − b on the seeds both played: the per-seed differences and their mean. */
function pairedDifference(a: ValidatedPoint, b: ValidatedPoint, value: (g: ScoredGame) => number): { diffs: number[]; mean: number; b: number } {
  const theirs = new Map(a.games.map((g) => [g.seed, value(g)]));
  const common = b.games.filter((g) => theirs.has(g.seed));
  const diffs = common.map((g) => theirs.get(g.seed)! - value(g));
  return { diffs, mean: diffs.length ? mean(diffs) : NaN, b: diffs.length ? mean(common.map(value)) : NaN };
}

/** `rival` against the start on their games of one set, paired seed by seed; `best` is the run's best (the rival or the start). */
export function weighStart(fitness: RunConfig['fitness'], start: ValidatedPoint, best: ValidatedPoint, rival: ValidatedPoint | null, set?: 'confirmation'): StartVerdict {
  const point = (c: ValidatedPoint) => ({ candidate: c.id, validation: c.validation });
  if (!rival) return { start: point(start), best: point(best), rival: null, games: start.games.length, difference: 0, halfWidth: 0, clear: false, gamesToResolve: null, ...(set ? { set } : {}) };
  const paired = pairedDifference(rival, start, (g) => gameObjective(fitness, g));
  const { diffs } = paired;
  const ci = diffs.length >= 2 ? meanWithCI95(diffs) : null;
  const halfWidth = ci ? (ci.high - ci.low) / 2 : Infinity;
  const sd = diffs.length >= 2 ? stdev(diffs) : 0;
  const difference = diffs.length > 0 ? paired.mean : 0;
  // Games a gap this size needs to be found 80 % of the time by a two-sided test at 5 % (not merely to be 1.96 standard errors, which finds it half the time).
  const gamesToResolve = Math.abs(difference) > halfWidth || difference === 0 || sd === 0 ? null : Math.ceil((((normalQuantile(0.975) + normalQuantile(0.8)) * sd) / difference) ** 2);
  // The figures said are the paired ones: the start's mean over the seeds the rival played too.
  const startOnPaired = { candidate: start.id, validation: diffs.length > 0 ? paired.b : start.validation };
  const bestPoint = best.id === start.id ? startOnPaired : point(best);
  return { start: startOnPaired, best: bestPoint, rival: point(rival), games: diffs.length, difference, halfWidth, clear: difference > halfWidth, gamesToResolve, ...(set ? { set } : {}) };
}

/**
 * The second set's word on the first set's choice: the choice stands unless the other is clearly better there
 * (the 95 % interval of their paired difference clear of 0 in the other's favour). `verdict` is the rival
 * against the start on the second set.
 */
export function secondSetChoice(first: number, verdict: StartVerdict, eligible: boolean, rivalMayWin = true): number {
  if (!verdict.rival) return first;
  const startId = verdict.start.candidate;
  if (first !== startId && eligible && verdict.difference < -verdict.halfWidth) return startId;
  if (first === startId && rivalMayWin && verdict.clear) return verdict.rival.candidate;
  return first;
}

/**
 * The second set's decision and the verdict read there, for the tuner and every view alike: the first set's
 * choice (`firstId`) stands unless the other is clearly better on the second set (secondSetChoice); the verdict
 * weighs the rival against the start there, the choice as the run's best, and says when it was overturned.
 */
export function decideSecondSet(fitness: RunConfig['fitness'], firstId: number, startSecond: ValidatedPoint, rivalSecond: ValidatedPoint | null, startEligible: boolean, rivalMayWin: boolean): { choice: number; verdict: StartVerdict } {
  const onSecond = weighStart(fitness, startSecond, rivalSecond ?? startSecond, rivalSecond, 'confirmation');
  const choice = secondSetChoice(firstId, onSecond, startEligible, rivalMayWin);
  const best = choice === startSecond.id || !onSecond.rival ? onSecond.start : onSecond.rival;
  return { choice, verdict: { ...onSecond, best, ...(choice !== firstId ? { overturned: true } : {}) } };
}

/**
 * The verdict of a validated run from its store, or null before validation (or for a run whose start was not
 * validated). A run with a second set is weighed there when its two played it (a run from before the best other
 * played it beside the start is weighed on the first set).
 */
export function runStartVerdict(store: Store, problem: VerdictProblem): StartVerdict | null {
  const { config } = problem;
  const run = store.getRun(problem.run.id);
  if (!run || run.bestCandidate === null) return null;
  const candidates = store.validatedCandidates(run.id);
  const validated = candidates.map((c) => ({ id: c.id, genome: c.genome, origin: c.origin, validation: c.validation!, games: store.getGames(c.id, 'validation') }));
  const start = findStart(validated, problem);
  if (!start || !validated.some((c) => c.id === run.bestCandidate)) return null;
  const others = validated.filter((c) => c !== start);
  const kept = (c: { games: (typeof validated)[number]['games'] }) => keepsCeiling(config, c.games);
  const own = ownPoint(problem, validated);
  const { first, rival, contender, overCeiling } = decideFirstSet(config, start, others, own ? (own === start ? null : own) : undefined, kept);
  const confirmed = candidates.filter((c) => c.confirmation !== null);
  const startConfirmed = confirmed.find((c) => c.id === start.id);
  const rivalConfirmed = confirmed.find((c) => c.id !== start.id);
  if (startConfirmed && rivalConfirmed) {
    const second = (c: (typeof candidates)[number]) => ({ id: c.id, validation: c.confirmation!, games: store.getGames(c.id, 'confirmation') });
    const s = second(startConfirmed);
    const r = second(rivalConfirmed);
    const overCeilingThere = ceilingVerdict(config, kept(start), kept(validated.find((c) => c.id === r.id)!));
    const decided = decideSecondSet(config.fitness, first.id, s, r, kept(start), contender !== null);
    if (decided.choice === run.bestCandidate) return { ...decided.verdict, ...overCeilingThere };
    // A run stored under an older rule, which remade the choice by the second set's point estimate: weighed as it
    // stands, and not said to have been overturned.
    return { ...weighStart(config.fitness, s, run.bestCandidate === s.id ? s : r, r, 'confirmation'), ...overCeilingThere };
  }
  const best = validated.find((c) => c.id === run.bestCandidate)!;
  if (best.id === first.id) return { ...weighStart(config.fitness, start, best, rival), ...overCeiling };
  // A run stored under an older rule, whose best is not this rule's first choice: weighed as it stands.
  const weighed = best.id !== start.id ? best : rival;
  return { ...weighStart(config.fitness, start, best, weighed), ...ceilingVerdict(config, kept(start), weighed ? kept(weighed) : true) };
}

/** The verdict in one line, for the end of a run, show, the report and export. */
export function describeStartVerdict(v: StartVerdict): string {
  const signed = (x: number) => `${x >= 0 ? '+' : '−'}${figure(Math.abs(x))}`;
  const second = v.set === 'confirmation';
  const gap = `${signed(v.difference)} ± ${figure(v.halfWidth)} (95 %) on ${v.games} ${second ? 'games of a second held-out set' : 'held-out games'}`;
  const resolve = v.gamesToResolve !== null ? `; about ${v.gamesToResolve.toLocaleString('en-US')} held-out games per candidate (${second ? 'validation.confirm' : 'validation.games'}) would find a gap this size 80 % of the time` : '';
  const overturned = v.overturned ? ` (the second set overturned the first set's choice: there the other was clearly better)` : '';
  if (!v.rival) return `nothing beats the start: every finalist is the start itself (held-out ${figure(v.start.validation)})`;
  if (v.best.candidate === v.start.candidate && v.overCeiling?.rival) {
    const none = v.overCeiling.start ? `no validated point kept within the cost ceiling on its held-out games, the start neither` : `nothing within the cost ceiling beats the start`;
    return `${none}: the best finalist (candidate ${v.rival.candidate}) validated ${figure(v.rival.validation)} against the start's ${figure(v.start.validation)}, ${gap}, but its held-out games cost more than fitness.maxCost; the run's best is its start (candidate ${v.start.candidate})`;
  }
  if (v.best.candidate === v.start.candidate) {
    return `nothing beats the start: the best finalist (candidate ${v.rival.candidate}) validated ${figure(v.rival.validation)} against the start's ${figure(v.start.validation)}, ${gap}; the run's best is its start (candidate ${v.start.candidate})${overturned}${resolve}`;
  }
  if (v.difference < 0 && v.overCeiling?.start) {
    return `the run's best (candidate ${v.best.candidate}) reads below the start, which did not keep within the cost ceiling on its held-out games (so it may not be chosen): ${figure(v.best.validation)} against the start's ${figure(v.start.validation)}, ${gap}${resolve}`;
  }
  if (v.difference < -v.halfWidth) {
    // Not a choice this code makes (the second set would have turned it over); a run stored under an older rule can read so.
    return `the run's best (candidate ${v.best.candidate}) reads below the start beyond the noise: ${figure(v.best.validation)} against the start's ${figure(v.start.validation)}, ${gap}; the start may be the better of the two${overturned}`;
  }
  if (!v.clear && v.difference < 0) {
    // The first set chose it; the second reads it below the start, within the noise: the choice is not made again there.
    return `the run's best (candidate ${v.best.candidate}, the first held-out set's choice) reads below the start by less than the noise: ${figure(v.best.validation)} against the start's ${figure(v.start.validation)}, ${gap}; it is not shown better than the start, nor worse (a choice is made again on the second set only past its 95 % interval)${overturned}${resolve}`;
  }
  if (!v.clear) return `the run's best (candidate ${v.best.candidate}, the first held-out set's choice) leads the start by less than the noise: ${figure(v.best.validation)} against the start's ${figure(v.start.validation)}, ${gap}; it is not shown better than the start${overturned}${resolve}`;
  return `the best beats the start: candidate ${v.best.candidate} ${figure(v.best.validation)} against the start's ${figure(v.start.validation)}, ${gap}${overturned}`;
}

