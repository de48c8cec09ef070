/**
 * The worker entry (loaded through child.ts in a worker-farm child, locally or
 * under `tune2048 worker`): plays batches of seeded games and returns their
 * results. It never opens the database.
 */
import type { Board } from '../engine/board';
import { playGame, type Player } from '../engine/game';
import type { GamePlayer } from '../search/player';
import { createPlayer } from '../solver/solver';
import { parentGone } from './parent';
import type { BatchResult, BatchTask } from './protocol';

// Consecutive batches usually belong to the same candidate: keep the last few solvers.
const solvers = new Map<string, GamePlayer>();
const CACHED_SOLVERS = 2;

function solverFor(task: BatchTask): GamePlayer {
  const key = JSON.stringify(task.spec);
  let solver = solvers.get(key);
  if (solver) {
    solvers.delete(key);
  } else {
    solver = createPlayer(task.spec);
    if (solvers.size >= CACHED_SOLVERS) solvers.delete(solvers.keys().next().value as string);
  }
  solvers.set(key, solver);
  return solver;
}

/** The solver, plus a look every 8 moves at whether the parent still exists (an orphan exits). */
function watched(solver: GamePlayer): Player {
  let moves = 0;
  return {
    chooseMove(board: Board) {
      if ((++moves & 7) === 0 && parentGone()) process.exit(0);
      return solver.chooseMove(board);
    },
  };
}

export function playBatch(task: BatchTask, callback: (error: Error | null, result?: BatchResult) => void): void {
  try {
    const player = watched(solverFor(task));
    const games = task.seeds.map((seed) => {
      const r = playGame(player, seed);
      return { seed, score: r.score, maxTile: r.maxTile, moves: r.moves, ms: r.ms };
    });
    callback(null, { pid: process.pid, games });
  } catch (e) {
    callback(e as Error);
  }
}
