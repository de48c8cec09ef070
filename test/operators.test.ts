import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { adaptScale, createGa } from '../src/tuner/optimizers/evolutionary/ga';
import { GaConfig, parseConfig } from '../src/tuner/config/config';
import { blendCrossover, gaussian, gaussianMutation, reflect, tournamentSelect, uniformCrossover, uniformGenome } from '../src/tuner/optimizers/operators';

const rngOf = (s: string) => seedrandom.alea(s);
const inBounds = (g: readonly number[]) => g.every((x) => x >= 0 && x <= 1);

describe('genetic operators', () => {
  it('reflect folds any value into [0, 1] and leaves inside values alone', () => {
    expect(reflect(0.3)).toBe(0.3);
    expect(reflect(-0.2)).toBeCloseTo(0.2);
    expect(reflect(1.25)).toBeCloseTo(0.75);
    for (const x of [-7.3, -1, 2, 3.9, 1e9, -1e9]) {
      expect(reflect(x)).toBeGreaterThanOrEqual(0);
      expect(reflect(x)).toBeLessThanOrEqual(1);
    }
  });

  it('mutation and crossover keep every gene in bounds, even with huge steps', () => {
    const rng = rngOf('bounds');
    for (let i = 0; i < 2000; i++) {
      const a = uniformGenome(8, rng);
      const b = uniformGenome(8, rng);
      expect(inBounds(gaussianMutation(a, 5, 1, rng))).toBe(true);
      expect(inBounds(blendCrossover(a, b, 2, rng))).toBe(true);
      expect(inBounds(uniformCrossover(a, b, rng))).toBe(true);
    }
  });

  it('are deterministic given the same random stream', () => {
    const run = () => {
      const rng = rngOf('det');
      const a = uniformGenome(6, rng);
      const b = uniformGenome(6, rng);
      return [gaussianMutation(a, 0.2, 0.5, rng), blendCrossover(a, b, 0.3, rng), uniformCrossover(a, b, rng), tournamentSelect([1, 5, 3, 2], 2, rng)];
    };
    expect(run()).toEqual(run());
  });

  it('uniform crossover takes each gene from one parent; blend stays within the widened interval', () => {
    const rng = rngOf('xo');
    const a = [0.1, 0.2, 0.3, 0.4];
    const b = [0.5, 0.6, 0.7, 0.8];
    for (let i = 0; i < 500; i++) {
      uniformCrossover(a, b, rng).forEach((x, k) => expect([a[k], b[k]]).toContain(x));
      blendCrossover(a, b, 0.5, rng).forEach((x, k) => {
        expect(x).toBeGreaterThanOrEqual(a[k] - 0.2 - 1e-12);
        expect(x).toBeLessThanOrEqual(b[k] + 0.2 + 1e-12);
      });
    }
  });

  it('mutation rate 0 changes nothing; gaussian draws have mean 0 and sd 1', () => {
    const rng = rngOf('gauss');
    const g = [0.2, 0.4, 0.6];
    expect(gaussianMutation(g, 0.3, 0, rng)).toEqual(g);
    const xs = Array.from({ length: 20000 }, () => gaussian(rng));
    const m = xs.reduce((s, x) => s + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length);
    expect(Math.abs(m)).toBeLessThan(0.03);
    expect(Math.abs(sd - 1)).toBeLessThan(0.03);
  });

  it('tournament selection with k = population always picks the fittest (ties: lowest index)', () => {
    const rng = rngOf('tour');
    const fitness = [3, 9, 1, 9, 4];
    for (let i = 0; i < 200; i++) expect(tournamentSelect(fitness, 50, rng)).toBe(1);
    // k = 1 is uniform: every index shows up
    const seen = new Set(Array.from({ length: 500 }, () => tournamentSelect(fitness, 1, rng)));
    expect(seen.size).toBe(5);
  });
});

describe('genetic algorithm', () => {
  const cfg = parseConfig({ space: { start: 'nneonneo', params: { empty: { min: 0, max: 1000 } } }, optimizer: { population: 8, elitism: 2, generations: 3 } }).optimizer as GaConfig;

  it('generation 0 holds the start point and population-1 others, all in bounds', () => {
    const g0 = createGa(cfg).initial([0.5, 0.25], rngOf('g0'));
    expect(g0.candidates).toHaveLength(8);
    expect(g0.candidates[0]).toEqual({ genome: [0.5, 0.25], origin: 'start', parents: [] });
    expect(g0.candidates.every((c) => inBounds(c.genome))).toBe(true);
  });

  it('keeps the elites unchanged and fills the rest with offspring of tournament winners', () => {
    const prev = Array.from({ length: 8 }, (_, i) => ({ id: 100 + i, genome: [i / 10, 1 - i / 10], origin: 'offspring', fitness: i === 5 ? 50 : i === 2 ? 40 : i, scores: [] }));
    const next = createGa(cfg).next(prev, { mutationScale: 0.1, successRate: null }, rngOf('next'));
    expect(next.candidates.slice(0, 2)).toEqual([
      { genome: [0.5, 0.5], origin: 'elite', parents: [105] },
      { genome: [0.2, 0.8], origin: 'elite', parents: [102] },
    ]);
    expect(next.candidates.slice(2).every((c) => c.origin === 'offspring' && c.parents.length >= 1 && inBounds(c.genome))).toBe(true);
  });

  it('one-fifth rule: σ grows when offspring beat the elites, shrinks otherwise, within its bounds', () => {
    const mk = (fit: number[]) => fit.map((f, i) => ({ id: i, genome: [0], origin: i < 2 ? 'elite' : 'offspring', fitness: f, scores: [] }));
    expect(adaptScale(cfg, 0.1, mk([10, 10, 20, 20, 1, 1])).scale).toBeCloseTo(0.122);
    expect(adaptScale(cfg, 0.1, mk([10, 10, 1, 1, 1, 1])).scale).toBeCloseTo(0.082);
    expect(adaptScale(cfg, 0.011, mk([10, 10, 1, 1, 1, 1])).scale).toBe(cfg.minMutationScale);
    expect(adaptScale(cfg, 0.1, mk([1, 2]).map((c) => ({ ...c, origin: 'start' }))).successRate).toBeNull();
  });
});
