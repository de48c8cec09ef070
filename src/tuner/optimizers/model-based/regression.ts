/**
 * The regression design: an optimizer that learns from every game, not from each candidate's mean (how
 * chess engines tune from game results: fishtest's SPSA, generalised to a fitted design with a sample size
 * that follows the noise, as ASTRO-DF adapts its own).
 *
 * Each generation plays the current point θ (origin "mean": the recommendation, always a finalist) and
 * probes θ ± c·s_j in antithetic pairs, the sign vectors s_j ∈ {−1, 1}^n the rows of a Hadamard matrix
 * with random column signs (so the design is orthogonal: every slope is estimated independently and the
 * fit is never singular). Then every game of every candidate is one row of a least-squares fit
 *     score = a + Σ_k g_k · x_k,     x = (genome − θ) / c
 * so each slope's error is σ/√N over all N games of the generation, not over one candidate's few games.
 * The next generation:
 *   - step: if the slopes are significant together (Σ (g_k/se_k)² above its 95 % point under no slope,
 *     n + 2·√(2n)), move to θ + radius · g/|g| (reflected into [0, 1]). The radius adapts as Rprop's
 *     steps do: halved when the new direction turns back on the last one (it overshot), ×1.2 when it keeps
 *     going (within [minRadius, maxRadius]);
 *   - else stay and measure better: games per candidate ×1.5 (≤ maxGames), and the radius ×0.7, since no
 *     slope shows near an optimum.
 * Every number it uses is in its state, stored per generation, so resume is exact.
 */
import { LuDecomposition, Matrix } from 'ml-matrix';
import type { RegressionConfig } from '../../config/config';
import { reflect } from '../operators';
import type { Evaluated, Generation, Optimizer, Proposal } from '../optimizer';

export interface RegressionFit {
  /** The mean score over the generation's design (the intercept) and its standard error. */
  intercept: number;
  interceptSe: number;
  /** Slopes per unit of x (a step of c along each coordinate), and their standard errors. */
  slopes: number[];
  slopeSes: number[];
  /** Σ (slope/se)²: about n when there is no slope. */
  chi2: number;
  /** The games it was fitted on. */
  games: number;
}

export interface RegressionState {
  /** This generation's point (candidate 0). */
  center: number[];
  /** The probes' distance along each coordinate (normalised space). */
  c: number;
  radius: number;
  /** Games per candidate this generation. */
  games: number;
  /** The last step's direction (a unit vector), to see an overshoot. */
  direction: number[] | null;
  /** The previous generation's fit, and what it led to (for show and the report). */
  fit: RegressionFit | null;
  decision: 'start' | 'step' | 'stay';
}

/** ml-matrix's LU (partial pivoting) of a small square A, or null if A is singular. */
function luOf(a: readonly (readonly number[])[]): LuDecomposition | null {
  const lu = new LuDecomposition(new Matrix(a.map((row) => [...row])));
  return lu.isSingular() ? null : lu;
}

/** Solves A·x = b; null if A is singular. */
export function solveLinear(a: readonly (readonly number[])[], b: readonly number[]): number[] | null {
  const x = luOf(a)?.solve(Matrix.columnVector([...b])).getColumn(0);
  return x && x.every(Number.isFinite) ? x : null;
}

/**
 * Least squares of every game's score on x = (genome − center)/c, with an intercept. Null when it cannot be
 * fitted (no more games than unknowns, a singular design, or a score that is not finite).
 */
export function fitGames(candidates: readonly Evaluated[], center: readonly number[], c: number): RegressionFit | null {
  const p = center.length + 1;
  const xtx = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  const xty = new Array<number>(p).fill(0);
  const rows: { x: number[]; y: number }[] = [];
  for (const cand of candidates) {
    const x = [1, ...cand.genome.map((g, k) => (g - center[k]) / c)];
    for (const y of cand.scores) {
      if (!Number.isFinite(y)) return null;
      rows.push({ x, y });
      for (let i = 0; i < p; i++) {
        xty[i] += x[i] * y;
        for (let j = 0; j < p; j++) xtx[i][j] += x[i] * x[j];
      }
    }
  }
  if (rows.length <= p) return null;
  // (XᵀX)⁻¹ from one decomposition: it gives the coefficients and their standard errors.
  const inv = luOf(xtx)?.solve(Matrix.eye(p)).to2DArray();
  if (!inv || !inv.every((row) => row.every(Number.isFinite))) return null;
  const beta = inv.map((row) => row.reduce((s, v, j) => s + v * xty[j], 0));
  const rss = rows.reduce((s, { x, y }) => s + (y - x.reduce((t, v, i) => t + v * beta[i], 0)) ** 2, 0);
  const s2 = rss / (rows.length - p);
  const se = inv.map((row, i) => Math.sqrt(Math.max(0, s2 * row[i])));
  const slopes = beta.slice(1);
  const slopeSes = se.slice(1);
  const chi2 = slopes.reduce((s, g, k) => s + (slopeSes[k] > 0 ? (g / slopeSes[k]) ** 2 : 0), 0);
  return { intercept: beta[0], interceptSe: se[0], slopes, slopeSes, chi2, games: rows.length };
}

