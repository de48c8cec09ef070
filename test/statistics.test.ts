/**
 * The statistics every printed interval and p-value comes from (issue 67), against references written here
 * from their definitions: Student's t by integrating its density, the exact signed-rank distribution by
 * enumerating every sign pattern, Holm's adjustment step by step. And compare at a handful of pairs: the
 * figures it prints are valid for that n, or are not printed.
 */
import { describe, expect, it } from 'vitest';
import { gamesForPower, holmAdjust, lnGamma, meanWithCI95, normalQuantile, normalTwoSidedP, smallestSignedRankP, stdev, studentTwoSidedP, tQuantile, wilcoxonSignedRank } from '../src/util/stats';
import { runCli } from './helpers/cli';

/** Student's t density. */
function tDensity(x: number, df: number): number {
  return Math.exp(lnGamma((df + 1) / 2) - lnGamma(df / 2) - 0.5 * Math.log(df * Math.PI) - ((df + 1) / 2) * Math.log(1 + (x * x) / df));
}

/** P(0 ≤ T ≤ q) by Simpson's rule on 20,000 intervals (the slow, obviously right way). */
function tMassFromZero(q: number, df: number): number {
  const n = 20_000;
  const h = q / n;
  let s = tDensity(0, df) + tDensity(q, df);
  for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * tDensity(i * h, df);
  return (s * h) / 3;
}

/** The exact two-sided signed-rank p by enumerating all 2^n sign patterns of these differences' mid-ranks (zeros dropped). */
function bruteSignedRankP(diffs: readonly number[]): number {
  const d = diffs.filter((x) => x !== 0);
  const abs = d.map(Math.abs);
  const ranks = abs.map((a) => {
    const below = abs.filter((b) => b < a).length;
    const equal = abs.filter((b) => b === a).length;
    return below + (equal + 1) / 2;
  });
  const observed = d.reduce((s, x, i) => (x > 0 ? s + ranks[i] : s), 0);
  let low = 0;
  let high = 0;
  const total = 2 ** d.length;
  for (let mask = 0; mask < total; mask++) {
    let w = 0;
    for (let i = 0; i < d.length; i++) if (mask & (1 << i)) w += ranks[i];
    if (w <= observed + 1e-9) low++;
    if (w >= observed - 1e-9) high++;
  }
  return Math.min(1, (2 * Math.min(low, high)) / total);
}

describe("Student's t", () => {
  it.each([1, 2, 3, 7, 29, 199])('the 97.5 % quantile at %i degrees of freedom holds 47.5 % of the mass above 0', (df) => {
    const q = tQuantile(0.975, df);
    // Integrated on [0, q] where the density is smooth; for df = 1 the tail is too heavy to stop integrating short of q.
    expect(tMassFromZero(q, df)).toBeCloseTo(0.475, 6);
  });

  it('its two-sided tail is the integral of its density; at large df it is the normal', () => {
    for (const [t, df] of [[2, 10], [0.5, 3], [3.1, 25]]) expect(studentTwoSidedP(t, df)).toBeCloseTo(1 - 2 * tMassFromZero(t, df), 7);
    expect(tQuantile(0.975, 1e7)).toBeCloseTo(1.959964, 5);
    expect(studentTwoSidedP(1.959964, 1e7)).toBeCloseTo(normalTwoSidedP(1.959964), 5);
  });

  it('a mean of 2 games gets its interval from t with 1 degree of freedom (6.5 times the normal one)', () => {
    const xs = [20_000, 98_160];
    const ci = meanWithCI95(xs);
    const half = (tQuantile(0.975, 1) * stdev(xs)) / Math.sqrt(2);
    expect(ci.high - ci.mean).toBeCloseTo(half, 6);
    expect((ci.high - ci.mean) / ((1.959964 * stdev(xs)) / Math.sqrt(2))).toBeGreaterThan(6.4);
    expect(ci.low).toBeLessThan(0); // the mean of two scores can be told from nothing
  });

  it('the normal quantile inverts erfc', () => {
    // Φ(x) from erfc: the lower tail below 0, one minus the upper above.
    const phi = (x: number) => (x < 0 ? normalTwoSidedP(x) / 2 : 1 - normalTwoSidedP(x) / 2);
    for (const p of [1e-9, 0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999999]) expect(Math.abs(phi(normalQuantile(p)) - p) / Math.min(p, 1 - p)).toBeLessThan(1e-6);
  });
});

describe('the signed-rank test', () => {
  it('is exact up to 50 pairs: the share of the 2^n sign patterns as extreme, ties and zeros as scipy (zero_method "wilcox") drops them', () => {
    const cases = [[5, 3], [1, 2, 3, 4, 5, 6], [1, -2, 3, 4, 5, 6, 7, -8, 9, 10], [3, -3, 3, 1, 0, 2, -1, 5, 5, 0, -4], [-7, 2, 2, 2, -1, 9, 4, 4, -4, 6, 3, 8]];
    for (const d of cases) {
      const r = wilcoxonSignedRank(d);
      expect(r.method).toBe('exact');
      expect(r.p).toBeCloseTo(bruteSignedRankP(d), 12);
    }
    // Two pairs of one sign: the smallest p two pairs can give, 2/4.
    expect(wilcoxonSignedRank([5, 3]).p).toBe(0.5);
    expect(smallestSignedRankP(2)).toBe(0.5);
    expect(smallestSignedRankP(6)).toBe(1 / 32);
  });

  it('beyond 50 pairs is the normal approximation with the tie correction (scipy, no continuity correction)', () => {
    const d = Array.from({ length: 200 }, (_, i) => ((i * 7919) % 201) - 90);
    const r = wilcoxonSignedRank(d);
    expect(r.method).toBe('normal');
    const nz = d.filter((x) => x !== 0);
    const n = nz.length;
    const ranks = nz.map((x) => nz.filter((y) => Math.abs(y) < Math.abs(x)).length + (nz.filter((y) => Math.abs(y) === Math.abs(x)).length + 1) / 2);
    const wPlus = nz.reduce((s, x, i) => (x > 0 ? s + ranks[i] : s), 0);
    const counts = new Map<number, number>();
    for (const x of nz) counts.set(Math.abs(x), (counts.get(Math.abs(x)) ?? 0) + 1);
    const ties = [...counts.values()].reduce((s, t) => s + t ** 3 - t, 0);
    const z = (wPlus - (n * (n + 1)) / 4) / Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - ties / 48);
    expect(r.wPlus).toBe(wPlus);
    expect(r.z).toBeCloseTo(z, 10);
    expect(r.p).toBeCloseTo(normalTwoSidedP(z), 12);
  });
});

