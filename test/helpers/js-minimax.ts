/**
 * The TypeScript minimax that src/player/minimax.ts replaced (its search now runs in WebAssembly), kept
 * as the judge of identity: the same root values, so the same games.
 *
 * Seed 000's player: minimax with alpha-beta pruning, where the tile placement
 * is adversarial — a chance layer is 0.9·(min over empty cells of the board
 * with a 2) + 0.1·(min over empty cells with a 4) — and the leaves are scored
 * by the weights family's heuristic (so seed 000's own weights, or tuned ones).
 *
 * Depth counts chance layers below the root move, as for expectimax (seed
 * 000's "6 plies", a max and a chance ply per level, is depth 3). Each root
 * move is searched with a full window, so its value is exact (the hint shows
 * it, and root moves can be searched in parallel as seed 000 did); inside,
 * alpha-beta is fail-soft and the 4-layer of a chance node gets the parent's
 * window mapped through v = 0.9·m2 + 0.1·m4, so the root's values and choice
 * are exactly plain minimax's (test/players.test.ts checks it against an
 * unpruned reference).
 */
import { type Board, rankAt, withRank } from '../../src/engine/board';
import { applyMove, type Direction } from '../../src/engine/moves';
import { buildHeuristicTables } from '../../src/heuristic/tables';
import type { Weights } from '../../src/heuristic/weights';
import { createExpectimaxPlayer } from '../../src/player/expectimax';
import type { Decision, Player } from '../../src/engine/player';

import type { MinimaxSettings, MinimaxStats } from '../../src/player/minimax';

export function createJsMinimaxPlayer(weights: Weights, settings: MinimaxSettings, options: { pruning?: boolean } = {}): Player & { stats: MinimaxStats } {
  const leaf = createExpectimaxPlayer(buildHeuristicTables(weights), { depth: 0 }); // the heuristic, from the WASM tables
  const pruning = options.pruning ?? true;
  const stats: MinimaxStats = { nodes: 0 };
  const h = (b: Board) => leaf.heuristic(b);

  function maxNode(board: Board, depth: number, alpha: number, beta: number): number {
    stats.nodes++;
    let best = -Infinity;
    for (let dir = 0; dir < 4; dir++) {
      const r = applyMove(board, dir as Direction);
      if (!r.legal) continue;
      const v = chanceNode(r.board, depth, pruning ? Math.max(alpha, best) : -Infinity, beta);
      if (v > best) best = v;
      if (pruning && best >= beta) return best;
    }
    return best === -Infinity ? 0 : best; // no legal move: the game is lost
  }

  /** The placement's worst case for one tile rank, fail-soft within (lo, hi). */
  function minLayer(board: Board, rank: number, depth: number, lo: number, hi: number): number {
    let worst = Infinity;
    for (let cell = 0; cell < 16; cell++) {
      if (rankAt(board, cell) !== 0) continue;
      const v = maxNode(withRank(board, cell, rank), depth, lo, pruning ? Math.min(hi, worst) : Infinity);
      if (v < worst) worst = v;
      if (pruning && worst <= lo) return worst;
    }
    return worst;
  }

  function chanceNode(board: Board, depth: number, alpha: number, beta: number): number {
    stats.nodes++;
    if (depth === 0) return h(board);
    const m2 = minLayer(board, 1, depth - 1, -Infinity, Infinity);
    if (m2 === Infinity) return h(board); // no empty cell (cannot follow a legal move, kept for safety)
    const m4 = pruning ? minLayer(board, 2, depth - 1, (alpha - 0.9 * m2) / 0.1, (beta - 0.9 * m2) / 0.1) : minLayer(board, 2, depth - 1, -Infinity, Infinity);
    return 0.9 * m2 + 0.1 * m4;
  }

  function decide(board: Board): Decision {
    const values = [NaN, NaN, NaN, NaN];
    let move: Direction | -1 = -1;
    for (let dir = 0; dir < 4; dir++) {
      const r = applyMove(board, dir as Direction);
      if (!r.legal) continue;
      values[dir] = chanceNode(r.board, settings.depth, -Infinity, Infinity);
      if (move === -1 || values[dir] > values[move]) move = dir as Direction; // ties: the earlier move
    }
    return { move, values };
  }

  return { decide, chooseMove: (board) => decide(board).move, stats };
}
