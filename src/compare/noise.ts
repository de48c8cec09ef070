/**
 * How much common seeds pair two players' games: the correlation of their scores on the same
 * seeds and the spread of the per-seed differences. A paired test or a racing cut gains from
 * common seeds only as far as this correlation is above 0 (sd(a − b)² = sd(a)² + sd(b)² − 2ρ·sd(a)·sd(b)).
 */
import { mean, median, stdev } from '../util/stats';

export interface PairNoise {
  /** Common seeds. */
  n: number;
  /** Pearson correlation of the two players' scores over the common seeds. */
  correlation: number;
  /** Standard deviation of the per-seed differences a − b. */
  sdDiff: number;
  /** Mean of the two players' standard deviations. */
  sdScore: number;
  /** Mean score over both players' common games. */
  meanScore: number;
}

/** Pearson's r; NaN when either side is constant. */
export function pearson(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length) throw new Error('pearson: lengths differ');
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * Two players' games on their common seeds; null below `minCommon` seeds or when the games are
 * the same on every seed (a clone of the same weights says nothing about pairing).
 */
export function pairNoise(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>, minCommon = 10): PairNoise | null {
  const seeds = [...a.keys()].filter((s) => b.has(s)).sort((x, y) => x - y);
  if (seeds.length < minCommon) return null;
  const xs = seeds.map((s) => a.get(s)!);
  const ys = seeds.map((s) => b.get(s)!);
  if (xs.every((x, i) => x === ys[i])) return null;
  const correlation = pearson(xs, ys);
  if (Number.isNaN(correlation)) return null;
  return {
    n: seeds.length,
    correlation,
    sdDiff: stdev(xs.map((x, i) => x - ys[i])),
    sdScore: (stdev(xs) + stdev(ys)) / 2,
    meanScore: mean([...xs, ...ys]),
  };
}

export interface NoiseSummary {
  pairs: number;
  medianN: number;
  medianCorrelation: number;
  medianSdDiff: number;
  medianSdScore: number;
  meanScore: number;
  /** Pairs of games each player needs so that a 5% difference is 1.96 standard errors of the mean difference. */
  gamesFor5Percent: number;
}

/** Games per player for a relative difference `relative` of `meanScore` to be `z` standard errors. */
export function gamesToResolve(sdDiff: number, meanScore: number, relative: number, z = 1.96): number {
  return Math.ceil(((z * sdDiff) / (relative * meanScore)) ** 2);
}

export function summarizeNoise(pairs: readonly PairNoise[]): NoiseSummary | null {
  if (pairs.length === 0) return null;
  const medianSdDiff = median(pairs.map((p) => p.sdDiff));
  const meanScore = mean(pairs.map((p) => p.meanScore));
  return {
    pairs: pairs.length,
    medianN: median(pairs.map((p) => p.n)),
    medianCorrelation: median(pairs.map((p) => p.correlation)),
    medianSdDiff,
    medianSdScore: median(pairs.map((p) => p.sdScore)),
    meanScore,
    gamesFor5Percent: gamesToResolve(medianSdDiff, meanScore, 0.05),
  };
}
