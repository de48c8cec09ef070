/**
 * The surrogate optimizer: a quadratic response surface over every game the run has played near the
 * current point, in a trust region (the model-based way to optimise under heavy noise: each game adds to
 * one fit, so the model's error falls as σ/√N over all N games, where a candidate's mean only averages
 * its own few).
 *
 * Each generation plays the current point θ (origin "mean": the recommendation) and `population` samples
 * θ ± r·z in antithetic pairs, z ~ N(0, I) (a symmetric design keeps slopes and curvature apart), with
 * `games` games each. Then, from all the run's games:
 *   1. every weight set played so far is a point x = (genome − θ)/r, weighted by how near it lies
 *      (exp(−‖x‖²/(2·window²·n)): a sample of this generation weighs ~e^{−1/(2·window²)});
 *   2. a quadratic q(x) is fitted to the points' means (response-surface.ts: a Bayesian ridge whose prior
 *      holds only the curvature to zero, the noise of a game measured within weight sets);
 *   3. the last step is judged again by a fit over both points' neighbourhoods: if the point it left now
 *      looks better, go back and halve r; if it surely gained and went to the edge, r ×1.5;
 *   4. along the path of q's best points (by its slope and downward curvature) in balls out to 2 radii,
 *      the step with the highest gain − 2 standard errors is taken if that is above zero; else it holds,
 *      and the point's neighbourhood fills with games until the model is sure (the pooled sample grows as
 *      ASTRO-DF's does);
 *   5. a surface whose points scatter beyond their noise (significant lack of fit) shrinks r ×0.8 and is
 *      trusted less far;
 *   6. too few games for the fit (under 2 per coefficient), no noise measured yet or a fit that fails:
 *      stay and sample again, and the state says why (shown in the log).
 * The state keeps the model's prediction at its new point, the mean, the gain over the old point and over
 * the run's start, each with a standard error, so show, the report and the dashboard set it beside the validated mean. The
 * mean is read from a fit half as wide around the new point: a quadratic fitted one radius around a peak
 * underestimates it (on the synthetic problem its interval held the truth in 0 of 3 runs in 16 weights,
 * 3 of 3 from the narrower fit, 8 of 8 in 8 weights), at the price of a wider interval.
 * Calibration: docs/results/optimizers.md (synthetic race, 8 and 16 weights).
 */
import type { SurrogateConfig } from '../../config/config';
import { gaussian } from '../operators';
import type { Generation, Optimizer, Proposal } from '../optimizer';
import { poolByPoint, withinPoints } from './points';
import { fitQuadratic, ballMaximizer, predictedDifference, predictValue, quadraticSize, type QuadraticModel, type SurfacePoint } from './response-surface';

export interface SurrogatePrediction {
  /** The model's mean score at the new point, and its standard error. */
  mean: number;
  meanSe: number;
  /** The new point's mean over the old point's, and its standard error. */
  gain: number;
  gainSe: number;
  /** Games the fit stood on (each weighted by nearness), the noise it measured, and how far the step went (‖x‖/√n). */
  games: number;
  noiseSd: number;
  step: number;
  lackOfFit: number;
  /**
   * The new point's mean over the run's start (the preset it was launched from), from a fit over both
   * neighbourhoods: the gain a paired comparison of the exported point against the start should find.
   * Absent while the point is the start or when that fit fails.
   */
  overStart?: { gain: number; se: number };
  /** The lack of fit is significant (beyond 3 sd of its value under a true quadratic): the surface is biased. */
  misfit: boolean;
}

export interface SurrogateState {
  center: number[];
  /** Where the run began (absent in states stored before it was kept). */
  start?: number[];
  radius: number;
  games: number;
  /**
   * step: moved to the model's best point; hold: no step's gain was sure enough, so it stayed; revert: the
   * last step, judged with the games since, lost, so it went back; sample: no model yet.
   */
  decision: 'start' | 'step' | 'hold' | 'revert' | 'sample';
  /** The point the last step left (step only), to judge that step again. */
  from?: number[];
  /** Why the last generation sampled instead of stepping ("sample" only). */
  reason?: string;
  prediction: SurrogatePrediction | null;
}

/** A weight of a point whose kernel weight is below this is left out of the fit. */
const NEGLIGIBLE = 1e-3;
/** The curvature prior's sd, in units of a game's noise sd: weak (one radius moves the mean by ~half a game's sd). */
const CURVATURE_PRIOR = 0.5;
/**
 * How sure a step must be: its gain minus this many standard errors is what a step is judged by (2: a
 * step where there is no gain passes ~2 % of the time, so hundreds of generations near the top do not
 * walk it off; 1 did, measured on the synthetic problem).
 */
