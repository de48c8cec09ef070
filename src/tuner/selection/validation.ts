/**
 * What validation plays, in one place: the tuner plays it, and every view (runs, show, the dashboard, the
 * report) counts its progress from it, so they all say the same "N of M held-out games".
 *
 * One objective: the best few distinct points of the last generation by fitness (ranked by the round of its race
 * each reached, then its mean), plus any distribution mean (CMA-ES's recommendation), or the model optimizer's
 * finalists. Two objectives: the run's front on its fitness games (at most validation.front points, the most
 * spread). Either way the run's start is played beside them on the same held-out seeds (once, if it is among
 * them), the control of any race over them.
 */
import type { Candidate, FinalistPrediction, Game, GamePurpose, Store } from '../../store/store';
import { costPerMove } from '../../compare/summary';
import { FRONT_POINTS, plannedGenerations } from '../config/config';
import { frontToValidate } from './front';
import type { GamesByCandidate } from '../run/game-batches';
import type { RunProblem } from '../run/run-problem';
import { confirmationSeeds, generationSeeds, unsaltedConfirmationSeeds, validationSeeds } from '../run/seeds';
import { byRoundThenValue, generationRound, type RacingConfig } from './racing';
import { plannedValidationGames } from './validation-plan';
import { findStart, ownPoint } from './verdict';
import { gameObjective, hasFront } from '../objective/fitness';
import { hasCostCeiling, keepsCeiling } from '../objective/cost-ceiling';
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
  const validated = store.validatedCandidates(problem.run.id);
  const start = findStart(validated, problem);
  const isStart = (c: Candidate) => c === start;
  const ordered = [...validated].sort((a, b) => Number(isStart(a)) - Number(isStart(b)) || (b.prediction?.mean ?? 0) - (a.prediction?.mean ?? 0) || a.id - b.id);
  return ordered.map((c) => {
    const confirmation = c.confirmation !== null ? { value: c.confirmation, games: store.getGames(c.id, 'confirmation').length } : undefined;
    return { candidate: c.id, fitness: c.fitness ?? NaN, validation: c.validation!, games: store.getGames(c.id, 'validation').length, start: isStart(c), ...(c.prediction ? { prediction: c.prediction } : {}), ...(confirmation ? { confirmation } : {}) };
  });
}

/**
 * A run within a cost ceiling: each validated candidate's cost per move on its held-out games (both sets), and
 * whether it keeps within fitness.maxCost there (a finalist that does not cannot be chosen: the tuner sets it
 * aside). Empty for a run without a ceiling.
 */
export function heldOutCosts(store: Store, problem: Pick<RunProblem, 'run' | 'config'>): { candidate: number; cost: number | null; within: boolean }[] {
  if (!hasCostCeiling(problem.config)) return [];
  return store.validatedCandidates(problem.run.id).map((c) => {
    const games = [...store.getGames(c.id, 'validation'), ...store.getGames(c.id, 'confirmation')];
    return { candidate: c.id, cost: costPerMove(games) ?? null, within: keepsCeiling(problem.config, games) };
  });
}

/** The line for a validated candidate over the ceiling on its held-out games (a run within one), or null. */
export function describeOverCeiling(c: { candidate: number; cost: number | null; within: boolean }, maxCost: number, best: number | null): string | null {
  if (c.within) return null;
  const what = c.cost === null ? 'counted no positions on its held-out games' : `searched ${Math.round(c.cost).toLocaleString('en-US')} positions a move on its held-out games, over fitness.maxCost ${maxCost.toLocaleString('en-US')}`;
  return c.candidate === best ? `the run's best, candidate ${c.candidate}, ${what}` : `candidate ${c.candidate} ${what}: it could not be the run's best`;
}

/** The lines a run within a cost ceiling adds to its verdict: each validated candidate over the ceiling on its held-out games (none: all within). */
export function ceilingLines(store: Store, problem: Pick<RunProblem, 'run' | 'config'>): string[] {
  const best = store.getRun(problem.run.id)?.bestCandidate ?? null;
  return heldOutCosts(store, problem).flatMap((c) => describeOverCeiling(c, problem.config.fitness.maxCost!, best) ?? []);
}

/**
 * The seeds of a run's second held-out set, as its config derives them; a run stored before the set was salted
 * by the validation config (its stored games on seeds of the old rule) keeps the set it played.
 */
export function secondSetSeeds(store: Store, problem: Pick<RunProblem, 'run' | 'config'>): number[] {
  const { seed, validation } = problem.config;
  const seeds = confirmationSeeds(seed, validation);
  const derived = new Set(seeds);
  const played: number[] = [];
  for (const c of store.validatedCandidates(problem.run.id)) for (const g of store.getGames(c.id, 'confirmation')) played.push(g.seed);
  if (played.every((s) => derived.has(s))) return seeds;
  return unsaltedConfirmationSeeds(seed, validation.confirm ?? 0, validation.games);
}

/**
 * How honest the model was: of the finalists it predicted, how many held-out means fall within the 95 %
 * interval of the difference (the prediction's sd and the held-out mean's standard error combined). Only the
 * finalists a held-out race played to its end count: one stopped after a slice keeps a mean selected low.
 */
export function modelHonesty(store: Store, results: readonly FinalistResult[], fitness: RunProblem['config']['fitness']): { within: number; of: number } | null {
  // Screened, the model predicts regret and held-out games score: nothing to hold one against the other.
  if (fitness.screen) return null;
  const most = Math.max(0, ...results.map((r) => r.games));
  const predicted = results.filter((r) => r.prediction && r.games === most);
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
  /** Who the race never stops: the start, and a pooled optimizer's own point (verdict.ts ownPoint: what may be chosen over it). */
  controls: Candidate[];
  /** The second held-out set (validation.confirm): its seeds and the confirmation games stored so far; null without one. */
  confirm: { seeds: number[]; games: GamesByCandidate } | null;
}

