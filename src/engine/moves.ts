/**
 * Moves on whole boards, through the row tables. `moveInto` is the hot-path
 * form (no allocation: the result lands in `moved`); `applyMove` is the
 * friendly one.
 */
import * as boardModule from './board';
import { Board, makeBoard } from './board';
import * as engineTables from './tables';

// Local aliases: transpilers (tsx, vitest) may turn imported bindings into getters.
const ROW_LEFT = engineTables.ROW_LEFT;
const ROW_RIGHT = engineTables.ROW_RIGHT;
const SCORE_LEFT = engineTables.SCORE_LEFT;
const SCORE_RIGHT = engineTables.SCORE_RIGHT;
const transposed = boardModule.transposed;
const transposeInto = boardModule.transposeInto;

export const UP = 0;
export const DOWN = 1;
export const LEFT = 2;
export const RIGHT = 3;
export type Direction = 0 | 1 | 2 | 3;
export const DIRECTIONS: readonly Direction[] = [UP, DOWN, LEFT, RIGHT];
/**
 * Up, right, down, left: the order in which the n-tuple network's players break ties (ziap/2048-tdl's). An
 * untrained network values every move alike, and this order pushes its first games toward one corner.
 */
export const CORNER_ORDER: readonly Direction[] = [UP, RIGHT, DOWN, LEFT];

/** Moves as one letter each (u d l r): how a game's moves are kept and replayed. */
export function moveLetters(moves: readonly Direction[]): string {
  return moves.map((m) => 'udlr'[m]).join('');
}
export const DIRECTION_NAMES = ['up', 'down', 'left', 'right'] as const;
export type DirectionName = (typeof DIRECTION_NAMES)[number];

export function directionFromName(name: string): Direction {
  const i = DIRECTION_NAMES.indexOf(name as DirectionName);
  if (i < 0) throw new Error(`unknown move "${name}" (expected one of ${DIRECTION_NAMES.join(', ')})`);
  return i as Direction;
}

/** Output slot of moveInto: [lo, hi, score]. */
export const moved = new Int32Array(3);

/** Applies a move to (lo, hi); writes the board and merge score to `moved`. */
export function moveInto(lo: number, hi: number, dir: number): void {
  if (dir >= LEFT) {
    const table = dir === LEFT ? ROW_LEFT : ROW_RIGHT;
    const score = dir === LEFT ? SCORE_LEFT : SCORE_RIGHT;
    const r0 = lo & 0xffff;
    const r1 = lo >>> 16;
    const r2 = hi & 0xffff;
    const r3 = hi >>> 16;
    moved[0] = table[r0] | (table[r1] << 16);
    moved[1] = table[r2] | (table[r3] << 16);
    moved[2] = score[r0] + score[r1] + score[r2] + score[r3];
    return;
  }
  // Columns: transpose, slide rows toward index 0 (up) or 3 (down), transpose back.
  const table = dir === UP ? ROW_LEFT : ROW_RIGHT;
  const score = dir === UP ? SCORE_LEFT : SCORE_RIGHT;
  transposeInto(lo, hi);
  const c0 = transposed[0] & 0xffff;
  const c1 = transposed[0] >>> 16;
  const c2 = transposed[1] & 0xffff;
  const c3 = transposed[1] >>> 16;
  moved[2] = score[c0] + score[c1] + score[c2] + score[c3];
  transposeInto(table[c0] | (table[c1] << 16), table[c2] | (table[c3] << 16));
  moved[0] = transposed[0];
  moved[1] = transposed[1];
}

export interface MoveResult {
  board: Board;
  /** Sum of the values of the tiles created by merges. */
  score: number;
  /** False when the move changes nothing (an illegal move). */
  legal: boolean;
}

export function applyMove(board: Board, dir: Direction): MoveResult {
  moveInto(board.lo, board.hi, dir);
  const next = makeBoard(moved[0], moved[1]);
  return { board: next, score: moved[2], legal: next.lo !== board.lo || next.hi !== board.hi };
}

export function legalMoves(board: Board): Direction[] {
  return DIRECTIONS.filter((d) => applyMove(board, d).legal);
}

export function isGameOver(board: Board): boolean {
  return legalMoves(board).length === 0;
}
