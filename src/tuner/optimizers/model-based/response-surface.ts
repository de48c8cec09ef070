/**
 * A quadratic response surface fitted to noisy observations, and where it is highest within a ball: the
 * model of the surrogate optimizer (surrogate.ts). Linear algebra (Cholesky, eigen-decomposition) is
 * ml-matrix's; what is written here is the model, which no library offers in this form: a weighted
 * Bayesian ridge regression whose prior holds only the curvature terms to zero (so a few games give a
 * plain slope, many games a full quadratic), with the noise of a game known from the games themselves.
 *
 *   q(x) = a + gᵀx + ½ xᵀHx,    x in units of the sampling radius around the current point.
 */
import { CholeskyDecomposition, EigenvalueDecomposition, Matrix } from 'ml-matrix';

/** One weight set's games: its point, how many games, their mean, and the weight the fit gives it (0–1). */
export interface SurfacePoint {
  x: readonly number[];
  games: number;
  mean: number;
  weight: number;
}

export interface QuadraticModel {
  n: number;
  /** a, g and H (symmetric), the posterior means. */
  intercept: number;
  gradient: number[];
  hessian: number[][];
  /** The coefficients' posterior covariance, in feature order (see features()). */
  covariance: number[][];
  /** Σ weight · games: the games the fit stands on. */
  games: number;
  /** The residual variance of the points' means over what the noise alone explains (≥ 1 inflates the covariance). */
  lackOfFit: number;
  /** What the weighted residual sum of squares would be from the noise alone (its expectation): lackOfFit's degrees of freedom. */
  residualDof: number;
}

/** How many coefficients a quadratic in n variables has. */
export function quadraticSize(n: number): number {
  return 1 + n + (n * (n + 1)) / 2;
}

/** The features of x: 1, x_k, then ½x_k² on the diagonal and x_i·x_j above it (so the coefficients are H's entries). */
export function features(x: readonly number[]): number[] {
  const n = x.length;
  const f = [1, ...x];
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) f.push(i === j ? 0.5 * x[i] * x[i] : x[i] * x[j]);
  return f;
}

/**
 * The posterior of the coefficients given the points (each mean's variance: noiseVar / games), a flat
 * prior on a and g and N(0, curvaturePriorSd²) on H's entries. Null when the points cannot pin a and g
 * (fewer independent points than n + 1, or a non-finite input).
 */
export function fitQuadratic(points: readonly SurfacePoint[], n: number, noiseVar: number, curvaturePriorSd: number): QuadraticModel | null {
  const p = quadraticSize(n);
  if (!(noiseVar > 0) || !(curvaturePriorSd > 0) || points.length === 0) return null;
  if (points.some((pt) => !Number.isFinite(pt.mean) || pt.x.some((v) => !Number.isFinite(v)))) return null;
  const offset = points.reduce((s, pt) => s + pt.mean, 0) / points.length; // centred for round-off
  const acc = new Float64Array(p * p); // XᵀWX, upper triangle (a plain array: this loop is the fit's cost)
  const accW = new Float64Array(p * p); // Σ weight · wᵢ fᵢfᵢᵀ, for the residuals' expectation below
  const b = new Array<number>(p).fill(0);
  const rows = points.map((pt) => features(pt.x));
  points.forEach((pt, r) => {
    const w = (pt.weight * pt.games) / noiseVar;
    if (w <= 0) return;
    const f = rows[r];
    const y = pt.mean - offset;
    for (let i = 0; i < p; i++) {
      if (f[i] === 0) continue;
      const wf = w * f[i];
      b[i] += wf * y;
      for (let j = i; j < p; j++) {
        acc[i * p + j] += wf * f[j];
        accW[i * p + j] += pt.weight * wf * f[j];
      }
    }
  });
  const data = symmetric(acc, p); // XᵀWX before the prior
  for (let i = 1 + n; i < p; i++) acc[i * p + i] += 1 / curvaturePriorSd ** 2;
  // A flat prior on a and g: an identifiability check, not a penalty (1e-12 of the diagonal's scale).
  let scale = 0;
  for (let i = 0; i < p; i++) scale = Math.max(scale, acc[i * p + i]);
  if (!(scale > 0) || !Number.isFinite(scale)) return null;
  for (let i = 0; i <= n; i++) acc[i * p + i] += 1e-12 * scale;
  const a = symmetric(acc, p);
  const chol = new CholeskyDecomposition(a);
  if (!chol.isPositiveDefinite()) return null;
  const beta = chol.solve(Matrix.columnVector(b)).getColumn(0);
  if (beta.some((v) => !Number.isFinite(v))) return null;
  // Conditioning: a and g must be pinned by the data, not by the 1e-12 jitter.
  const cov = chol.solve(Matrix.eye(p));
  for (let i = 0; i <= n; i++) if (!(cov.get(i, i) * 1e-12 * scale < 1e-3)) return null;
  // How far the means sit from the surface, against what their noise alone allows.
  let chi2 = 0;
  let effective = 0;
  let games = 0;
  points.forEach((pt, r) => {
    const fit = rows[r].reduce((s, f, i) => s + f * beta[i], 0);
    chi2 += (pt.weight * pt.games * (pt.mean - offset - fit) ** 2) / noiseVar;
    effective += pt.weight;
    games += pt.weight * pt.games;
  });
  // The noise alone would leave E[χ²] = Σw − 2 tr(A⁻¹B) + tr(A⁻¹BA⁻¹C) (A = XᵀWX + prior, C = XᵀWX,
  // B = Xᵀ W diag(w) X: each mean's real variance is noise/games, the fit gives it weight w·games/noise).
  // Σw − p holds only for weights all 1 and no prior; with points weighted by nearness and few games per
  // coefficient it understates E[χ²] by up to half (1,000 depth-3 games in 10 weights read a lack of fit
  // of 1.5–3 where a plain least-squares fit of the same points read 0.99).
  const aInvB = cov.mmul(symmetric(accW, p));
  const residualDof = Math.max(1, effective - 2 * aInvB.trace() + aInvB.mmul(cov).mmul(data).trace());
  const lackOfFit = chi2 / residualDof;
  const inflate = Math.max(1, lackOfFit);
  const hessian = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  let k = 1 + n;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++, k++) hessian[i][j] = hessian[j][i] = beta[k];
  return {
    n,
    intercept: beta[0] + offset,
    gradient: beta.slice(1, 1 + n),
    hessian,
    covariance: cov.mul(inflate).to2DArray(),
    games,
    lackOfFit,
    residualDof,
  };
}

