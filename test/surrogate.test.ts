/**
 * The surrogate optimizer (src/tuner/optimizers/model-based/surrogate.ts) and its model (src/tuner/optimizers/model-based/response-surface.ts): the fit
 * against known quadratics, its intervals against repeated noisy draws, the trust-region step against a
 * brute-force search, its fallbacks, and runs on the synthetic player that are exact under stops and any
 * worker count and find the known optimum within a budget where the GA does not.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { ballMaximizer, features, fitQuadratic, predict, predictedDifference, predictValue, quadraticSize, type SurfacePoint } from '../src/tuner/optimizers/model-based/response-surface';
import { createSurrogate, type SurrogateState } from '../src/tuner/optimizers/model-based/surrogate';
import { gaussian } from '../src/tuner/optimizers/operators';
import { describeModel, type Evaluated } from '../src/tuner/optimizers/optimizer';
import { loadConfig, parseConfig, type SurrogateConfig } from '../src/tuner/config/config';
import { loadRunProblem } from '../src/tuner/run/run-problem';
import { weightSpace } from '../src/tuner/space/space';
import { recommendation } from '../src/tuner/benchmark/optimizer-benchmark';
import { syntheticMean } from '../src/player/synthetic';
import { Store } from '../src/store/store';
import { straightAndStopped, tempDb, tuneToEnd } from './helpers/runs';

/** A known quadratic: a + gᵀx + ½xᵀHx. */
function quadratic(a: number, g: number[], h: number[][]) {
  return (x: readonly number[]) => a + g.reduce((s, v, i) => s + v * x[i], 0) + 0.5 * x.reduce((s, xi, i) => s + xi * h[i].reduce((t, hij, j) => t + hij * x[j], 0), 0);
}

/** Points drawn N(0, I), `games` games each of f plus N(0, σ²) noise, as means. */
function draw(f: (x: readonly number[]) => number, n: number, count: number, games: number, sigma: number, rng: () => number): SurfacePoint[] {
  return Array.from({ length: count }, () => {
    const x = Array.from({ length: n }, () => gaussian(rng));
    let sum = 0;
    for (let k = 0; k < games; k++) sum += f(x) + sigma * gaussian(rng);
    return { x, games, mean: sum / games, weight: 1 };
  });
}

const G = [30, -12, 5];
const H = [
  [-20, 4, 0],
  [4, -10, 2],
  [0, 2, -8],
];
const f = quadratic(1000, G, H);

