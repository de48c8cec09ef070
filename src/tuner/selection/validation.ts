/**
 * What validation plays, in one place: the tuner plays it, and every view (runs, show, the dashboard, the
 * report) counts its progress from it, so they all say the same "N of M held-out games".
 *
 * One objective: the best few distinct weight sets of the last generation by fitness, plus any distribution
 * mean (CMA-ES's recommendation). Two objectives: the run's front on its fitness games (at most
 * validation.front points, the most spread). Either way the run's start is played beside them on the same
 * held-out seeds (once, if it is among them).
 */
import { gamesKey } from '../../player/spec';
import type { Candidate, FinalistPrediction, Game, GamePurpose, Store } from '../../store/store';
import { FRONT_POINTS } from '../run/config';
import { frontToValidate, hasFront } from './front';
import type { GamesByCandidate } from '../run/game-batches';
import type { RunProblem } from '../run/run-problem';
import { confirmationSeeds, validationSeeds } from '../run/seeds';
import { raceCost, type RacingConfig } from './racing';
import { findStart } from './verdict';
import { gameObjective } from '../objective/fitness';
import { stdev } from '../../util/stats';

/** A validated candidate at the end of a run: in-sample fitness, held-out value (over the games it played: a race stops some early), and what else was said of it. */
export interface FinalistResult {
  candidate: number;
  fitness: number;
  validation: number;
  /** Held-out games it played. */
  games: number;
  start: boolean;
  /** The model's prediction when validation began (the model optimizer's finalists). */
  prediction?: FinalistPrediction;
  /** Its value on the second held-out set (the winner and the start, with validation.confirm). */
  confirmation?: { value: number; games: number };
}

/** A finalist's line at the end of a run and in show: in-sample or predicted, held-out, and the second set's value. */
export function describeFinalist(f: FinalistResult, fmt: (x: number) => string, screened = false): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const head = `${f.start ? 'the start,' : 'finalist'} candidate ${f.candidate}`;
  // Screened (fitness.screen), fitness and the model's predictions are minus a mean regret: said as regret.
  const before = screened
    ? f.prediction ? `predicted regret ${(-f.prediction.mean).toFixed(2)} ± ${(1.96 * f.prediction.sd).toFixed(2)} (the model, 95 %; ${f.prediction.games} games there)` : `regret ${(-f.fitness).toFixed(2)} (in-sample)`
    : f.prediction ? `predicted ${n(f.prediction.mean)} ± ${n(1.96 * f.prediction.sd)} (the model, 95 %; ${f.prediction.games} games there)` : `fitness ${fmt(f.fitness)} (in-sample)`;
  const raced = f.prediction || f.confirmation ? ` (held-out, ${f.games} games)` : ' (held-out)';
  const second = f.confirmation ? `  confirmation ${fmt(f.confirmation.value)} (a second held-out set, ${f.confirmation.games} games)` : '';
  return `${head}: ${before}  validation ${fmt(f.validation)}${raced}${second}`;
}

/**
 * A finished run's validated candidates as the end of the run listed them (the finalists, then the start),
 * read back from the store: their held-out games, the model's predictions and the second set's values.
 */
export function finalistResults(store: Store, problem: RunProblem): FinalistResult[] {
  const startParams = JSON.stringify(problem.space.params(problem.space.startGenome()));
  const validated = store.validatedCandidates(problem.run.id).sort((a, b) => Number(JSON.stringify(a.params) === startParams) - Number(JSON.stringify(b.params) === startParams) || (b.prediction?.mean ?? 0) - (a.prediction?.mean ?? 0) || a.id - b.id);
  return validated.map((c) => {
    const confirmation = c.confirmation !== null ? { value: c.confirmation, games: store.getGames(c.id, 'confirmation').length } : undefined;
    return { candidate: c.id, fitness: c.fitness ?? NaN, validation: c.validation!, games: store.getGames(c.id, 'validation').length, start: JSON.stringify(c.params) === startParams, ...(c.prediction ? { prediction: c.prediction } : {}), ...(confirmation ? { confirmation } : {}) };
  });
}

