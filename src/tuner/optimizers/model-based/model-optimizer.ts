/**
 * The model optimizer (`optimizer.kind: "model"`): a Gaussian process of strength over the whole space,
 * fitted to every game the run has played (gaussian-process.ts), and new candidates drawn where it says the
 * best may be (Thompson sampling: each candidate is the top of one draw of the model, so a point is proposed
 * as often as the model thinks it may be the best). With a ceiling of cost per move (fitness.maxCost: "the
 * best within a cost ceiling", one objective), a second process models the log of each point's cost per move:
 * strength grows with cost, so the best within the ceiling lies near it, and the draws go there instead of
 * spreading over cheap settings as a front does.
 *
 * The ceiling is kept with the cost model's uncertainty, never by a point's own lucky reading: a point may be
 * recommended or chosen as a finalist only where the cost model puts P(cost ≤ ceiling) at fitness.costConfidence
 * or more (its own games are in that model, with their noise); a Thompson draw draws the cost too, jointly, so a
 * point the model is unsure of is sometimes played and the cost model corrected there.
 *
 * Each generation plays the model's current best point (origin "mean": the recommendation, the played point
 * with the highest predicted mean within the ceiling) and `population` points by Thompson sampling
 * (origin "model"), `games` games each on the generation's common seeds. Generation 0 plays the start and a
 * Latin hypercube of `initial` points. A point is what plays (space/point.ts): its games are pooled.
 *
 * The finalists (finalists()) are the played points within the ceiling with the highest predicted mean, from a
 * fit over every point played, with the model's prediction stored beside them, so show can set each prediction
 * against its held-out mean.
 */
import type { ModelConfig } from '../../config/config';
import { costPerMove } from '../../../compare/summary';
import { normalCdf } from '../../../util/stats';
import { fitGaussianProcess, type GaussianProcess, type GpHyper } from './gaussian-process';
import { gaussian } from '../operators';
import type { Evaluated, Generation, Optimizer, Proposal } from '../optimizer';
import { poolByPoint, withinPoints, type PooledPoint } from './points';

/** What the model needs of the space: its dimension, a genome as the player plays it, and the point a genome is. */
export interface ModelSpace {
  readonly size: number;
  canonical(genome: readonly number[]): number[];
  /** space/point.ts: equal for two genomes that play as one player. */
  pointKey(genome: readonly number[]): string;
}

/** What the run asks of the model besides its own settings. */
export interface ModelProblem {
  space: ModelSpace;
  /** The fitness objective: scores are modelled with noise proportional to the mean, other objectives with one noise. */
  objective: string;
  /** The ceiling of cost per move (fitness.maxCost), or undefined for plain strength. */
  maxCost?: number;
  /** The probability of keeping within the ceiling a point must have to be recommended or a finalist (fitness.costConfidence). */
  costConfidence?: number;
}

/** The model's word on a point: its predicted mean (the latent mean, not a game), sd, and the games played there. */
export interface ModelPrediction {
  mean: number;
  sd: number;
  games: number;
  /** The point's cost per move as measured in its games (a ceiling run). */
  cost?: number;
  /** The cost model's probability that the point keeps within the ceiling (a ceiling run). */
  withinCeiling?: number;
}

export interface ModelState {
  /** design: the first generation (no model yet); model: Thompson sampling from the fit; sample: no fit possible (reason says why). */
  decision: 'design' | 'model' | 'sample';
  reason?: string;
  /** The start genome (as played), to set the recommendation against it. */
  start: number[];
  games: number;
  /** The last fits' hyperparameters (the next fit starts from them). */
  hyper: GpHyper | null;
  costHyper: GpHyper | null;
  /** The recommendation's prediction (null before a model). */
  prediction: ModelPrediction | null;
  /** Distinct points the fit stood on. */
  points?: number;
  /** The Thompson draws fell back to the posterior mean: their joint covariance did not factorise (said by show and the log). */
  fallback?: boolean;
  /** Games of a ceiling run whose player counted no positions: left out of the cost model (said by show and the log). */
  uncounted?: number;
  /** Lagged proposals: the design's points not yet proposed (drawn once, with point 0; each later point takes the first). */
  design?: number[][];
}

/** A point with where it stands in the normalised space. */
interface Point extends PooledPoint {
  x: number[];
}

