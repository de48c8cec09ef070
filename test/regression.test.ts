/**
 * The regression design (src/tuner/optimizers/model-based/regression.ts): its least-squares fit against exact and noisy data with
 * known slopes, its sign design's orthogonality, its refusals, and runs on the synthetic player that are
 * exact under stops and any worker count and climb toward the known optimum.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { fitGames, hadamard, noSlopeBound, signDesign, solveLinear } from '../src/tuner/optimizers/model-based/regression';
import { gaussian } from '../src/tuner/optimizers/operators';
import type { Evaluated } from '../src/tuner/optimizers/optimizer';
import { loadConfig, parseConfig } from '../src/tuner/config/config';
import { loadRunProblem } from '../src/tuner/run/run-problem';
import { weightSpace } from '../src/tuner/space/space';
import { syntheticMean } from '../src/player/synthetic';
import { Store } from '../src/store/store';
import { straightAndStopped, tempDb, tuneToEnd } from './helpers/runs';

/** Candidates at center ± c·signs with `games` scores each from f plus N(0, σ²) noise. */
function design(center: number[], c: number, f: (x: number[]) => number, sigma: number, games: number, seed: string): Evaluated[] {
  const rng = seedrandom.alea(seed);
  const cands: Evaluated[] = [{ id: 0, genome: center, origin: 'mean', fitness: NaN, scores: [] }];
  for (const s of signDesign(center.length, 8, rng)) for (const side of [1, -1]) cands.push({ id: cands.length, genome: center.map((x, k) => x + side * c * s[k]), origin: 'probe', fitness: NaN, scores: [] });
  for (const cand of cands) cand.scores = Array.from({ length: games }, () => f(cand.genome) + sigma * gaussian(rng));
  return cands;
}

describe('the regression fit', () => {
  const center = [0.5, 0.3, 0.7, 0.2, 0.6];
  const c = 0.1;
  const slopes = [300, -120, 0, 45, 10]; // per unit of x = (genome − center)/c
  const linear = (g: number[]) => 1000 + g.reduce((s, x, k) => s + slopes[k] * ((x - center[k]) / c), 0);

  it('recovers known slopes and the intercept exactly from noise-free games', () => {
    const fit = fitGames(design(center, c, linear, 0, 3, 'a'), center, c)!;
    expect(fit.intercept).toBeCloseTo(1000, 6);
    fit.slopes.forEach((g, k) => expect(g).toBeCloseTo(slopes[k], 6));
    expect(fit.games).toBe(17 * 3);
  });

  it('with noise, every slope has the error of all the games (σ/√N), and Σ z² is about n without slopes', () => {
    const sigma = 400;
    const fit = fitGames(design(center, c, linear, sigma, 40, 'b'), center, c)!;
    const expected = sigma / Math.sqrt(fit.games * (16 / 17)); // the center's games carry no slope information
    fit.slopeSes.forEach((se) => expect(se / expected).toBeGreaterThan(0.85));
    fit.slopeSes.forEach((se) => expect(se / expected).toBeLessThan(1.15));
    fit.slopes.forEach((g, k) => expect(Math.abs(g - slopes[k])).toBeLessThan(4 * fit.slopeSes[k]));
    // No slope: Σ z² rarely passes its 95 % point (here over 40 independent designs).
    let above = 0;
    for (let i = 0; i < 40; i++) if (fitGames(design(center, c, () => 1000, sigma, 10, `flat${i}`), center, c)!.chi2 > noSlopeBound(5)) above++;
    expect(above).toBeLessThanOrEqual(6);
  });

  it('cannot fit too few games, a singular system or a broken score: null, never a made-up slope', () => {
    expect(fitGames(design(center, c, linear, 0, 1, 'c').slice(0, 4), center, c)).toBeNull();
    expect(solveLinear([[1, 2], [2, 4]], [1, 2])).toBeNull();
    const broken = design(center, c, linear, 0, 2, 'd');
    broken[3].scores[1] = NaN;
    expect(fitGames(broken, center, c)).toBeNull();
  });

  it('the sign design is orthogonal in every whole block, for any dimension', () => {
    expect(hadamard(4)).toEqual([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]]);
    for (const n of [1, 3, 5, 8, 9]) {
      let m = 1;
      while (m < n) m *= 2;
      const rows = signDesign(n, 2 * m, seedrandom.alea(`s${n}`));
      expect(rows).toHaveLength(2 * m);
      expect(rows.every((r) => r.length === n && r.every((x) => x === 1 || x === -1))).toBe(true);
      for (const block of [rows.slice(0, m), rows.slice(m)]) {
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(block.reduce((s, r) => s + r[i] * r[j], 0)).toBe(i === j ? m : 0);
      }
    }
  });
});

describe('a regression run on the synthetic player', () => {
  const config = (generations = 6) => {
    const c = loadConfig('configs/synthetic-d3.json');
    return parseConfig({ ...c, optimizer: { kind: 'regression', generations, population: 16 }, validation: { finalists: 2, games: 40 }, pool: { batchGames: 5 } });
  };

  it('refuses an unknown option with one line', () => {
    expect(() => parseConfig({ ...config(), optimizer: { kind: 'regression', stepSize: 1 } })).toThrow(/field "optimizer": unknown key\(s\) "stepSize"/);
  });

  it('gives the same rows with 1 worker as with 2, and stopped and resumed as straight', async () => {
    const { straight, straightStatus, stopped } = await straightAndStopped(config(), [20, 150, 400], true);
    expect(straightStatus).toBe('finished');
    expect(stopped).toEqual(straight);
  });

  it('climbs toward the known optimum: the recommended point (not a lucky probe) gains on the start', async () => {
    const db = tempDb();
    const { id } = await tuneToEnd(db, config(30), { workers: 2 });
    const store = Store.open(db, { readonly: true });
    try {
      const { config: c, space, startWeights } = loadRunProblem(store, id);
      const gens = store.listGenerations(id);
      const last = store.getCandidates(id, gens[gens.length - 1].idx).find((x) => x.origin === 'mean')!;
      const landscape = c.fitness.synthetic!;
      // The start is at ~72k of the 140k peak; depth-3 noise.
      expect(syntheticMean(weightSpace(space).toWeights(last.genome), landscape)).toBeGreaterThan(1.4 * syntheticMean(startWeights!, landscape));
    } finally {
      store.close();
    }
  });
});