const CONFIDENCE = 2;
/**
 * How far a step may go, in radii. The samples lie ~√n radii out, but along any one direction they spread
 * only N(0, 1) radii: a step of √n along the model's best direction extrapolates its curvature, and on real
 * depth-3 games (60k noise, 130 games for 66 coefficients) that promised +110k ± 106k and stepped onto a
 * 100k plateau. Two radii stay where the data are; confirmed steps to the edge widen the radius.
 */
const MAX_STEP = 2;
/** Ball sizes tried along the path from the point to the model's best within the step bound. */
const PATH_STEPS = 16;

export function createSurrogate(cfg: SurrogateConfig, pointKey: (genome: readonly number[]) => string): Optimizer {
  function generation(state: SurrogateState, rng: () => number): Generation {
    const n = state.center.length;
    const candidates: Proposal[] = [{ genome: [...state.center], origin: 'mean', parents: [] }];
    for (let i = 0; i < Math.floor(cfg.population / 2); i++) {
      const z = Array.from({ length: n }, () => gaussian(rng));
      for (const side of [1, -1]) candidates.push({ genome: state.center.map((x, k) => clamp01(x + side * state.radius * z[k])), origin: 'sample', parents: [] });
    }
    return { candidates, state };
  }

  return {
    pooled: true,

    initial(start, rng): Generation {
      return generation({ center: [...start], start: [...start], radius: cfg.radius, games: cfg.games, decision: 'start', prediction: null }, rng);
    },

    next(previous, previousState, rng, history = previous): Generation {
      const s = previousState as SurrogateState;
      const n = s.center.length;
      const sample = (reason: string): Generation => generation({ ...s, decision: 'sample', from: undefined, reason, prediction: null }, rng);
      // Each point's games pooled (copies and replays of one point are one: points.ts).
      const sets = poolByPoint(history, pointKey);
      const noiseVar = withinPoints(sets.map((set) => set.scores)).variance;
      if (!(noiseVar > 0)) return sample('no weight set has two games yet: the noise is unknown');
      /** How near a genome lies to c: the kernel exp(−‖(genome − c)/r‖²/(2·window²·n)). */
      const nearness = (genome: readonly number[], c: readonly number[], window = cfg.window) =>
        Math.exp(-genome.reduce((t, g, k) => t + ((g - c[k]) / s.radius) ** 2, 0) / (2 * window ** 2 * n));
      // Each weight set played so far, weighted by how near it lies to the point (or to either of two points).
      const pointsNear = (centers: readonly (readonly number[])[], window = cfg.window): SurfacePoint[] => {
        const out: SurfacePoint[] = [];
        for (const set of sets) {
          const x = set.genome.map((g, k) => (g - s.center[k]) / s.radius);
          const weight = Math.max(...centers.map((c) => nearness(set.genome, c, window)));
          if (weight < NEGLIGIBLE) continue;
          out.push({ x, games: set.scores.length, weight, mean: set.scores.reduce((t, v) => t + v, 0) / set.scores.length });
        }
        return out;
      };
      /** The model over these points (the curvature prior in units of the measured noise). */
      const fit = (points: readonly SurfacePoint[]) => fitQuadratic(points, n, noiseVar, CURVATURE_PRIOR * Math.sqrt(noiseVar));
      /** The mean at `at` (x in the point's coordinates), from a fit half as wide around it, else from `fallback`. */
      const meanAt = (at: readonly number[], x: readonly number[], fallback: QuadraticModel) => predictValue(fit(pointsNear([at], cfg.window / 2)) ?? fallback, x);
      // A point over the start, by a fit over both neighbourhoods (as a revert is judged).
      const gainOverStart = (at: readonly number[], x: readonly number[]): { overStart?: { gain: number; se: number } } => {
        if (!s.start || s.start.every((v, k) => v === at[k])) return {};
        const joint = fit(pointsNear([at, s.start]));
        if (!joint) return {};
        const d = predictedDifference(joint, x, s.start.map((g, k) => (g - s.center[k]) / s.radius));
        return { overStart: { gain: d.value, se: d.se } };
      };
      const needed = 2 * quadraticSize(n);
      /** Σ weight · games of the played weight sets near a point (in the kernel of the current radius). */
      const support = (at: readonly number[]) => sets.reduce((t, set) => t + set.scores.length * nearness(set.genome, at), 0);
      const zero = new Array<number>(n).fill(0);
      const fromX = s.decision === 'step' && s.from ? s.from.map((g, k) => (g - s.center[k]) / s.radius) : null;
      // The last step, judged again with the games played since at the new point and around it, by a fit
      // over both points' neighbourhoods: if the point it left now looks better, the step was a mistake of
      // a model fitted on less: go back and look closer. If it surely gained and went to the edge: look wider.
      // (Judged before anything else: a step must be undone even where the new point's own fit is not possible yet.)
      let back: { value: number; se: number } | null = null;
      if (fromX) {
        const joint = fit(pointsNear([s.center, s.from!]));
        back = joint ? predictedDifference(joint, fromX, zero) : null;
        if (joint && back && back.value > 0) {
          const value = meanAt(s.from!, fromX, joint);
          const prediction: SurrogatePrediction = { mean: value.value, meanSe: value.se, gain: back.value, gainSe: back.se, games: joint.games, noiseSd: Math.sqrt(noiseVar), step: 0, lackOfFit: joint.lackOfFit, misfit: false, ...gainOverStart(s.from!, fromX) };
          return generation({ center: [...s.from!], start: s.start, radius: Math.max(cfg.minRadius, s.radius * 0.5), games: s.games, decision: 'revert', prediction }, rng);
        }
      }
      const points = pointsNear([s.center]);
      const near = points.reduce((t, p) => t + p.weight * p.games, 0);
      if (near < needed) return sample(`${Math.floor(near)} games near the point, the model needs ${needed}`);
      const model = fit(points);
      if (!model) return sample('the fit failed (singular or ill-conditioned): sampling again');
      // The points' means scatter about the surface beyond their noise (3 sd of the ratio under a true quadratic).
      const dof = model.residualDof;
      const misfit = dof >= 30 && model.lackOfFit > 1 + 3 * Math.sqrt(2 / dof);
      const predictionAt = (x: readonly number[]): SurrogatePrediction => {
        // The mean at the point from a fit half as wide around it (less bias from the surface's shape, more noise).
        const at = s.center.map((c, k) => c + s.radius * x[k]);
        const value = meanAt(at, x, model);
        return { mean: value.value, meanSe: value.se, gain: 0, gainSe: 0, games: model.games, noiseSd: Math.sqrt(noiseVar), step: 0, lackOfFit: model.lackOfFit, misfit, ...gainOverStart(at, x) };
      };
      let radius = s.radius;
      if (back && s.prediction?.step === 1 && back.value + CONFIDENCE * back.se < 0) radius = Math.min(cfg.maxRadius, s.radius * 1.5);
      // Along the path of best points in balls of growing size (out to MAX_STEP radii, where the data are),
      // the step whose gain is surest: the highest gain − 2 standard errors. Far steps gain more but are
      // less certain, so the step goes as far as the evidence carries it; none above zero: stay.
      // A surface that fits its points worse than their noise allows is trusted less far, and no step goes
      // where the games played so far could not fit the model again (its support: a quadratic's
      // extrapolation past its data can promise anything, and the point's next fit would be impossible).
      const bound = Math.min(Math.sqrt(n), MAX_STEP) / Math.sqrt(Math.max(1, model.lackOfFit));
      // The path is chosen by the model's slope and downward curvature only: with tens of curvature
      // coefficients each known to ± half a game's noise, the largest upward one is mostly noise, and a
      // path along it promises gains that grow with the square of the step (judged by the full model).
      const best = ballMaximizer(model, { concave: true });
      let chosen: { center: number[]; x: number[]; gain: { value: number; se: number }; lower: number; k: number } | null = null;
      for (let k = 1; k <= PATH_STEPS; k++) {
        const x = best((k / PATH_STEPS) * bound);
        const center = s.center.map((c, i) => clamp01(c + s.radius * x[i]));
        if (support(center) < needed) break; // farther along the path is farther from the data
        const taken = center.map((c, i) => (c - s.center[i]) / s.radius); // clamped into the box
        const gain = predictedDifference(model, taken, zero);
        const lower = gain.value - CONFIDENCE * gain.se;
        if (!chosen || lower > chosen.lower) chosen = { center, x: taken, gain, lower, k };
      }
      const stepping = chosen !== null && chosen.lower > 0;
      const prediction: SurrogatePrediction = stepping
        ? { ...predictionAt(chosen!.x), gain: chosen!.gain.value, gainSe: chosen!.gain.se, step: chosen!.k / PATH_STEPS }
        : predictionAt(zero);
      // A quadratic that does not describe the points: look closer.
      if (misfit) radius = Math.max(cfg.minRadius, radius * 0.8);
      if (!stepping) return generation({ ...s, radius, decision: 'hold', from: undefined, reason: undefined, prediction }, rng);
      // The step's radius stays: it grows only once the next generation confirms the step (above).
      return generation({ center: chosen!.center, start: s.start, from: s.center, radius, games: s.games, decision: 'step', prediction }, rng);
    },

    summary(state) {
      const s = state as SurrogateState;
      const predicted = s.prediction ? { mean: s.prediction.mean, se: s.prediction.meanSe, gain: s.prediction.gain, gainSe: s.prediction.gainSe, lackOfFit: s.prediction.lackOfFit, misfit: s.prediction.misfit, ...(s.prediction.overStart ? { overStart: s.prediction.overStart } : {}) } : null;
      return { stepSize: s.radius, games: s.games, model: { decision: s.decision === 'sample' && s.reason ? `sample (${s.reason})` : s.decision, predicted } };
    },
  };
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
