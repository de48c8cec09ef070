/** Small descriptive statistics over plain arrays. */

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Sample standard deviation (n − 1). */
export function stdev(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return Math.sqrt(s / (xs.length - 1));
}

/**
 * erfc(x) with fractional error below 1.2e-7 everywhere (Numerical Recipes'
 * Chebyshev fit), so tail p-values stay accurate far below 1e-7.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Two-sided p-value of a standard normal statistic. */
export function normalTwoSidedP(z: number): number {
  return erfc(Math.abs(z) / Math.SQRT2);
}

/** Mean and a normal-approximation 95% interval (fine for the n ≥ 30 of game comparisons). */
export function meanWithCI95(xs: readonly number[]): { mean: number; low: number; high: number } {
  const m = mean(xs);
  const half = xs.length > 1 ? (1.959964 * stdev(xs)) / Math.sqrt(xs.length) : NaN;
  return { mean: m, low: m - half, high: m + half };
}

export interface WilcoxonResult {
  /** Pairs with a nonzero difference. */
  n: number;
  /** Sum of the ranks of the positive differences. */
  wPlus: number;
  z: number;
  p: number;
}

/**
 * Wilcoxon signed-rank test of paired differences (zeros dropped, average ranks
 * for ties), two-sided, by the normal approximation with tie correction —
 * accurate for the hundreds of pairs a game comparison has.
 */
export function wilcoxonSignedRank(diffs: readonly number[]): WilcoxonResult {
  const d = diffs.filter((x) => x !== 0);
  const n = d.length;
  if (n === 0) return { n, wPlus: 0, z: 0, p: 1 };
  const order = d.map((x, i) => [Math.abs(x), i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(n);
  let tieTerm = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && order[j + 1][0] === order[i][0]) j++;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    for (let k = i; k <= j; k++) ranks[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const wPlus = d.reduce((s, x, i) => (x > 0 ? s + ranks[i] : s), 0);
  const expected = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  const z = variance > 0 ? (wPlus - expected) / Math.sqrt(variance) : 0;
  return { n, wPlus, z, p: normalTwoSidedP(z) };
}

/** Percentile bootstrap 95% interval of the mean, from a seeded generator. */
export function bootstrapMeanCI95(xs: readonly number[], rng: () => number, resamples = 5000): { low: number; high: number } {
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += xs[Math.floor(rng() * xs.length)];
    means[r] = s / xs.length;
  }
  means.sort();
  return { low: means[Math.floor(0.025 * (resamples - 1))], high: means[Math.ceil(0.975 * (resamples - 1))] };
}
