/**
 * What validation plays, in one place: the tuner plays it, and every view (runs, show, the dashboard, the
 * report) counts its progress from it, so they all say the same "N of M held-out games".
 *
 * One objective: the best few distinct weight sets of the last generation by fitness, plus any distribution
 * mean (CMA-ES's recommendation). Two objectives: the run's front on its fitness games (at most
 * validation.front points, the most spread). Either way the run's start is played beside them on the same
 * held-out seeds (once, if it is among them).
 */
import { playerKey } from '../player/spec';
import type { Candidate, Game, Store } from '../store/store';
import { FRONT_POINTS } from './config';
import { frontToValidate, hasFront } from './front';
import type { GamesByCandidate } from './game-batches';
import type { RunProblem } from './run-problem';
import { validationSeeds } from './seeds';
import { findStart } from './start-verdict';

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
}

/** The candidates validation plays once generation `lastGeneration` is done, with their stored held-out games. */
export function validationSet(store: Store, problem: RunProblem, lastGeneration: number): ValidationSet {
  const runId = problem.run.id;
  const { chosen, games } = hasFront(problem.config) ? frontCandidates(store, problem, lastGeneration) : finalists(store, problem, lastGeneration);
  const startParams = problem.space.params(problem.space.startGenome());
  const start = findStart(chosen, startParams) ?? findStart(store.getCandidates(runId, 0), startParams);
  if (!start) throw new Error(`run ${runId}: no candidate of generation 0 is the start`);
  const played = chosen.includes(start) ? chosen : [...chosen, start];
  if (!games.has(start.id) && start.generation !== lastGeneration) games.set(start.id, store.generationGames(runId, start.generation, 'validation').get(start.id) ?? []);
  return { chosen, start, played, games, seeds: validationSeeds(problem.config.seed, problem.config.validation.games) };
}

/** One objective: the best few distinct weight sets of the last generation (and any mean), with their validation games. */
function finalists(store: Store, problem: RunProblem, lastGeneration: number): { chosen: Candidate[]; games: GamesByCandidate } {
  const runId = problem.run.id;
  const ranked = [...store.getCandidates(runId, lastGeneration)].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity));
  // Distinct weight sets only: a copy of a finalist would validate to the same number.
  const seen = new Set<string>();
  const distinct = ranked.filter((c) => {
    const key = JSON.stringify(c.params);
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
    const into = game.purpose === 'fitness' ? fitness : games;
    const list = into.get(game.candidateId);
    if (list) list.push(game);
    else into.set(game.candidateId, [game]);
  }
  return { chosen: frontToValidate(config.fitness, candidates, fitness, config.validation.front ?? FRONT_POINTS, (genome) => playerKey(problem.playerOf(genome))), games };
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
  if (problem.run.bestCandidate !== null) {
    const validated = store.validatedCandidates(runId).length;
    return { done: validated * perCandidate, total: validated * perCandidate };
  }
  const generations = store.listGenerations(runId);
  const last = generations.at(-1);
  // Validation follows the last generation planned, or an earlier one where the optimizer's budget ran out (then its games tell).
  if (!last || last.status !== 'done') return null;
  if (generations.length < problem.config.optimizer.generations && store.generationGames(runId, last.idx, 'validation').size === 0) return null;
  const set = validationSet(store, problem, last.idx);
  const seeds = new Set(set.seeds);
  const done = set.played.reduce((n, c) => n + Math.min(perCandidate, (set.games.get(c.id) ?? []).filter((g) => seeds.has(g.seed)).length), 0);
  return { done, total: set.played.length * perCandidate };
}