/** The 95 % point of Σ z² under no slope (a normal approximation of χ²_n). */
export function noSlopeBound(n: number): number {
  return n + 2 * Math.sqrt(2 * n);
}

/** Sylvester's Hadamard matrix of order m (a power of two): ±1 entries, orthogonal rows. */
export function hadamard(m: number): number[][] {
  let h = [[1]];
  while (h.length < m) h = [...h.map((row) => [...row, ...row]), ...h.map((row) => [...row, ...row.map((x) => -x)])];
  return h;
}

/**
 * `count` sign vectors of length n: the rows of a Hadamard matrix of order ≥ n, in blocks, each block with
 * its columns' signs flipped at random and its rows shuffled. Any n consecutive rows of a block are not
 * needed: a whole block (count ≥ its order, a multiple when possible) is orthogonal.
 */
export function signDesign(n: number, count: number, rng: () => number): number[][] {
  let m = 1;
  while (m < n) m *= 2;
  const h = hadamard(m);
  const out: number[][] = [];
  while (out.length < count) {
    const flips = Array.from({ length: n }, () => (rng() < 0.5 ? -1 : 1));
    const order = h.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) if (out.length < count) out.push(flips.map((f, k) => f * h[i][k]));
  }
  return out;
}

export function createRegression(cfg: RegressionConfig): Optimizer {
  function generation(state: RegressionState, rng: () => number): Generation {
    const n = state.center.length;
    // At least one whole Hadamard block of pairs, so every slope can be fitted.
    let block = 1;
    while (block < n) block *= 2;
    const pairs = Math.max(block, Math.floor(cfg.population / 2));
    const candidates: Proposal[] = [{ genome: [...state.center], origin: 'mean', parents: [] }];
    for (const signs of signDesign(n, pairs, rng)) {
      for (const side of [1, -1]) candidates.push({ genome: state.center.map((x, k) => reflect(x + side * state.c * signs[k])), origin: 'probe', parents: [] });
    }
    return { candidates, state };
  }

  return {
    initial(start, rng): Generation {
      return generation({ center: [...start], c: cfg.perturbation, radius: cfg.radius, games: cfg.games, direction: null, fit: null, decision: 'start' }, rng);
    },

    next(previous, previousState, rng): Generation {
      const s = previousState as RegressionState;
      const fit = fitGames(previous, s.center, s.c);
      const measureBetter = (): Generation =>
        generation({ ...s, games: Math.min(cfg.maxGames, Math.ceil(s.games * 1.5)), fit, decision: 'stay' }, rng);
      if (!fit) return measureBetter();
      const norm = Math.sqrt(fit.slopes.reduce((t, g) => t + g * g, 0));
      if (!(fit.chi2 > noSlopeBound(fit.slopes.length) && norm > 0)) return measureBetter();
      const direction = fit.slopes.map((g) => g / norm);
      let radius = s.radius;
      if (s.direction) {
        const turn = direction.reduce((t, d, k) => t + d * s.direction![k], 0);
        if (turn < 0) radius = Math.max(cfg.minRadius, radius / 2);
        else if (turn > 0.5) radius = Math.min(cfg.maxRadius, radius * 1.2);
      }
      const center = s.center.map((x, k) => reflect(x + radius * direction[k]));
      return generation({ ...s, center, radius, direction, fit, decision: 'step' }, rng);
    },

    summary(state) {
      const s = state as RegressionState;
      return { stepSize: s.radius, games: s.games };
    },
  };
}
