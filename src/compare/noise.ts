/**
 * How much common seeds pair two players' games: the correlation of their scores on the same
 * seeds and the spread of the per-seed differences. A paired test or a racing cut gains from
 * common seeds only as far as this correlation is above 0 (sd(a − b)² = sd(a)² + sd(b)² − 2ρ·sd(a)·sd(b)).
 */
import { mean, median, pearson, stdev } from '../util/stats';

// Pearson's r lives with the other statistics (Spearman's is it on ranks); importers of it here keep working.
export { pearson };

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

export interface SpreadSplit {
  /** Sample variance of the candidates' fitness (their mean scores). */
  observed: number;
  /** The part chance alone would give: the mean over candidates of sd² / games. */
  noise: number;
  /** Share of the observed spread that is real (true differences between candidates), 0…1. */
  signalShare: number;
}

/**
 * How much of a generation's fitness spread is real: the variance of candidates' means is the variance
 * of their true values plus, on average, each mean's own noise (sd² / n); what is left after taking the
 * noise away is the share a ranking can see. Near 0, candidates are ranked by luck. Null with fewer
 * than three candidates of two or more games.
 */
export function splitSpread(candidates: readonly (readonly number[])[]): SpreadSplit | null {
  const usable = candidates.filter((xs) => xs.length >= 2);
  if (usable.length < 3) return null;
  const observed = stdev(usable.map(mean)) ** 2;
  const noise = mean(usable.map((xs) => stdev(xs) ** 2 / xs.length));
  return { observed, noise, signalShare: observed > 0 ? Math.max(0, observed - noise) / observed : 0 };
}
