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

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: ~15 significant digits). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The regularised incomplete beta function I_x(a, b), by its continued fraction (Lentz), to ~1e-14. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  // The fraction converges fast for x < (a + 1)/(a + b + 2); past it, by the symmetry I_x(a, b) = 1 − I_{1−x}(b, a).
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const front = Math.exp(a * Math.log(x) + b * Math.log(1 - x) - (lnGamma(a) + lnGamma(b) - lnGamma(a + b))) / a;
  const tiny = 1e-300;
  let f = 1;
  let c = 1;
  let d = 0;
  for (let i = 0; i <= 400; i++) {
    const m = i >> 1;
    const num = i === 0 ? 1 : i % 2 === 0 ? (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)) : -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    const cd = c * d;
    f *= cd;
    if (Math.abs(1 - cd) < 1e-15) break;
  }
  return front * (f - 1);
}

/** P(|T| ≥ t) for Student's t with df degrees of freedom. */
export function studentTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The p-quantile of Student's t with df degrees of freedom (p in (0, 1)), by bisection on its distribution. */
export function tQuantile(p: number, df: number): number {
  if (p === 0.5) return 0;
  if (p < 0.5) return -tQuantile(1 - p, df);
  const tail = 2 * (1 - p); // two-sided tail of the positive quantile
  let lo = 0;
  let hi = 1;
  while (studentTwoSidedP(hi, df) > tail) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTwoSidedP(mid, df) > tail) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The standard normal's distribution function Φ(x) (from erfc, to ~1e-15). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** The standard normal's p-quantile (Acklam's rational approximation, refined once by Newton: ~1e-15). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - 0.02425) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  // One Newton step on Φ(x) = p (Φ from erfc).
  const e = 0.5 * erfc(-x / Math.SQRT2) - p;
  return x - e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
}

/**
 * Mean and its 95 % interval from Student's t with n − 1 degrees of freedom (at 300 games within 0.4 % of the
 * normal one; at 8 games 18 % wider, at 2 games 6.5 times): right at every n for roughly normal means.
 */
export function meanWithCI95(xs: readonly number[]): { mean: number; low: number; high: number } {
  const m = mean(xs);
  const half = xs.length > 1 ? (tQuantile(0.975, xs.length - 1) * stdev(xs)) / Math.sqrt(xs.length) : NaN;
  return { mean: m, low: m - half, high: m + half };
}

export interface WilcoxonResult {
  /** Pairs with a nonzero difference. */
  n: number;
  /** Sum of the ranks of the positive differences. */
  wPlus: number;
  z: number;
  p: number;
  /** How p was found: "exact" (the permutation distribution of W+, n ≤ 50) or "normal" (the approximation with tie correction). Absent in results stored before it. */
  method?: 'exact' | 'normal';
}

/** Up to this many nonzero pairs the Wilcoxon p is exact (scipy's `method="auto"` draws the same line). */
export const WILCOXON_EXACT_MAX = 50;

/**
 * Wilcoxon signed-rank test of paired differences (zeros dropped: scipy's `zero_method="wilcox"`; average ranks
 * for ties), two-sided. Up to 50 nonzero pairs p is exact: W+'s distribution over the 2^n sign patterns of
 * these very ranks (with ties, the conditional permutation distribution, where scipy falls back to the normal
 * approximation). Beyond, the normal approximation with tie correction (scipy's, without continuity correction).
 */
export function wilcoxonSignedRank(diffs: readonly number[]): WilcoxonResult {
  const d = diffs.filter((x) => x !== 0);
  const n = d.length;
  if (n === 0) return { n, wPlus: 0, z: 0, p: 1, method: 'exact' };
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
  if (n <= WILCOXON_EXACT_MAX) return { n, wPlus, z, p: exactSignedRankP(ranks, wPlus), method: 'exact' };
  return { n, wPlus, z, p: normalTwoSidedP(z), method: 'normal' };
}

/**
 * The exact two-sided p of W+ = w over these ranks: the share of the 2^n sign patterns whose W+ is as far in
 * either tail, 2·min(P(W+ ≤ w), P(W+ ≥ w)), at most 1. Ranks are halves at most (ties), so twice them are whole
 * numbers and the distribution is counted over sums of those (n ≤ 50: at most 2,550 sums).
 */
function exactSignedRankP(ranks: readonly number[], w: number): number {
  const doubled = ranks.map((r) => Math.round(2 * r));
  const max = doubled.reduce((a, b) => a + b, 0);
  let counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (const r of doubled) {
    const next = new Float64Array(max + 1);
    for (let s = 0; s <= max; s++) {
      if (counts[s] === 0) continue;
      next[s] += counts[s];
      next[s + r] += counts[s];
    }
    counts = next;
  }
  const total = 2 ** ranks.length;
  const target = Math.round(2 * w);
  let below = 0;
  let above = 0;
  for (let s = 0; s <= max; s++) {
    if (s <= target) below += counts[s];
    if (s >= target) above += counts[s];
  }
  return Math.min(1, (2 * Math.min(below, above)) / total);
}

/** The smallest two-sided p an exact signed-rank test of n pairs can give (all of one sign): 2/2^n. */
export function smallestSignedRankP(n: number): number {
  return Math.min(1, 2 / 2 ** n);
}

/**
 * Games per contender for a relative difference `relative` of `meanScore` to be found by a two-sided test at
 * level `alpha` with probability `power` (paired, differences of sd `sdDiff`): ((z_{1−α/2} + z_power)·sd/δ)².
 */
export function gamesForPower(sdDiff: number, meanScore: number, relative: number, power = 0.8, alpha = 0.05): number {
  const z = normalQuantile(1 - alpha / 2) + normalQuantile(power);
  return Math.ceil(((z * sdDiff) / (relative * meanScore)) ** 2);
}

/** Holm's step-down adjustment of p-values for several tests at once (the family-wise error kept at α), in their order. */
export function holmAdjust(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(ps.length);
  let running = 0;
  order.forEach(([p, i], k) => {
    running = Math.max(running, Math.min(1, (ps.length - k) * p));
    out[i] = running;
  });
  return out;
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

/** Spearman rank correlation (average ranks for ties): Pearson's r of the ranks, 0 when either side is constant. */
export function spearman(a: readonly number[], b: readonly number[]): number {
  const rank = (xs: readonly number[]) => {
    const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(xs.length);
    for (let i = 0; i < order.length; ) {
      let j = i;
      while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
      for (let k = i; k <= j; k++) r[order[k][1]] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const r = pearson(rank(a), rank(b));
  return Number.isNaN(r) ? 0 : r;
}