describe('the response surface', () => {
  it('has 1 + n + n(n+1)/2 features, whose coefficients are a, g and H', () => {
    expect(quadraticSize(3)).toBe(10);
    expect(features([2, 3, 5])).toEqual([1, 2, 3, 5, 2, 6, 10, 4.5, 15, 12.5]);
  });

  it('recovers a known quadratic from noise-free points (a weak curvature prior changes nothing)', () => {
    const m = fitQuadratic(draw(f, 3, 60, 1, 0, seedrandom.alea('exact')), 3, 1e-6, 1e6)!;
    expect(m.intercept).toBeCloseTo(1000, 4);
    m.gradient.forEach((g, i) => expect(g).toBeCloseTo(G[i], 4));
    m.hessian.forEach((row, i) => row.forEach((h, j) => expect(h).toBeCloseTo(H[i][j], 4)));
    const x = [0.3, -1, 2];
    expect(predict(m, x)).toBeCloseTo(f(x), 3);
  });

  it('tells the truth: its 95 % intervals hold the true value about 95 % of the time over repeated noisy draws', () => {
    const rng = seedrandom.alea('calibration');
    const at = [0.8, -0.5, 0.4];
    let hitValue = 0;
    let hitGain = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const m = fitQuadratic(draw(f, 3, 40, 4, 50, rng), 3, 50 ** 2, 1000)!;
      const v = predictValue(m, at);
      if (Math.abs(v.value - f(at)) < 1.96 * v.se) hitValue++;
      const d = predictedDifference(m, at, [0, 0, 0]);
      if (Math.abs(d.value - (f(at) - f([0, 0, 0]))) < 1.96 * d.se) hitGain++;
    }
    for (const hits of [hitValue, hitGain]) {
      expect(hits / trials).toBeGreaterThan(0.89);
      expect(hits / trials).toBeLessThan(0.99);
    }
  });

  it('measures its lack of fit against what the noise alone leaves, also when points are weighted by nearness (≈ 1 on a true quadratic)', () => {
    // Few games per coefficient, points weighted as the surrogate weighs them: the plain Σw − p degrees of
    // freedom would read a lack of fit well above 1 here.
    const rng = seedrandom.alea('lack of fit');
    let lof = 0;
    let naive = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const points = draw(f, 3, 40, 2, 50, rng).map((pt) => {
        const x = pt.x.map((v) => 1.5 * v);
        return { ...pt, x, mean: pt.mean - f(pt.x) + f(x), weight: Math.exp(-x.reduce((s, v) => s + v * v, 0) / 6) };
      });
      const m = fitQuadratic(points, 3, 50 ** 2, 1000)!;
      lof += m.lackOfFit / trials;
      naive += (m.lackOfFit * m.residualDof) / (points.reduce((s, pt) => s + pt.weight, 0) - quadraticSize(3)) / trials;
    }
    expect(lof).toBeGreaterThan(0.9);
    expect(lof).toBeLessThan(1.1);
    expect(naive).toBeGreaterThan(1.2); // what the plain count read
  });

  it('cannot fit what the points do not pin down, or a broken score: null', () => {
    const few = draw(f, 3, 3, 1, 0, seedrandom.alea('few')); // fewer points than 1 + n
    expect(fitQuadratic(few, 3, 1, 10)).toBeNull();
    const broken = draw(f, 3, 40, 1, 1, seedrandom.alea('nan'));
    broken[5] = { ...broken[5], mean: NaN };
    expect(fitQuadratic(broken, 3, 1, 10)).toBeNull();
    expect(fitQuadratic(draw(f, 3, 40, 1, 1, seedrandom.alea('ok')), 3, 0, 10)).toBeNull(); // no noise measured
  });

  it('its trust-region step is the best point of the ball, as a brute-force search finds it', () => {
    const rng = seedrandom.alea('ball');
    for (let trial = 0; trial < 30; trial++) {
      const n = 2 + (trial % 3);
      // Random models: concave, indefinite and convex ones.
      const g = Array.from({ length: n }, () => 10 * gaussian(rng));
      const h = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      for (let i = 0; i < n; i++) for (let j = i; j < n; j++) h[i][j] = h[j][i] = 6 * gaussian(rng) + (i === j ? 8 * (trial % 3) - 8 : 0);
      const model = { n, intercept: 0, gradient: g, hessian: h, covariance: [], games: 0, lackOfFit: 1, residualDof: 1 };
      const radius = 0.5 + 2 * rng();
      const x = ballMaximizer(model)(radius);
      const norm = Math.sqrt(x.reduce((s, v) => s + v * v, 0));
      expect(norm).toBeLessThanOrEqual(radius * (1 + 1e-9));
      const q = quadratic(0, g, h);
      for (let k = 0; k < 3000; k++) {
        const y = Array.from({ length: n }, () => gaussian(rng));
        const r = radius * Math.pow(rng(), 1 / n) / Math.sqrt(y.reduce((s, v) => s + v * v, 0));
        expect(q(y.map((v) => v * r))).toBeLessThanOrEqual(q(x) + 1e-6 * (1 + Math.abs(q(x))));
      }
    }
  });
});

/** Evaluated candidates of an optimizer's generation, each game of f(genome) plus noise. */
function evaluate(gen: { candidates: { genome: number[]; origin: string }[] }, games: number, score: (g: number[]) => number, first: number): Evaluated[] {
  return gen.candidates.map((c, i) => {
    const scores = Array.from({ length: games }, () => score(c.genome));
    return { id: first + i, genome: c.genome, origin: c.origin, fitness: scores.reduce((s, v) => s + v, 0) / games, scores };
  });
}

describe('the surrogate optimizer', () => {
  const cfg = parseConfig({ space: { start: 'nneonneo', params: { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 } } }, optimizer: { kind: 'surrogate' } }).optimizer as SurrogateConfig;

  it('samples (and says why) until there are games enough for its model, and leaves broken scores out', () => {
    const opt = createSurrogate(cfg, (g) => g.join(','));
    const rng = seedrandom.alea('fallback');
    const slope = (g: number[]) => 1000 + 400 * g[0] + 10 * gaussian(rng);
    let gen = opt.initial([0.5, 0.5], rng);
    // One game each: the noise of a game cannot be measured yet.
    let evaluated = evaluate(gen, 1, slope, 0);
    gen = opt.next(evaluated, gen.state, rng, evaluated);
    expect((gen.state as SurrogateState).decision).toBe('sample');
    expect(opt.summary(gen.state).model!.decision).toMatch(/^sample \(no weight set has two games yet/);
    // Broken scores (NaN from a broken weight set) are left out, never fitted.
    const broken = evaluate(gen, 2, () => NaN, 100);
    gen = opt.next(broken, gen.state, rng, [...evaluated, ...broken]);
    expect((gen.state as SurrogateState).decision).toBe('sample');
    // Enough games with a slope: it steps uphill, with a predicted gain whose interval is above zero.
    const history = [...evaluated, ...broken];
    for (let i = 0; i < 6; i++) {
      evaluated = evaluate(gen, 2, slope, 200 + 100 * i);
      history.push(...evaluated);
      gen = opt.next(evaluated, gen.state, rng, history);
    }
    const s = gen.state as SurrogateState;
    expect(s.center[0]).toBeGreaterThan(0.9); // the optimum is the bound, 1
    expect(Math.abs(s.center[1] - 0.5)).toBeLessThan(0.1); // no slope there
    const model = opt.summary(gen.state).model!;
    expect(['step', 'hold']).toContain(model.decision);
    expect(model.predicted).not.toBeNull();
    // What the point gained over the start, as a paired comparison would measure it: the true gain lies
    // within its interval, which excludes no gain.
    const overStart = model.predicted!.overStart!;
    const truth = 400 * (s.center[0] - 0.5);
    expect(Math.abs(overStart.gain - truth)).toBeLessThan(2.5 * overStart.se);
    expect(overStart.gain - 1.96 * overStart.se).toBeGreaterThan(0);
    expect(describeModel(model)).toMatch(/over the start \+[\d,]+ ± [\d,]+/);
  });
});

