/**
 * The per-line features of the heuristic family, written plainly. They run
 * once per row value when a weight set's tables are built, never per node.
 */
import type { Weights } from './weights';

export const rankValue = (r: number): number => (r === 0 ? 0 : 2 ** r);

export function emptyCount(r: readonly number[]): number {
  return r.filter((x) => x === 0).length;
}

/** nneonneo's merges: a run of n ≥ 2 equal nonzero ranks (empties skipped) adds n. */
export function mergeCount(r: readonly number[]): number {
  let merges = 0;
  let prev = 0;
  let counter = 0;
  for (const rank of r) {
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

/** nneonneo's monotonicity penalty: min(monoL, monoR) over rank^power. */
export function monotonicityPenalty(r: readonly number[], power: number): number {
  let monoLeft = 0;
  let monoRight = 0;
  for (let i = 1; i < 4; i++) {
    const a = r[i - 1] ** power;
    const b = r[i] ** power;
    if (r[i - 1] > r[i]) monoLeft += a - b;
    else monoRight += b - a;
  }
  return Math.min(monoLeft, monoRight);
}

/** Seed 000's monotonicity: cells whose value is below the previous one's, the first compared to 9999. */
export function descentCount(r: readonly number[]): number {
  let prev = 9999;
  let n = 0;
  for (const rank of r) {
    const v = rankValue(rank);
    if (v < prev) n++;
    prev = v;
  }
  return n;
}

export function smoothnessPenalty(r: readonly number[], on: 'rank' | 'value'): number {
  const f = on === 'rank' ? (x: number) => x : rankValue;
  let total = 0;
  for (let i = 1; i < 4; i++) total += Math.abs(f(r[i]) - f(r[i - 1]));
  return total;
}

export function rankPowerSum(r: readonly number[], power: number): number {
  let total = 0;
  for (const rank of r) total += rank ** power;
  return total;
}

/** line(r) of the family (see weights.ts). */
export function lineScore(w: Weights, r: readonly number[]): number {
  let s = w.alive;
  if (w.empty !== 0) s += w.empty * emptyCount(r);
  if (w.merges !== 0) s += w.merges * mergeCount(r);
  if (w.descents !== 0) s += w.descents * descentCount(r);
  if (w.monotonicity !== 0) s -= w.monotonicity * monotonicityPenalty(r, w.monotonicityPower);
  if (w.smoothness !== 0) s -= w.smoothness * smoothnessPenalty(r, w.smoothnessOn);
  if (w.sum !== 0) s -= w.sum * rankPowerSum(r, w.sumPower);
  return s;
}
