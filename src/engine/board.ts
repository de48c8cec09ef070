/**
 * The board: sixteen 4-bit ranks (0 = empty, r = tile 2^r) in 64 bits, held as
 * two int32 halves so the hot path needs no BigInt and no allocation.
 * Cell k = 4*row + col (row 0 at the top, col 0 at the left) lives at bits
 * 4k..4k+3 of the 64-bit value: `lo` holds rows 0-1, `hi` rows 2-3, and each
 * 16-bit row has its column 0 in the lowest nibble.
 */
import { InputError } from '../util/errors';
import { MAX_RANK } from './tables';

export interface Board {
  readonly lo: number;
  readonly hi: number;
}

export const EMPTY_BOARD: Board = { lo: 0, hi: 0 };

export function makeBoard(lo: number, hi: number): Board {
  return { lo: lo | 0, hi: hi | 0 };
}

export function rankAt(board: Board, cell: number): number {
  return cell < 8 ? (board.lo >>> (4 * cell)) & 15 : (board.hi >>> (4 * (cell - 8))) & 15;
}

export function withRank(board: Board, cell: number, rank: number): Board {
  if (cell < 8) {
    const s = 4 * cell;
    return makeBoard((board.lo & ~(15 << s)) | (rank << s), board.hi);
  }
  const s = 4 * (cell - 8);
  return makeBoard(board.lo, (board.hi & ~(15 << s)) | (rank << s));
}

/** Row i (0 = top) as a 16-bit row. */
export function rowOf(board: Board, i: number): number {
  const half = i < 2 ? board.lo : board.hi;
  return (i & 1 ? half >>> 16 : half) & 0xffff;
}

export function boardFromRanks(ranks: readonly number[]): Board {
  if (ranks.length !== 16) throw new InputError(`a board needs 16 cells, got ${ranks.length}`);
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < 16; k++) {
    const r = ranks[k];
    if (!Number.isInteger(r) || r < 0 || r > MAX_RANK) throw new InputError(`cell ${k}: rank ${r} is out of range 0..${MAX_RANK}`);
    if (k < 8) lo |= r << (4 * k);
    else hi |= r << (4 * (k - 8));
  }
  return makeBoard(lo, hi);
}

export function boardToRanks(board: Board): number[] {
  const out: number[] = [];
  for (let k = 0; k < 16; k++) out.push(rankAt(board, k));
  return out;
}

export function valueToRank(value: number): number {
  if (value === 0) return 0;
  const r = Math.log2(value);
  if (!Number.isInteger(r) || r < 1 || r > MAX_RANK) {
    throw new InputError(`tile value ${value} is not 0 or a power of two from 2 to 32768`);
  }
  return r;
}

export function rankToValue(rank: number): number {
  return rank === 0 ? 0 : 2 ** rank;
}

/** A 4x4 grid of tile values (rows top to bottom). */
export function boardFromGrid(grid: readonly (readonly number[])[]): Board {
  if (grid.length !== 4 || grid.some((row) => row.length !== 4)) throw new InputError('a grid must be 4 rows of 4 tile values');
  return boardFromRanks(grid.flat().map(valueToRank));
}

export function boardToGrid(board: Board): number[][] {
  const v = boardToRanks(board).map(rankToValue);
  return [v.slice(0, 4), v.slice(4, 8), v.slice(8, 12), v.slice(12, 16)];
}

/**
 * Parses 16 tile values row by row (top-left first), separated by spaces or
 * commas; rows may be separated by '/', and then there must be 4 rows of 4.
 * Example: "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 2".
 */
export function parseBoard(text: string): Board {
  const words = (s: string) => s.trim().split(/[\s,]+/).filter((t) => t.length > 0);
  if (text.includes('/')) {
    const rows = text.split('/');
    if (rows.length !== 4) throw new InputError(`a board has 4 rows separated by "/", got ${rows.length} in "${text.trim()}"`);
    rows.forEach((row, i) => {
      const n = words(row).length;
      if (n !== 4) throw new InputError(`row ${i + 1} has ${n} tile values, a board has 4 per row: "${text.trim()}"`);
    });
  }
  const tokens = words(text.replace(/\//g, ' '));
  if (tokens.length !== 16) throw new InputError(`a board needs 16 tile values, got ${tokens.length} in "${text.trim()}"`);
  const values = tokens.map((t) => {
    if (!/^\d+$/.test(t)) throw new InputError(`"${t}" is not a tile value (0 or a power of two from 2 to 32768)`);
    return Number(t);
  });
  return boardFromRanks(values.map(valueToRank));
}

/** Formats as parseBoard reads it: "2 4 0 0/0 0 0 0/...". */
export function formatBoard(board: Board): string {
  return boardToGrid(board)
    .map((row) => row.join(' '))
    .join('/');
}

/** A multi-line, aligned picture of the board for people. */
export function prettyBoard(board: Board): string {
  return boardToGrid(board)
    .map((row) => row.map((v) => (v === 0 ? '.' : String(v)).padStart(6)).join(''))
    .join('\n');
}

/** True when `value` is a tile from `smallest` to 32768 (a power of two). */
export function isTile(value: number, smallest = 2): boolean {
  return Number.isInteger(Math.log2(value)) && value >= smallest && value <= 32768;
}

export function maxRank(board: Board): number {
  let m = 0;
  for (let k = 0; k < 16; k++) m = Math.max(m, rankAt(board, k));
  return m;
}

/** The sum of the tile values. */
export function tileSum(board: Board): number {
  let s = 0;
  for (let k = 0; k < 16; k++) s += rankToValue(rankAt(board, k));
  return s;
}

export function countEmpty(board: Board): number {
  let n = 0;
  for (let k = 0; k < 16; k++) if (rankAt(board, k) === 0) n++;
  return n;
}

export function countDistinctTiles(board: Board): number {
  const seen = new Set<number>();
  for (let k = 0; k < 16; k++) {
    const r = rankAt(board, k);
    if (r !== 0) seen.add(r);
  }
  return seen.size;
}

export function sameBoard(a: Board, b: Board): boolean {
  return a.lo === b.lo && a.hi === b.hi;
}

/** Output slot of transposeInto: [lo, hi]. */
export const transposed = new Int32Array(2);

/**
 * Transposes the 4x4 nibble matrix (rows become columns) into `transposed`.
 * The 64-bit mask transpose of nneonneo/2048-ai split into 32-bit halves: the
 * first step stays within each half, the second swaps bytes between halves.
 */
export function transposeInto(lo: number, hi: number): void {
  const alo = (lo & 0xf0f00f0f) | ((lo & 0x0000f0f0) << 12) | ((lo & 0x0f0f0000) >>> 12);
  const ahi = (hi & 0xf0f00f0f) | ((hi & 0x0000f0f0) << 12) | ((hi & 0x0f0f0000) >>> 12);
  transposed[0] = (alo & 0x00ff00ff) | ((ahi & 0x00ff00ff) << 8);
  transposed[1] = (ahi & 0xff00ff00) | ((alo & 0xff00ff00) >>> 8);
}

export function transpose(board: Board): Board {
  transposeInto(board.lo, board.hi);
  return makeBoard(transposed[0], transposed[1]);
}
