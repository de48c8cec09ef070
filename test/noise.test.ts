import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { gamesToResolve, pairNoise, pearson, splitSpread, summarizeNoise } from '../src/compare/noise';

/** Standard normal draws (Box–Muller) from a seeded stream. */
function normals(seed: string, n: number): number[] {
  const rng = seedrandom(seed);
  return Array.from({ length: n }, () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng()));
}

/** Two players' scores on seeds 0…n−1 with correlation rho: a = m + s·z1, b = m + s·(rho·z1 + √(1−rho²)·z2). */
function players(rho: number, n: number, seed: string) {
  const z1 = normals(`${seed}-1`, n);
  const z2 = normals(`${seed}-2`, n);
  const a = new Map(z1.map((z, s) => [s, 100_000 + 50_000 * z]));
  const b = new Map(z1.map((z, s) => [s, 100_000 + 50_000 * (rho * z + Math.sqrt(1 - rho * rho) * z2[s])]));
  return { a, b };
}

describe('seed pairing noise', () => {
  it('pearson is 1 and −1 on exact lines, and refuses different lengths', () => {
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1, 12);
    expect(() => pearson([1, 2], [1])).toThrow(/lengths/);
  });

  it('recovers a known correlation and the spread of differences it implies', () => {
    for (const rho of [0, 0.5, 0.9]) {
      const { a, b } = players(rho, 5000, `rho${rho}`);
      const p = pairNoise(a, b)!;
      expect(p.n).toBe(5000);
      expect(p.correlation).toBeGreaterThan(rho - 0.05);
      expect(p.correlation).toBeLessThan(rho + 0.05);
      // sd(a − b) = s·√(2 − 2ρ)
      expect(p.sdDiff / (50_000 * Math.sqrt(2 - 2 * rho))).toBeGreaterThan(0.95);
      expect(p.sdDiff / (50_000 * Math.sqrt(2 - 2 * rho))).toBeLessThan(1.05);
      expect(p.meanScore).toBeGreaterThan(97_000);
      expect(p.meanScore).toBeLessThan(103_000);
    }
  });

  it('uses only the common seeds, and skips too few of them and clones of the same weights', () => {
    const a = new Map([[1, 10], [2, 20], [3, 30], [4, 5]]);
    const b = new Map([[2, 25], [3, 31], [4, 9], [9, 1]]);
    expect(pairNoise(a, b, 3)).toEqual(expect.objectContaining({ n: 3 }));
    expect(pairNoise(a, b, 4)).toBeNull();
    expect(pairNoise(a, new Map(a), 2)).toBeNull();
  });

  it('games to resolve a difference: (z·sd / (relative·mean))², rounded up', () => {
    // 1.96 · 71,000 / (0.05 · 135,000) = 20.617…, squared 425.07… → 426
    expect(gamesToResolve(71_000, 135_000, 0.05)).toBe(426);
    expect(gamesToResolve(10, 100, 0.1, 2)).toBe(4);
    const { a, b } = players(0, 400, 'summary');
    const s = summarizeNoise([pairNoise(a, b)!])!;
    expect(s.pairs).toBe(1);
    expect(s.gamesFor5Percent).toBe(gamesToResolve(s.medianSdDiff, s.meanScore, 0.05));
    expect(summarizeNoise([])).toBeNull();
  });
});

describe('real and chance spread of a generation', () => {
  const generation = (trueSd: number, seed: string, candidates = 300, games = 30, noiseSd = 50_000) => {
    const truth = normals(`${seed}-truth`, candidates);
    return truth.map((t, i) => normals(`${seed}-${i}`, games).map((z) => 100_000 + trueSd * t + noiseSd * z));
  };

  it('splits a small case as the formulas say', () => {
    // means 2, 5, 8 (variance 9); each sd² / n: 1/3, 1/3, 4/3 → noise 2/3
    const s = splitSpread([[1, 2, 3], [4, 5, 6], [6, 8, 10]])!;
    expect(s.observed).toBeCloseTo(9, 12);
    expect(s.noise).toBeCloseTo(2 / 3, 12);
    expect(s.signalShare).toBeCloseTo((9 - 2 / 3) / 9, 12);
    expect(splitSpread([[1, 2], [3, 4]])).toBeNull();
    expect(splitSpread([[1], [2], [3], [4, 5]])).toBeNull();
  });

  it('finds no real spread among equal candidates, half of it when true differences match the noise, nearly all when they dwarf it', () => {
    const sem = 50_000 / Math.sqrt(30);
    expect(splitSpread(generation(0, 'equal'))!.signalShare).toBeLessThan(0.15);
    const half = splitSpread(generation(sem, 'half'))!.signalShare;
    expect(half).toBeGreaterThan(0.35);
    expect(half).toBeLessThan(0.65);
    expect(splitSpread(generation(10 * sem, 'large'))!.signalShare).toBeGreaterThan(0.95);
  });
});
