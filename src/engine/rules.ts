/**
 * Where the next tile appears. `classic`: a 2 (p 0.9) or a 4 on a uniformly
 * chosen empty cell (spawn.ts). `corner`: seed 003's deterministic relaxation —
 * a 2 in the first empty corner clockwise from the top-left (top-left,
 * top-right, bottom-right, bottom-left); nothing when all four are taken.
 */
import { type Board, rankAt, withRank } from './board';

export type Rules = 'classic' | 'corner';
export const RULES: readonly Rules[] = ['classic', 'corner'];

/** The corners in the order the corner rule tries them: cells 0, 3, 15, 12. */
export const CORNERS_CLOCKWISE = [0, 3, 15, 12] as const;

export function cornerSpawn(board: Board): Board {
  for (const cell of CORNERS_CLOCKWISE) if (rankAt(board, cell) === 0) return withRank(board, cell, 1);
  return board;
}

/** The corner rules' start: an empty board and two corner spawns (2s top-left and top-right). */
export function cornerStart(): Board {
  return cornerSpawn(cornerSpawn({ lo: 0, hi: 0 }));
}
