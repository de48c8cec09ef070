/**
 * Seed 000's player: minimax with alpha-beta pruning, where the tile placement
 * is adversarial — a chance layer is 0.9·(min over empty cells of the board
 * with a 2) + 0.1·(min over empty cells with a 4) — and the leaves are scored
 * by the weights family's heuristic (so seed 000's own weights, or tuned ones).
 * The search runs in WebAssembly (minimaxMove in src/wasm/assembly/search.ts),
 * over the same heuristic tables as expectimax.
 *
 * Depth counts chance layers below the root move, as for expectimax (seed
 * 000's "6 plies", a max and a chance ply per level, is depth 3). Each root
 * move is searched with a full window, so its value is exact (the hint shows
 * it, and root moves can be searched in parallel as seed 000 did); inside,
 * alpha-beta is fail-soft and the 4-layer of a chance node gets the parent's
 * window mapped through v = 0.9·m2 + 0.1·m4, so the root's values and choice
 * are exactly plain minimax's (test/players.test.ts checks it against an
 * unpruned reference, and against the TypeScript search this one replaced).
 */
import type { Board } from '../engine/board';
import type { Direction } from '../engine/moves';
import type { Weights } from '../heuristic/weights';
import { createExpectimaxPlayer } from './expectimax';
import type { Decision, Player } from '../engine/player';

export interface MinimaxSettings {
  depth: number;
}

export interface MinimaxStats {
  /** Max and chance nodes visited. */
  nodes: number;
}

export function createMinimaxPlayer(weights: Weights, settings: MinimaxSettings, options: { pruning?: boolean } = {}): Player & { stats: MinimaxStats } {
  const heuristic = createExpectimaxPlayer(weights, { depth: 0 });
  const pruning = options.pruning ?? true;
  const stats: MinimaxStats = { nodes: 0 };

  function decide(board: Board): Decision {
    const e = heuristic.loaded(board).exports; // the tables of the board's stage
    const before = e.minimaxNodes();
    const values = [NaN, NaN, NaN, NaN];
    let move: Direction | -1 = -1;
    for (let dir = 0; dir < 4; dir++) {
      values[dir] = e.minimaxMove(board.lo, board.hi, dir, settings.depth, pruning ? 1 : 0);
      if (!Number.isNaN(values[dir]) && (move === -1 || values[dir] > values[move])) move = dir as Direction; // ties: the earlier move
    }
    stats.nodes += e.minimaxNodes() - before;
    return { move, values };
  }

  return { decide, chooseMove: (board) => decide(board).move, stats };
}
