import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { pairedLlr, sprtBounds, sprtStep, type SprtSettings } from '../src/compare/sprt';

/** A normal draw (Box–Muller) from a seeded stream. */
function normal(rng: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

/**
 * One simulated comparison: B's scores ~ N(100k, 40k); A's = ratio·B + N(0, 60k) (a paired difference
 * as noisy, relative to its mean, as depth-3 games are), checked every 20 pairs.
 */
function simulate(trueRatio: number, s: SprtSettings, rng: () => number, maxGames = 20_000) {
  const a: number[] = [];
  const b: number[] = [];
  for (;;) {
    for (let i = 0; i < 20; i++) {
      const base = 100_000 + 40_000 * normal(rng);
      b.push(base);
      a.push(trueRatio * base + 60_000 * normal(rng));
    }
    const state = sprtStep(a, b, s);
    if (state.decision !== 'continue' || a.length >= maxGames) return state;
  }
}

describe('sequential probability ratio test on paired scores', () => {
  const settings: SprtSettings = { ratio0: 1, ratio1: 1.1, alpha: 0.05, beta: 0.05 };

  it('has the bounds of Wald', () => {
    expect(sprtBounds(0.05, 0.05).upper).toBeCloseTo(Math.log(19), 12);
    expect(sprtBounds(0.05, 0.05).lower).toBeCloseTo(-Math.log(19), 12);
  });

  it('is the log-likelihood ratio of two normal models of equal variance', () => {
    const diffs = [3, -1, 4, 1, -5, 9, 2, 6];
    const n = diffs.length;
    const mean = diffs.reduce((s, x) => s + x, 0) / n;
    const v = diffs.reduce((s, x) => s + (x - mean) ** 2, 0) / n;
    const logLik = (mu: number) => diffs.reduce((s, x) => s - (x - mu) ** 2 / (2 * v), 0);
    expect(pairedLlr(diffs, 0, 2)).toBeCloseTo(logLik(2) - logLik(0), 10);
  });

  it('accepts H1 when A is 10% better at close to its beta, and H0 when equal at close to its alpha (400 simulated runs each)', () => {
    const rng = seedrandom.alea('sprt');
    const runs = 400;
    const falseAccept = Array.from({ length: runs }, () => simulate(1.0, settings, rng)).filter((r) => r.decision === 'H1').length / runs;
    const falseReject = Array.from({ length: runs }, () => simulate(1.1, settings, rng)).filter((r) => r.decision === 'H0').length / runs;
    // Nominal 5% each; Wald's bounds are conservative, the estimated mean of B adds a little noise.
    expect(falseAccept).toBeLessThan(0.09);
    expect(falseReject).toBeLessThan(0.09);
    expect(falseAccept + falseReject).toBeGreaterThan(0); // not a test that cannot fail either way
  });

  it('decides a clear case early and a null case the other way', () => {
    const rng = seedrandom.alea('clear');
    const better = simulate(1.4, settings, rng);
    expect(better.decision).toBe('H1');
    expect(better.games).toBeLessThan(400);
    expect(simulate(0.8, settings, rng).decision).toBe('H0');
  });
});
