/**
 * The per-line features of the heuristic family. They run once per row value
 * when a weight set's tables are built (65,536 times), never per search node,
 * but a tuner builds tables for every candidate, so they avoid allocation and
 * Math.pow: powers of the 16 ranks are precomputed per weight set.
 */
import type { Weights } from './weights';

export const rankValue = (r: number): number => (r === 0 ? 0 : 2 ** r);
/** Tile value of each rank (0 for empty). */
const VALUE = Float64Array.from({ length: 16 }, (_, r) => rankValue(r));

/** nneonneo's merges: a run of n ≥ 2 equal nonzero ranks (empties skipped) adds n. */
export function mergeCount(a: number, b: number, c: number, d: number): number {
  let merges = 0;
  let prev = 0;
  let counter = 0;
  for (let i = 0; i < 4; i++) {
    const rank = i === 0 ? a : i === 1 ? b : i === 2 ? c : d;
    if (rank === 0) continue;
    if (prev === rank) counter++;
    else if (counter > 0) {
      merges += 1 + counter;
      counter = 0;
    }
    prev = rank;
  }
  if (counter > 0) merges += 1 + counter;
  return merges;
}

/** nneonneo's monotonicity penalty min(monoL, monoR); pow[r] = r^power. */
export function monotonicityPenalty(a: number, b: number, c: number, d: number, pow: Float64Array): number {
  let left = 0;
  let right = 0;
  if (a > b) left += pow[a] - pow[b];
  else right += pow[b] - pow[a];
  if (b > c) left += pow[b] - pow[c];
  else right += pow[c] - pow[b];
  if (c > d) left += pow[c] - pow[d];
  else right += pow[d] - pow[c];
  return left < right ? left : right;
}

/** Seed 000's monotonicity: cells whose value is below the previous one's, the first compared to 9999. */
export function descentCount(a: number, b: number, c: number, d: number): number {
  const va = VALUE[a];
  const vb = VALUE[b];
  const vc = VALUE[c];
  const vd = VALUE[d];
  return (va < 9999 ? 1 : 0) + (vb < va ? 1 : 0) + (vc < vb ? 1 : 0) + (vd < vc ? 1 : 0);
}

/** Σ |f(r[i]) − f(r[i−1])| over the three neighbour pairs; f[r] = rank or tile value. */
export function smoothnessPenalty(a: number, b: number, c: number, d: number, f: Float64Array): number {
  return Math.abs(f[b] - f[a]) + Math.abs(f[c] - f[b]) + Math.abs(f[d] - f[c]);
}

function powers(power: number): Float64Array {
  return Float64Array.from({ length: 16 }, (_, r) => r ** power);
}

/** line(r) of the family (see weights.ts), as a function of the four ranks of a line. */
export function makeLineScorer(w: Weights): (a: number, b: number, c: number, d: number) => number {
  const monoPow = powers(w.monotonicityPower);
  const sumPow = powers(w.sumPower);
  const smooth = w.smoothnessOn === 'rank' ? powers(1) : VALUE;
  return (a, b, c, d) => {
    let s = w.alive;
    if (w.empty !== 0) s += w.empty * ((a === 0 ? 1 : 0) + (b === 0 ? 1 : 0) + (c === 0 ? 1 : 0) + (d === 0 ? 1 : 0));
    if (w.merges !== 0) s += w.merges * mergeCount(a, b, c, d);
    if (w.descents !== 0) s += w.descents * descentCount(a, b, c, d);
    if (w.monotonicity !== 0) s -= w.monotonicity * monotonicityPenalty(a, b, c, d, monoPow);
    if (w.smoothness !== 0) s -= w.smoothness * smoothnessPenalty(a, b, c, d, smooth);
    if (w.sum !== 0) s -= w.sum * (sumPow[a] + sumPow[b] + sumPow[c] + sumPow[d]);
    return s;
  };
}