/**
 * How honest the model was: of the finalists it predicted, how many held-out means fall within the 95 %
 * interval of the difference (the prediction's sd and the held-out mean's standard error combined).
 */
export function modelHonesty(store: Store, results: readonly FinalistResult[], fitness: RunProblem['config']['fitness']): { within: number; of: number } | null {
  // Screened, the model predicts regret and held-out games score: nothing to hold one against the other.
  if (fitness.screen) return null;
  const predicted = results.filter((r) => r.prediction);
  if (predicted.length === 0) return null;
  let within = 0;
  for (const r of predicted) {
    const values = store.getGames(r.candidate, 'validation').map((g) => gameObjective(fitness, g));
    const se = values.length >= 2 ? stdev(values) / Math.sqrt(values.length) : Infinity;
    if (Math.abs(r.validation - r.prediction!.mean) <= 1.96 * Math.hypot(r.prediction!.sd, se)) within++;
  }
  return { within, of: predicted.length };
}

export interface ValidationSet {
  /** The finalists (or front points) chosen from the run's generations. */
  chosen: Candidate[];
  /** The run's start (generation 0 always holds it). */
  start: Candidate;
  /** chosen, and the start when it is not one of them: what is played on the held-out seeds. */
  played: Candidate[];
  /** Their held-out games stored so far. */
  games: GamesByCandidate;
  seeds: number[];
  /** The race over the held-out seeds (validation.race), or null: every one plays every seed. */
  race: RacingConfig | null;
  /** The second held-out set (validation.confirm): its seeds and the confirmation games stored so far; null without one. */
  confirm: { seeds: number[]; games: GamesByCandidate } | null;
}

/** The candidates validation plays once generation `lastGeneration` is done, with their stored held-out games. */
export function validationSet(store: Store, problem: RunProblem, lastGeneration: number): ValidationSet {
  const runId = problem.run.id;
  const { chosen, games } = hasFront(problem.config) ? frontCandidates(store, problem, lastGeneration) : problem.optimizer.finalists ? modelFinalists(store, problem) : finalists(store, problem, lastGeneration);
  const startParams = problem.space.params(problem.space.startGenome());
  const start = findStart(chosen, startParams) ?? findStart(store.getCandidates(runId, 0), startParams);
  if (!start) throw new Error(`run ${runId}: no candidate of generation 0 is the start`);
  const played = chosen.includes(start) ? chosen : [...chosen, start];
  if (!games.has(start.id) && start.generation !== lastGeneration) games.set(start.id, store.generationGames(runId, start.generation, 'validation').get(start.id) ?? []);
  const v = problem.config.validation;
  const confirm = v.confirm !== undefined && !hasFront(problem.config) ? { seeds: confirmationSeeds(problem.config.seed, v.confirm, v.games), games: gamesOf(store, runId, played, 'confirmation') } : null;
  return { chosen, start, played, games, seeds: validationSeeds(problem.config.seed, v.games), race: hasFront(problem.config) ? null : (v.race ?? null), confirm };
}

/** The model optimizer's finalists, as stored when validation began (with their predictions; none before), with their validation games. */
function modelFinalists(store: Store, problem: RunProblem): { chosen: Candidate[]; games: GamesByCandidate } {
  const chosen = store.predictedFinalists(problem.run.id);
  return { chosen, games: gamesOf(store, problem.run.id, chosen, 'validation') };
}

/** Some candidates' games of one purpose, read a generation at a time (never a candidate at a time). */
export function gamesOf(store: Store, runId: number, candidates: readonly Candidate[], purpose: GamePurpose): GamesByCandidate {
  const out: GamesByCandidate = new Map();
  for (const g of new Set(candidates.map((c) => c.generation))) {
    const byCandidate = store.generationGames(runId, g, purpose);
    for (const c of candidates) if (c.generation === g) out.set(c.id, byCandidate.get(c.id) ?? []);
  }
  return out;
}

