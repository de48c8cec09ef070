/**
 * A line network: the value of a board (an afterstate: after a move, before the spawn) as a sum of learned
 * 65,536-entry tables over its lines, an n-tuple network whose tuples are the board's straight lines. Two
 * tables: one for the outer lines (rows 0 and 3, columns 0 and 3), one for the inner lines; each line is read
 * both ways, so the value is the same on all 8 symmetries of the board (what the n-tuple programs do: a
 * table learns from 8 views of every position).
 *
 * Its value estimates the score still to come; the heuristic's learned term adds the score the board's tiles
 * already hold (`tileScore`), so the term estimates the game's final score from where the search stands.
 */
import { transposeInto, transposed } from '../engine/board';
import { reverseRow, ROW_COUNT } from '../engine/tables';

export const NETWORK_TABLES = ['outer', 'inner'] as const;

export interface LineNetwork {
  readonly outer: Float32Array;
  readonly inner: Float32Array;
}

export function emptyNetwork(): LineNetwork {
  return { outer: new Float32Array(ROW_COUNT), inner: new Float32Array(ROW_COUNT) };
}

const REVERSED = Uint16Array.from({ length: ROW_COUNT }, (_, row) => reverseRow(row));
const lines = new Int32Array(8);

/** Rows 0..3 then columns 0..3 (each as a 16-bit line) into `lines`. */
function readLines(lo: number, hi: number): void {
  lines[0] = lo & 0xffff;
  lines[1] = lo >>> 16;
  lines[2] = hi & 0xffff;
  lines[3] = hi >>> 16;
  transposeInto(lo, hi);
  lines[4] = transposed[0] & 0xffff;
  lines[5] = transposed[0] >>> 16;
  lines[6] = transposed[1] & 0xffff;
  lines[7] = transposed[1] >>> 16;
}

/** The network's value of a board: Σ over the 8 lines read both ways of its table's entries (float64 sums, in a fixed order). */
export function networkValue(net: LineNetwork, lo: number, hi: number): number {
  readLines(lo, hi);
  const o = net.outer;
  const i = net.inner;
  return (
    o[lines[0]] + o[REVERSED[lines[0]]] + i[lines[1]] + i[REVERSED[lines[1]]] + i[lines[2]] + i[REVERSED[lines[2]]] + o[lines[3]] + o[REVERSED[lines[3]]] +
    o[lines[4]] + o[REVERSED[lines[4]]] + i[lines[5]] + i[REVERSED[lines[5]]] + i[lines[6]] + i[REVERSED[lines[6]]] + o[lines[7]] + o[REVERSED[lines[7]]]
  );
}

/** Adds `delta` to every entry the board's value reads (16 reads, so the value moves by up to 16·delta). */
export function addToNetwork(net: LineNetwork, lo: number, hi: number, delta: number): void {
  readLines(lo, hi);
  for (let k = 0; k < 8; k++) {
    const t = k === 0 || k === 3 || k === 4 || k === 7 ? net.outer : net.inner;
    t[lines[k]] += delta;
    t[REVERSED[lines[k]]] += delta;
  }
}

/** The score a line's tiles hold: a tile of rank r ≥ 2 was made by merges worth (r − 1)·2^r (exact when every spawn was a 2). */
export function lineTileScore(row: number): number {
  let s = 0;
  for (let k = 0; k < 16; k += 4) {
    const r = (row >>> k) & 15;
    if (r >= 2) s += (r - 1) * 2 ** r;
  }
  return s;
}

/**
 * The learned term per line, as the search reads it: outer/inner line tables (both readings summed) with
 * the tile score of each row added (rows only, so each tile counts once).
 */
export function learnedLineTables(net: LineNetwork): { outerRow: Float64Array; innerRow: Float64Array; outerColumn: Float64Array; innerColumn: Float64Array } {
  const both = (t: Float32Array) => Float64Array.from({ length: ROW_COUNT }, (_, row) => t[row] + t[REVERSED[row]]);
  const outerColumn = both(net.outer);
  const innerColumn = both(net.inner);
  const withTiles = (t: Float64Array) => Float64Array.from(t, (x, row) => x + lineTileScore(row));
  return { outerRow: withTiles(outerColumn), innerRow: withTiles(innerColumn), outerColumn, innerColumn };
}