/** Candidates for a generation's draws: the played points, uniform points and points near the best predicted. */
const RANDOM_CANDIDATES = 256;
const LOCAL_CENTRES = 8;
const LOCAL_PER_CENTRE = 16;
const LOCAL_SCALES = [0.05, 0.15];
/** BFGS steps per fit (warm-started from the last generation's hyperparameters). */
const FIT_ITERATIONS = 30;
/** fitness.costConfidence when absent (no default in the schema: a stored config's hash stays what it was). */
export const COST_CONFIDENCE = 0.9;
/** The finalists are chosen from a fit over every point played, up to this many times the window (the most recent beyond). */
const FINALIST_WINDOW_FACTOR = 3;

const mean = (xs: readonly number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;

/** A Latin hypercube of n points in [0, 1]^d: each dimension's n strata hit once, in a random order. */
export function latinHypercube(n: number, d: number, rng: () => number): number[][] {
  const columns = Array.from({ length: d }, () => {
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order.map((s) => (s + rng()) / n);
  });
  return Array.from({ length: n }, (_, i) => columns.map((col) => col[i]));
}

/**
 * The strength model over some points, or why not. A game's score has an sd proportional to its mean (≈ 40 % at
 * every level), so a point's noise is v·μ²/n: v the relative variance within points, μ the point's mean. μ is
 * the model's own smoothed mean at the point (a first fit with one noise for all gives it), never the point's
 * observed mean: keyed on its own mean, a point that drew lucky games would get more noise for its luck, and the
 * model would shrink the top of the space down (measured: scripts/model-calibration.ts).
 */
function fitStrength(points: readonly Point[], problem: ModelProblem, warm: GpHyper | null): GaussianProcess | string {
  const relative = problem.objective === 'mean-score';
  const means = points.map((p) => mean(p.scores));
  const x = points.map((p) => p.x);
  const n = points.map((p) => p.scores.length);
  if (!relative) {
    const noise = withinPoints(points.map((p) => p.scores));
    if (!(noise.variance > 0)) return 'no point has two games yet: the noise is unknown';
    return fitGaussianProcess({ x, y: means, noise: n.map((k) => noise.variance / k) }, { warm: warm ?? undefined, iterations: FIT_ITERATIONS }) ?? 'the fit failed (no positive-definite covariance)';
  }
  const typical = Math.abs([...means].sort((a, b) => a - b)[Math.floor(means.length / 2)]) || 1;
  const floor = 0.05 * typical;
  // The relative variance v: each point's squared deviations over its scale squared, pooled.
  const relativeVariance = (scale: readonly number[]) => {
    let ss = 0;
    let dof = 0;
    points.forEach((p, i) => {
      if (p.scores.length < 2) return;
      ss += p.scores.reduce((s, v) => s + (v - means[i]) ** 2, 0) / Math.max(scale[i], floor) ** 2;
      dof += p.scores.length - 1;
    });
    return dof > 0 ? ss / dof : NaN;
  };
  const v0 = relativeVariance(means.map(() => typical));
  if (!(v0 > 0)) return 'no point has two games yet: the noise is unknown';
  const first = fitGaussianProcess({ x, y: means, noise: n.map((k) => (v0 * typical * typical) / k) }, { warm: warm ?? undefined, iterations: FIT_ITERATIONS });
  if (!first) return 'the fit failed (no positive-definite covariance)';
  const smooth = first.predict(x).mean.map((m) => Math.max(Math.abs(m), floor));
  const v = relativeVariance(smooth);
  return fitGaussianProcess({ x, y: means, noise: smooth.map((m, i) => (v * m * m) / n[i]) }, { warm: first.hyper, iterations: FIT_ITERATIONS }) ?? first;
}

/** The cost model (log cost per move) over the points that counted their cost, or null. */
function fitCost(points: readonly Point[], warm: GpHyper | null): GaussianProcess | null {
  const counted = points.filter((p) => p.counted.length > 0 && costPerMove(p.counted)! > 0);
  if (counted.length < 2) return null;
  const noise = withinPoints(counted.map((p) => p.counted.filter((g) => g.moves > 0 && g.nodes > 0).map((g) => Math.log(g.nodes / g.moves))));
  // A floor keeps the fit from trusting a point as exact where its games happened to cost the same.
  const variance = Math.max(noise.dof > 0 ? noise.variance : 0.01, 1e-4);
  return fitGaussianProcess({ x: counted.map((p) => p.x), y: counted.map((p) => Math.log(costPerMove(p.counted)!)), noise: counted.map((p) => variance / p.counted.length) }, { warm: warm ?? undefined, iterations: FIT_ITERATIONS });
}

/** The most recent `window` points (by the latest candidate that played them), and the start's point always. */
function windowOf(points: readonly Point[], window: number, startKey: string): Point[] {
  if (points.length <= window) return [...points];
  const recent = [...points].sort((a, b) => b.latest - a.latest).slice(0, window);
  const start = points.find((p) => p.key === startKey);
  return start && !recent.includes(start) ? [...recent.slice(0, window - 1), start] : recent;
}

/** The correlation of the latent means at two points given the data (1 where they cannot differ). */
function posteriorCorrelation(gp: GaussianProcess, a: readonly number[], b: readonly number[]): number {
  const { cov } = gp.joint([a, b]);
  const scale = Math.sqrt(cov[0] * cov[3]);
  return scale > 0 ? cov[1] / scale : 1;
}

export interface ModelFit {
  gp: GaussianProcess;
  cost: GaussianProcess | null;
  points: Point[];
  /** Games whose player counted no cost, in a ceiling run. */
  uncounted: number;
}

/** The model over a run's history (the window of most recent points), or why not. */
function fitModel(history: readonly Evaluated[], state: ModelState, cfg: ModelConfig, problem: ModelProblem, window = cfg.window): ModelFit | string {
  const all = poolByPoint(history, problem.space.pointKey).map((p) => ({ ...p, x: problem.space.canonical(p.genome) }));
  const points = windowOf(all, window, problem.space.pointKey(state.start));
  if (points.length < 3) return `${points.length} points played: the model needs 3`;
  const gp = fitStrength(points, problem, state.hyper);
  if (typeof gp === 'string') return gp;
  const cost = problem.maxCost !== undefined ? fitCost(points, state.costHyper) : null;
  return { gp, cost, points, uncounted: points.reduce((s, p) => s + p.uncounted, 0) };
}

/** P(cost ≤ ceiling) at some points by the cost model (1 without a ceiling; 0 where no cost model could be fitted). */
function withinCeilingProbability(fit: ModelFit, xs: readonly (readonly number[])[], problem: ModelProblem): number[] {
  if (problem.maxCost === undefined) return xs.map(() => 1);
  if (!fit.cost) return xs.map(() => 0);
  const pred = fit.cost.predict(xs);
  const log = Math.log(problem.maxCost);
  return pred.mean.map((m, i) => (pred.sd[i] > 0 ? normalCdf((log - m) / pred.sd[i]) : m <= log ? 1 : 0));
}

/** The played points the cost model keeps within the ceiling at the stated confidence, best predicted mean first, each with its prediction. */
function ranked(fit: ModelFit, problem: ModelProblem): { point: Point; prediction: ModelPrediction }[] {
  const level = problem.costConfidence ?? COST_CONFIDENCE;
  const within = withinCeilingProbability(fit, fit.points.map((p) => p.x), problem);
  const kept = fit.points.filter((_, i) => within[i] >= level);
  const keptWithin = within.filter((w) => w >= level);
  const pred = fit.gp.predict(kept.map((p) => p.x));
  return kept
    .map((point, i) => ({
      point,
      prediction: { mean: pred.mean[i], sd: pred.sd[i], games: point.scores.length, ...(problem.maxCost !== undefined ? { ...(costPerMove(point.counted) !== undefined ? { cost: costPerMove(point.counted) } : {}), withinCeiling: keptWithin[i] } : {}) },
    }))
    .sort((a, b) => b.prediction.mean - a.prediction.mean || a.point.latest - b.point.latest);
}

export function createModelOptimizer(cfg: ModelConfig, problem: ModelProblem): Optimizer & { finalists(history: readonly Evaluated[], state: unknown, count: number, maxCorrelation?: number): { genome: number[]; prediction: ModelPrediction }[] } {
  const { space } = problem;
  const d = space.size;
  const logCeiling = problem.maxCost !== undefined ? Math.log(problem.maxCost) : Infinity;

  /** A design of n points, none of them a point already played or proposed (duplicates would copy games on the same seeds). */
  const designPoints = (n: number, rng: () => number, taken: Set<string>): Proposal[] => {
    const out: Proposal[] = [];
    for (const g of latinHypercube(n, d, rng)) {
      const genome = space.canonical(g);
      const key = space.pointKey(genome);
      if (taken.has(key)) continue;
      taken.add(key);
      out.push({ genome, origin: 'design', parents: [] });
    }
    return out;
  };

  const sample = (s: ModelState, reason: string, rng: () => number, history: readonly Evaluated[]): Generation => {
    // No model yet: more of the design, around nothing in particular, none of it a point played before.
    const taken = new Set(history.map((c) => space.pointKey(c.genome)));
    return { candidates: designPoints(cfg.population + 1, rng, taken), state: { ...s, decision: 'sample', reason, prediction: null } satisfies ModelState };
  };

  /**
   * From a fit: the recommendation (the played point within the ceiling with the highest predicted mean, else the
   * one the cost model puts cheapest) and `count` Thompson draws, none of them the recommendation or a point in
   * `exclude` (each the top of one joint draw of strength and, with a ceiling, cost, within the ceiling).
   */
  const propose = (fit: ModelFit, rng: () => number, count: number, exclude: ReadonlySet<string>) => {
    const { gp, cost, points } = fit;
    const best = ranked(fit, problem);
    // Candidates: every played point, uniform points, and points near the best predicted.
    const pool = new Map<string, number[]>();
    const add = (g: readonly number[]) => {
      const x = space.canonical(g);
      const key = space.pointKey(x);
      if (!pool.has(key)) pool.set(key, x);
    };
    for (const p of points) pool.set(p.key, p.x);
    for (let i = 0; i < RANDOM_CANDIDATES; i++) add(Array.from({ length: d }, () => rng()));
    const centres = (best.length > 0 ? best.map((b) => b.point) : [...points].sort((a, b) => mean(b.scores) - mean(a.scores))).slice(0, LOCAL_CENTRES);
    for (const c of centres) for (const scale of LOCAL_SCALES) for (let i = 0; i < LOCAL_PER_CENTRE / LOCAL_SCALES.length; i++) add(c.x.map((v) => Math.min(1, Math.max(0, v + scale * gaussian(rng)))));
    const xs = [...pool.values()];
    const keys = [...pool.keys()];
    const byKey = new Map(points.map((p) => [p.key, p]));
    const cheapest = () => {
      if (!cost) return points[0];
      const c = cost.predict(points.map((p) => p.x)).mean;
      return points[c.indexOf(Math.min(...c))];
    };
    const incumbent = best[0]?.point ?? cheapest();
    const chosen = new Set([incumbent.key, ...exclude]);
    const picks: number[][] = [];
    if (count === 0) return { incumbent, best, draws: { picks, fallback: false } };
    const strength = gp.sample(xs, count, () => gaussian(rng));
    // The cost drawn jointly with the strength (one draw of each a candidate): within the ceiling as that draw has it.
    const costDraws = cost ? cost.sample(xs, count, () => gaussian(rng)) : null;
    for (let k = 0; k < strength.draws.length; k++) {
      const f = strength.draws[k];
      const c = costDraws?.draws[k];
      let pick = -1;
      for (let i = 0; i < xs.length; i++) {
        const feasible = problem.maxCost === undefined || (c !== undefined && c[i] <= logCeiling);
        if (feasible && !chosen.has(keys[i]) && (pick < 0 || f[i] > f[pick])) pick = i;
      }
      if (pick < 0) continue;
      chosen.add(keys[pick]);
      const played = byKey.get(keys[pick]);
      picks.push(played ? [...played.genome] : xs[pick]);
    }
    return { incumbent, best, draws: { picks, fallback: strength.fallback || (costDraws?.fallback ?? false) } };
  };

  /** The state a fit leaves: its hyperparameters (the next fit starts from them) and its word on the recommendation. */
  const modelState = (s: ModelState, fit: ModelFit, best: ReturnType<typeof ranked>, fallback: boolean): ModelState => ({
    decision: 'model',
    start: s.start,
    games: s.games,
    hyper: fit.gp.hyper,
    costHyper: fit.cost?.hyper ?? s.costHyper,
    prediction: best[0]?.prediction ?? null,
    points: fit.points.length,
    ...(fallback ? { fallback } : {}),
    ...(fit.uncounted > 0 ? { uncounted: fit.uncounted } : {}),
  });

  return {
    pooled: true,

    initial(start, rng): Generation {
      const played = space.canonical(start);
      const candidates: Proposal[] = [{ genome: [...start], origin: 'start', parents: [] }, ...designPoints(cfg.initial, rng, new Set([space.pointKey(start)]))];
      const state: ModelState = { decision: 'design', start: played, games: cfg.games, hyper: null, costHyper: null, prediction: null };
      return { candidates, state };
    },

    next(previous, previousState, rng, history = previous): Generation {
      const s = previousState as ModelState;
      const fit = fitModel(history, s, cfg, problem);
      if (typeof fit === 'string') return sample(s, fit, rng, history);
      const { incumbent, draws, best } = propose(fit, rng, cfg.population, new Set());
      const candidates: Proposal[] = [{ genome: [...incumbent.genome], origin: 'mean', parents: [] }, ...draws.picks.map((genome) => ({ genome, origin: 'model', parents: [] }))];
      return { candidates, state: modelState(s, fit, best, draws.fallback) };
    },

    proposeAt(k, history, pending, previousState, rng, start): Generation {
      if (k === 0) {
        // The start, and the design drawn once: the points after it take it in turn, whatever has finished.
        const played = space.canonical(start);
        const design = designPoints(cfg.initial, rng, new Set([space.pointKey(start)])).map((p) => p.genome);
        return { candidates: [{ genome: [...start], origin: 'start', parents: [] }], state: { decision: 'design', start: played, games: cfg.games, hyper: null, costHyper: null, prediction: null, design } satisfies ModelState };
      }
      const s = previousState as ModelState;
      if (s.design && s.design.length > 0) {
        const [genome, ...rest] = s.design;
        return { candidates: [{ genome, origin: 'design', parents: [] }], state: { ...s, decision: 'design', design: rest } };
      }
      const { design: _spent, ...carried } = s;
      const taken = new Set([...history.map((c) => space.pointKey(c.genome)), ...pending.map((g) => space.pointKey(g))]);
      const fit = fitModel(history, carried, cfg, problem);
      if (typeof fit === 'string') {
        // No model yet: a uniform point played by nobody (where every draw is taken, as in a small space of whole numbers, the start again).
        let drawn: Proposal[] = [];
        for (let tries = 0; drawn.length === 0 && tries < 32; tries++) drawn = designPoints(1, rng, taken);
        const candidates = drawn.length > 0 ? drawn : [{ genome: [...start], origin: 'design', parents: [] }];
        return { candidates, state: { ...carried, decision: 'sample', reason: fit, prediction: null } };
      }
      // Every (population + 1)-th point replays the recommendation, as a generation does once; the others are Thompson draws, none a point still being played.
      const replay = (k - 1 - cfg.initial) % (cfg.population + 1) === 0;
      const { incumbent, draws, best } = propose(fit, rng, replay ? 0 : 1, new Set(pending.map((g) => space.pointKey(g))));
      const genome = replay || draws.picks.length === 0 ? incumbent.genome : draws.picks[0];
      return { candidates: [{ genome: [...genome], origin: replay || draws.picks.length === 0 ? 'mean' : 'model', parents: [] }], state: modelState(carried, fit, best, draws.fallback) };
    },

    finalists(history, state, count, maxCorrelation = 1) {
      const s = state as ModelState;
      // Every point played is a candidate finalist (the fit over up to FINALIST_WINDOW_FACTOR windows), not only the most recent.
      const fit = fitModel(history, s, cfg, problem, cfg.window * FINALIST_WINDOW_FACTOR);
      if (typeof fit === 'string') return [];
      // Best predicted first, then each the best of those the model does not tie to one already taken: where
      // its posterior correlates two points near 1 (cprob 0.0075 and 0.0081 at one rule, which play the same
      // games), whatever the race learns of one it learns of the other, and racing both races one player twice.
      const picked: { point: Point; prediction: ModelPrediction }[] = [];
      for (const r of ranked(fit, problem)) {
        if (picked.length === count) break;
        if (picked.every((p) => posteriorCorrelation(fit.gp, p.point.x, r.point.x) <= maxCorrelation)) picked.push(r);
      }
      return picked.map((r) => ({ genome: r.point.genome, prediction: r.prediction }));
    },

    summary(state) {
      const s = state as ModelState;
      const p = s.prediction;
      const notes = [
        ...(s.fallback ? ['its draws fell back to the posterior mean (their covariance did not factorise)'] : []),
        ...(s.uncounted ? [`${s.uncounted} games without a count of positions left out of the cost model`] : []),
      ];
      const base = s.decision === 'sample' && s.reason ? `sample (${s.reason})` : s.decision === 'model' ? `model over ${s.points ?? 0} points` : s.decision;
      const decision = [base, ...notes].join('; ');
      return {
        stepSize: null,
        games: s.games,
        model: { decision: p ? `${decision}, its point ${p.games} games` : decision, predicted: p ? { mean: p.mean, se: p.sd, gain: 0, gainSe: 0, lackOfFit: 0, misfit: false } : null },
      };
    },
  };
}