/** One objective: the best few distinct weight sets of the last generation (and any mean), with their validation games. */
function finalists(store: Store, problem: RunProblem, lastGeneration: number): { chosen: Candidate[]; games: GamesByCandidate } {
  const runId = problem.run.id;
  const ranked = [...store.getCandidates(runId, lastGeneration)].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity));
  // Distinct players only: a copy of a finalist, or a twin that plays as it does, would validate to the same number.
  const seen = new Set<string>();
  const distinct = ranked.filter((c) => {
    const key = gamesKey(problem.playerOf(c.genome));
    return !seen.has(key) && seen.add(key);
  });
  const chosen = distinct.filter((c, i) => i < problem.config.validation.finalists || c.origin === 'mean');
  return { chosen, games: store.generationGames(runId, lastGeneration, 'validation') };
}

/** Two objectives: the run's front on its fitness games (at most validation.front points, the most spread), with their validation games. */
function frontCandidates(store: Store, problem: RunProblem, lastGeneration: number): { chosen: Candidate[]; games: GamesByCandidate } {
  const runId = problem.run.id;
  const { config } = problem;
  const candidates = Array.from({ length: lastGeneration + 1 }, (_, g) => store.getCandidates(runId, g)).flat();
  const fitness = new Map<number, Game[]>();
  const games: GamesByCandidate = new Map();
  for (const game of store.runGames(runId)) {
    if (game.purpose === 'confirmation') continue;
    const into = game.purpose === 'fitness' ? fitness : games;
    const list = into.get(game.candidateId);
    if (list) list.push(game);
    else into.set(game.candidateId, [game]);
  }
  return { chosen: frontToValidate(config.fitness, candidates, fitness, config.validation.front ?? FRONT_POINTS, (genome) => gamesKey(problem.playerOf(genome))), games };
}

/** Held-out games played and planned; null while the generations are still being played (the set is not chosen yet). */
export interface ValidationProgress {
  done: number;
  total: number;
}

/**
 * A run's validation progress from what is stored: once its generations are done, the games of validationSet
 * on the held-out seeds (a finished run: its validated candidates, every one played in full).
 */
export function validationProgress(store: Store, problem: RunProblem): ValidationProgress | null {
  const runId = problem.run.id;
  const perCandidate = problem.config.validation.games;
  const finished = problem.run.bestCandidate !== null;
  const v = problem.config.validation;
  if (finished && !v.race && v.confirm === undefined) {
    const validated = store.validatedCandidates(runId).length;
    return { done: validated * perCandidate, total: validated * perCandidate };
  }
  const generations = store.listGenerations(runId);
  const last = generations.at(-1);
  // Validation follows the last generation planned, or an earlier one where the optimizer's budget ran out (then its games tell).
  if (!last || last.status !== 'done') return null;
  if (!finished && generations.length < problem.config.optimizer.generations && store.generationGames(runId, last.idx, 'validation').size === 0 && store.predictedFinalists(runId).length === 0) return null;
  const set = validationSet(store, problem, last.idx);
  if (set.chosen.length === 0 && problem.optimizer.finalists) return null; // the model's finalists are not chosen yet
  const seeds = new Set(set.seeds);
  const heldOut = set.played.reduce((n, c) => n + Math.min(perCandidate, (set.games.get(c.id) ?? []).filter((g) => seeds.has(g.seed)).length), 0);
  const confirmSeeds = new Set(set.confirm?.seeds ?? []);
  const confirmed = set.confirm ? set.played.reduce((n, c) => n + (set.confirm!.games.get(c.id) ?? []).filter((g) => confirmSeeds.has(g.seed)).length, 0) : 0;
  const done = heldOut + confirmed;
  // A finished run played what it played; a running one plans the race's games and the confirmation (its winner and the start).
  if (finished) return { done, total: done };
  const confirmTotal = set.confirm ? set.confirm.seeds.length * Math.min(2, set.played.length) : 0;
  return { done, total: Math.max(done, raceCost(set.played.length, set.seeds.length, set.race ?? undefined) + confirmTotal) };
}