describe('several tests, and the games a difference needs', () => {
  it("Holm's adjustment: the k-th smallest p times (m − k + 1), never below the one before, at most 1", () => {
    expect(holmAdjust([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holmAdjust([0.5, 0.001])).toEqual([0.5, 0.002]);
    expect(holmAdjust([0.9, 0.8, 0.7])).toEqual([1, 1, 1]);
  });

  it('games for a difference at 80 % power: ((z_0.975 + z_0.8)·sd/δ)², twice the 1.96-standard-errors figure', () => {
    const n = gamesForPower(40_000, 100_000, 0.05);
    expect(n).toBe(Math.ceil(((1.959964 + 0.841621) * 40_000 / 5_000) ** 2));
    expect(n / Math.ceil(((1.96 * 40_000) / 5_000) ** 2)).toBeGreaterThan(2);
  });
});

describe('compare at a handful of games', () => {
  it('2 pairs: exact p, t intervals, no correlation or sample size, and a plain warning that nothing can be resolved', () => {
    const r = runCli(['compare', 'nneonneo', 'tuned-d1', '--games', '2', '--depth', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout);
    const pair = result.pairs[0];
    const diffs = result.contenders[0].games.map((g: { score: number }, i: number) => g.score - result.contenders[1].games[i].score);
    expect(pair.ciMethod).toBe('t');
    const t = meanWithCI95(diffs);
    expect(pair.ci95.low).toBeCloseTo(t.low, 6);
    expect(pair.ci95.high).toBeCloseTo(t.high, 6);
    expect(pair.wilcoxon.p).toBeCloseTo(bruteSignedRankP(diffs), 12);
    expect(pair.pairing).toBeUndefined();
    const text = runCli(['compare', 'nneonneo', 'tuned-d1', '--games', '2', '--depth', '0']).stdout;
    expect(text).toMatch(/^note: with 2 pairs no difference can reach p < 0\.05 \(the smallest exact two-sided Wilcoxon p of 2 pairs is 0\.5\)/m);
    expect(text).toMatch(/^note: fewer than 30 pairs: every interval is Student's t/m);
  });

  it('three contenders: each p is also given adjusted for the others (Holm)', () => {
    const r = runCli(['compare', 'nneonneo', 'tuned-d1', 'snake3', '--games', '40', '--depth', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { pairs } = JSON.parse(r.stdout) as { pairs: { wilcoxon: { p: number }; pHolm: number }[] };
    expect(pairs.map((p) => p.pHolm)).toEqual(holmAdjust(pairs.map((p) => p.wilcoxon.p)));
    const text = runCli(['compare', 'nneonneo', 'tuned-d1', 'snake3', '--games', '40', '--depth', '0']).stdout;
    expect(text).toMatch(/p \(Holm\)/);
    expect(text).toMatch(/^note: 3 pairs tested at once/m);
  });
});

describe("tuning's figures follow the same rules", () => {
  it("show's ± of a candidate's fitness and the verdict on the start are Student's t at their n (8 held-out games: 18 % wider than the normal)", async () => {
    const { fitnessHalfWidth95 } = await import('../src/tuner/objective/fitness');
    const { weighStart } = await import('../src/tuner/selection/verdict');
    const games = [31_000, 52_000, 18_500, 77_000].map((score, i) => ({ score, maxTile: 2048, seed: i }));
    const fitness = { objective: 'mean-score' } as never;
    expect(fitnessHalfWidth95(fitness, games)).toBeCloseTo((tQuantile(0.975, 3) * stdev(games.map((g) => g.score))) / 2, 6);
    const start = { id: 1, validation: 0, games: Array.from({ length: 8 }, (_, i) => ({ score: 40_000 + 1_000 * i, maxTile: 2048, seed: i })) };
    const best = { id: 2, validation: 0, games: start.games.map((g, i) => ({ ...g, score: g.score + [3_000, -1_000, 6_000, 2_500, 4_000, -2_000, 5_500, 1_000][i] })) };
    start.validation = start.games.reduce((s, g) => s + g.score, 0) / 8;
    best.validation = best.games.reduce((s, g) => s + g.score, 0) / 8;
    const verdict = weighStart(fitness, start, best, best);
    const diffs = best.games.map((g, i) => g.score - start.games[i].score);
    expect(verdict.halfWidth).toBeCloseTo((tQuantile(0.975, 7) * stdev(diffs)) / Math.sqrt(8), 6);
  });
});