/** A p×p matrix from the upper triangle of a row-major array. */
function symmetric(upper: Float64Array, p: number): Matrix {
  const m = Matrix.from1DArray(p, p, upper);
  for (let i = 0; i < p; i++) for (let j = 0; j < i; j++) m.set(i, j, upper[j * p + i]);
  return m;
}

/** q(x). */
export function predict(m: QuadraticModel, x: readonly number[]): number {
  let v = m.intercept;
  for (let i = 0; i < m.n; i++) {
    v += m.gradient[i] * x[i];
    for (let j = 0; j < m.n; j++) v += 0.5 * x[i] * m.hessian[i][j] * x[j];
  }
  return v;
}

/** φᵀ Cov φ: the variance of a linear combination φ of the coefficients. */
function variance(m: QuadraticModel, d: readonly number[]): number {
  let v = 0;
  for (let i = 0; i < d.length; i++) {
    if (d[i] === 0) continue;
    for (let j = 0; j < d.length; j++) v += d[i] * m.covariance[i][j] * d[j];
  }
  return Math.max(0, v);
}

/** q(x) and its standard error. */
export function predictValue(m: QuadraticModel, x: readonly number[]): { value: number; se: number } {
  return { value: predict(m, x), se: Math.sqrt(variance(m, features(x))) };
}

/** q(to) − q(from) and its standard error. */
export function predictedDifference(m: QuadraticModel, to: readonly number[], from: readonly number[]): { value: number; se: number } {
  const f = features(from);
  return { value: predict(m, to) - predict(m, from), se: Math.sqrt(variance(m, features(to).map((v, i) => v - f[i]))) };
}

/**
 * The highest point of q within ‖x‖ ≤ radius (the trust-region subproblem), as a function of the radius:
 * the Newton point when H is negative definite and it lies inside, else on the sphere,
 * x(μ) = (μI − H)⁻¹g with μ > max(0, λmax(H)) found by bisection on ‖x(μ)‖ = radius (in H's eigenbasis,
 * decomposed once, so each try is a division per coordinate). `concave`: the same for q with H's positive
 * eigenvalues set to 0 (no step chosen for an upward curvature, which noise alone makes up).
 */
export function ballMaximizer(m: QuadraticModel, options: { concave?: boolean } = {}): (radius: number) => number[] {
  const n = m.n;
  const evd = new EigenvalueDecomposition(new Matrix(m.hessian), { assumeSymmetric: true });
  // concave: of q with its upward curvature left out (H's positive eigenvalues set to 0).
  const lambda = options.concave ? evd.realEigenvalues.map((l) => Math.min(l, 0)) : evd.realEigenvalues;
  const q = evd.eigenvectorMatrix.to2DArray();
  const gt = Array.from({ length: n }, (_, i) => m.gradient.reduce((s, g, k) => s + q[k][i] * g, 0));
  const step = (mu: number) => gt.map((g, i) => g / (mu - lambda[i]));
  const norm = (y: number[]) => Math.sqrt(y.reduce((s, v) => s + v * v, 0));
  const lmax = Math.max(...lambda);
  const gnorm = norm(gt);
  return (radius) => {
    let y: number[];
    if (gnorm === 0 || radius <= 0) {
      y = new Array<number>(n).fill(0);
    } else if (lmax < 0 && norm(step(0)) <= radius) {
      y = step(0);
    } else {
      // ‖x(μ)‖ falls from +∞ (μ → λmax⁺) to 0 (μ → ∞); at μ = max(0, λmax) + ‖g‖/radius it is ≤ radius.
      let lo = Math.max(0, lmax);
      let hi = lo + gnorm / radius;
      for (let it = 0; it < 200; it++) {
        const mid = 0.5 * (lo + hi);
        if (mid === lo || mid === hi) break;
        if (norm(step(mid)) > radius) lo = mid;
        else hi = mid;
      }
      y = step(hi);
    }
    return Array.from({ length: n }, (_, k) => y.reduce((s, v, i) => s + q[k][i] * v, 0));
  };
}

/** The highest point of q within ‖x‖ ≤ radius. */
export function maximizeInBall(m: QuadraticModel, radius: number): number[] {
  return ballMaximizer(m)(radius);
}