/** The candidates validation plays once generation `lastGeneration` is done, with their stored held-out games. */
/** `lastFitnessGames`: the last generation's fitness games if the caller has them (they are read otherwise). */
export function validationSet(store: Store, problem: RunProblem, lastGeneration: number, lastFitnessGames?: GamesByCandidate): ValidationSet {
  const runId = problem.run.id;
  const { chosen, games } = hasFront(problem.config) ? frontCandidates(store, problem, lastGeneration) : problem.optimizer.finalists ? modelFinalists(store, problem) : finalists(store, problem, lastGeneration, lastFitnessGames);
  const start = findStart(chosen, problem) ?? findStart(store.getCandidates(runId, 0), problem);
  if (!start) throw new Error(`run ${runId}: no candidate of generation 0 is the start`);
  const played = chosen.includes(start) ? chosen : [...chosen, start];
  if (!games.has(start.id) && start.generation !== lastGeneration) games.set(start.id, store.generationGames(runId, start.generation, 'validation').get(start.id) ?? []);
  const v = problem.config.validation;
  const confirm = v.confirm !== undefined && !hasFront(problem.config) ? { seeds: secondSetSeeds(store, problem), games: gamesOf(store, runId, played, 'confirmation') } : null;
  const own = ownPoint(problem, chosen);
  const controls = own && own !== start ? [start, own] : [start];
  return { chosen, start, played, games, seeds: validationSeeds(problem.config.seed, v.games), race: hasFront(problem.config) ? null : (v.race ?? null), controls, confirm };
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

/**
 * One objective: the best few distinct points of the last generation (and any mean), with their validation games.
 * With fitness.racing, ranked by the round of the generation's race each reached, then by fitness (a candidate
 * stopped early keeps the mean of the slice it was stopped for, never set against full means).
 */
function finalists(store: Store, problem: RunProblem, lastGeneration: number, fitnessGames?: GamesByCandidate): { chosen: Candidate[]; games: GamesByCandidate } {
  const runId = problem.run.id;
  const standing = generationStandings(store, problem, lastGeneration, fitnessGames);
  const ranked = [...store.getCandidates(runId, lastGeneration)].sort((a, b) => byRoundThenValue(standing(a), standing(b)));
  // Distinct points only: a copy of a finalist, or a twin that plays as it does, would validate to the same number.
  const seen = new Set<string>();
  const distinct = ranked.filter((c) => {
    const key = problem.pointKey(c.genome);
    return !seen.has(key) && seen.add(key);
  });
  const chosen = distinct.filter((c, i) => i < problem.config.validation.finalists || c.origin === 'mean');
  return { chosen, games: store.generationGames(runId, lastGeneration, 'validation') };
}

/** A generation's candidates' standings: the round of its race each reached (1 without racing), then its fitness. */
export function generationStandings(store: Store, problem: Pick<RunProblem, 'run' | 'config' | 'optimizer'>, generation: number, fitnessGames?: GamesByCandidate): (c: Candidate) => { round: number; value: number } {
  const racing = problem.config.fitness.racing;
  if (!racing) return (c) => ({ round: 1, value: c.fitness ?? -Infinity });
  const state = store.getGeneration(problem.run.id, generation)?.state;
  const seeds = generationSeeds(problem.config.seed, generation, problem.optimizer.summary(state).games ?? problem.config.fitness.games).length;
  const games = fitnessGames ?? store.generationGames(problem.run.id, generation, 'fitness');
  return (c) => ({ round: generationRound((games.get(c.id) ?? []).length, seeds, racing), value: c.fitness ?? -Infinity });
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
  return { chosen: frontToValidate(config.fitness, candidates, fitness, config.validation.front ?? FRONT_POINTS, problem.pointKey), games };
}

/** Held-out games played and planned; null while the generations are still being played (the set is not chosen yet). */
export interface ValidationProgress {
  done: number;
  total: number;
}

/**
 * A run's validation progress from what is stored: once its generations are done, the games of validationSet
 * on the held-out seeds and its second set (a finished run: what it played), against plannedValidationGames.
 */
export function validationProgress(store: Store, problem: RunProblem): ValidationProgress | null {
  const runId = problem.run.id;
  const v = problem.config.validation;
  const finished = problem.run.bestCandidate !== null;
  if (finished && !v.race && v.confirm === undefined) {
    const validated = store.validatedCandidates(runId).length;
    return { done: validated * v.games, total: validated * v.games };
  }
  const generations = store.listGenerations(runId);
  const last = generations.at(-1);
  // Validation follows the last generation planned, or an earlier one where the optimizer's budget ran out (then its games tell).
  if (!last || last.status !== 'done') return null;
  if (!finished && generations.length < plannedGenerations(problem.config) && store.generationGames(runId, last.idx, 'validation').size === 0 && store.predictedFinalists(runId).length === 0) return null;
  const set = validationSet(store, problem, last.idx);
  if (set.chosen.length === 0 && problem.optimizer.finalists) return null; // the model's finalists are not chosen yet
  const seeds = new Set(set.seeds);
  const heldOut = set.played.reduce((n, c) => n + Math.min(v.games, (set.games.get(c.id) ?? []).filter((g) => seeds.has(g.seed)).length), 0);
  const confirmed = set.confirm ? set.played.reduce((n, c) => n + (set.confirm!.games.get(c.id) ?? []).length, 0) : 0;
  const done = heldOut + confirmed;
  // A finished run played what it played; a running one plans the race's games and the second set's.
  if (finished) return { done, total: done };
  return { done, total: Math.max(done, plannedValidationGames(v, set.played.length, hasFront(problem.config), set.controls.length)) };
}
