/**
 * Worker entry (a worker-farm child): plays batches of seeded games and
 * returns their results. It never opens the database.
 */
import { playGame } from '../engine/game';
import type { Searcher } from '../search/expectimax';
import { createSolver } from '../solver/solver';
import type { BatchResult, BatchTask } from './protocol';

// Ctrl-C in a terminal reaches the whole process group: let the parent decide
// when workers stop, so it can commit finished batches first.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => process.exit(0));
// The parent died (kill -9): nothing will read our results.
process.on('disconnect', () => process.exit(0));

// Consecutive batches usually belong to the same candidate: keep the last few solvers.
const solvers = new Map<string, Searcher>();
const CACHED_SOLVERS = 2;

function solverFor(task: BatchTask): Searcher {
  const key = JSON.stringify([task.weights, task.search]);
  let solver = solvers.get(key);
  if (solver) {
    solvers.delete(key);
  } else {
    solver = createSolver(task.weights, { cacheMB: 16, ...task.search });
    if (solvers.size >= CACHED_SOLVERS) solvers.delete(solvers.keys().next().value as string);
  }
  solvers.set(key, solver);
  return solver;
}

export function playBatch(task: BatchTask, callback: (error: Error | null, result?: BatchResult) => void): void {
  try {
    const solver = solverFor(task);
    const games = task.seeds.map((seed) => {
      const r = playGame(solver, seed);
      return { seed, score: r.score, maxTile: r.maxTile, moves: r.moves, ms: r.ms };
    });
    callback(null, { pid: process.pid, games });
  } catch (e) {
    callback(e as Error);
  }
}