describe('a surrogate run on the synthetic player', () => {
  const config = (optimizer: Record<string, unknown>, budget?: number) => {
    const c = loadConfig('configs/synthetic-d3.json');
    return parseConfig({ ...c, optimizer, fitness: { ...c.fitness, ...(budget ? { budget } : {}) }, validation: { finalists: 2, games: 40 }, pool: { batchGames: 8 } });
  };

  it('refuses an unknown option, and a radius outside its bounds, with one line', () => {
    expect(() => config({ kind: 'surrogate', trustRegion: 1 })).toThrow(/field "optimizer": unknown key\(s\) "trustRegion"/);
    expect(() => config({ kind: 'surrogate', radius: 0.01, minRadius: 0.05 })).toThrow(/radius must lie within \[minRadius, maxRadius\]/);
    expect(() => config({ kind: 'surrogate', games: 1 })).toThrow(/optimizer\.games/);
  });

  it('gives the same rows with 1 worker as with 2, and stopped and resumed (a fresh process reads its history back) as straight', async () => {
    const { straight, straightStatus, stopped } = await straightAndStopped(config({ kind: 'surrogate', generations: 10, population: 16 }), [20, 100, 200], true);
    expect(straightStatus).toBe('finished');
    expect(stopped).toEqual(straight);
  });

  it('returns its point, validated, even where a sample validates higher', async () => {
    // One generation far below the peak: half the samples lie uphill of the point.
    const c = config({ kind: 'surrogate', generations: 1, population: 16, radius: 0.05 });
    const db = tempDb();
    const { id } = await tuneToEnd(db, parseConfig({ ...c, validation: { finalists: 16, games: 20 } }), { workers: 2 });
    const store = Store.open(db, { readonly: true });
    try {
      const finalists = store.getCandidates(id, 0).filter((x) => x.validation !== null);
      const point = finalists.find((x) => x.origin === 'mean')!;
      expect(finalists.some((x) => x.validation! > point.validation!)).toBe(true);
      expect(store.requireRun(id).bestCandidate).toBe(point.id);
    } finally {
      store.close();
    }
  });

  it('comes within 3 % of the known optimum in 6,000 games, where the GA with racing does not', async () => {
    const truthAtEnd = async (optimizer: Record<string, unknown>, racing: boolean) => {
      const db = tempDb();
      const c = config({ ...optimizer, generations: 100000 }, 6000);
      const { id } = await tuneToEnd(db, racing ? parseConfig({ ...c, fitness: { ...c.fitness, racing: { rounds: 3, keep: 0.5 } } }) : c, { workers: 2 });
      const store = Store.open(db, { readonly: true });
      try {
        const { config: rc, space } = loadRunProblem(store, id);
        const gens = store.listGenerations(id);
        const rec = recommendation(store.getCandidates(id, gens[gens.length - 1].idx));
        // The surrogate's result is its point, never a sample that validated higher by luck.
        if (optimizer.kind === 'surrogate') expect(store.requireRun(id).bestCandidate).toBe(rec.id);
        return syntheticMean(weightSpace(space).toWeights(rec.genome), rc.fitness.synthetic!) / rc.fitness.synthetic!.peak;
      } finally {
        store.close();
      }
    };
    const surrogate = await truthAtEnd({ kind: 'surrogate' }, false);
    const ga = await truthAtEnd({ kind: 'ga', population: 16, elitism: 2, tournament: 3, mutationScale: 0.05, initScale: 0.08 }, true);
    // The start is at ~51 % of the peak, with depth-3 noise (a game's sd 40 % of its mean).
    expect(surrogate).toBeGreaterThan(0.97);
    expect(ga).toBeLessThan(0.97);
  });
});
