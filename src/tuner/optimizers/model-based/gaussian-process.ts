/**
 * A Gaussian process over a tuning space's points, with the noise of each point known: the model of the
 * model-based optimizer (model-optimizer.ts). Every game feeds it: a point's observation is the mean of its
 * games, and its noise the measured noise of one game over how many it played, so four games at one point
 * and one game at each of four nearby points inform the model alike, and a point is never ranked by its own
 * few games alone.
 *
 *   f ~ GP(μ, α²·k),  k: Matérn 5/2 with a length per dimension (ARD),  y_i = f(x_i) + ε_i,  ε_i ~ N(0, v_i)
 *
 * μ is a constant estimated with the rest (generalised least squares, its uncertainty carried into every
 * prediction: universal kriging, Rasmussen & Williams eq. 2.42); α and the lengths maximise the restricted
 * likelihood (the one that universal kriging's prediction goes with: the constant integrated out, not plugged in)
 * times weak log-normal priors (a length near the space's width, an amplitude near the spread of the
 * observations), by BFGS on their logarithms from a warm start, its gradient projected at the bounds. The
 * linear algebra is written here on Float64Arrays (a Cholesky factorisation, triangular solves, the inverse from
 * the factor), the one exception to ml-matrix in src/tuner: a fit factorises and inverts the covariance of up to
 * a few hundred points some tens of times each generation, and ml-matrix's factorisation measured 2.0× slower,
 * its inverse (by solve) 19× slower at 400 points.
 */

/** What the model is fitted to: points in [0, 1]^d, each with its observation and that observation's noise variance. */
export interface GpData {
  x: readonly (readonly number[])[];
  y: readonly number[];
  /** The variance of each y (a game's noise variance over the games averaged), > 0. */
  noise: readonly number[];
}

/** The hyperparameters, as logarithms: the amplitude α and one length per dimension (in units of the normalised space). */
export interface GpHyper {
  logAmplitude: number;
  logLengths: number[];
}

export interface GpPrediction {
  mean: number[];
  /** Standard deviations of the latent mean (not of a game). */
  sd: number[];
}

export interface GaussianProcess {
  readonly hyper: GpHyper;
  /** The constant mean μ (its GLS estimate). */
  readonly constant: number;
  /** The log marginal likelihood (plus the priors) at the fitted hyperparameters. */
  readonly logPosterior: number;
  predict(xs: readonly (readonly number[])[]): GpPrediction;
  /** The latent mean's posterior at xs jointly: means and the covariance matrix (row-major, xs.length²). */
  joint(xs: readonly (readonly number[])[]): { mean: number[]; cov: Float64Array };
  /** f(a) − f(b): its posterior mean and standard deviation. */
  difference(a: readonly number[], b: readonly number[]): { mean: number; sd: number };
  /**
   * `draws` joint samples of the latent mean at xs (Thompson sampling): each a vector over xs. `normal` gives
   * standard normal draws (a seeded stream, so a run proposes the same on every resume). `fallback`: the joint
   * covariance did not factorise even with jitter, and every draw is the posterior mean (the caller records it).
   */
  sample(xs: readonly (readonly number[])[], draws: number, normal: () => number): { draws: number[][]; fallback: boolean };
}

/** The length a dimension starts from and its prior's centre, in units of the normalised space. */
const LENGTH_PRIOR_CENTRE = Math.log(0.5);
/** The priors' width in log units (weak: e^±1.5 is a factor 4.5 either way per sd). */
const LENGTH_PRIOR_SD = 1.5;
const AMPLITUDE_PRIOR_SD = 1.5;
/** Lengths are kept within [e^-4, e^3] ≈ [0.018, 20]: past 20 a dimension is flat, below 0.018 every point is alone. */
const LOG_LENGTH_MIN = -4;
const LOG_LENGTH_MAX = 3;
/** Added to the diagonal (relative to α²) so the factorisation stays well defined when points coincide. */
const JITTER = 1e-8;
const SQRT5 = Math.sqrt(5);

/** Matérn 5/2 at scaled distance r: (1 + √5 r + 5/3 r²) e^{−√5 r}. */
function matern52(r: number): number {
  const s = SQRT5 * r;
  return (1 + s + (s * s) / 3) * Math.exp(-s);
}

/** In-place Cholesky of a symmetric positive-definite n×n matrix (row-major, lower triangle written); false if not PD. */
export function cholesky(a: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0)) return false;
    const l = Math.sqrt(d);
    a[j * n + j] = l;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / l;
    }
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) a[i * n + j] = 0;
  return true;
}

/** Solves L z = b (L lower triangular, row-major n×n). */
function forward(l: Float64Array, n: number, b: Float64Array): Float64Array {
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * n + k] * z[k];
    z[i] = s / l[i * n + i];
  }
  return z;
}

/** Solves Lᵀ z = b. */
function backward(l: Float64Array, n: number, b: Float64Array): Float64Array {
  const z = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < n; k++) s -= l[k * n + i] * z[k];
    z[i] = s / l[i * n + i];
  }
  return z;
}

/** K⁻¹ from its Cholesky factor (row-major, full). */
function inverseFromCholesky(l: Float64Array, n: number): Float64Array {
  // L⁻¹ by columns, then K⁻¹ = L⁻ᵀ L⁻¹.
  const li = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    li[j * n + j] = 1 / l[j * n + j];
    for (let i = j + 1; i < n; i++) {
      let s = 0;
      for (let k = j; k < i; k++) s -= l[i * n + k] * li[k * n + j];
      li[i * n + j] = s / l[i * n + i];
    }
  }
  const inv = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = i; k < n; k++) s += li[k * n + i] * li[k * n + j];
      inv[i * n + j] = s;
      inv[j * n + i] = s;
    }
  }
  return inv;
}

/** Scaled squared distance between two points under the lengths. */
function scaledDistance(a: readonly number[], b: readonly number[], inverseLengths: readonly number[]): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) {
    const d = (a[k] - b[k]) * inverseLengths[k];
    s += d * d;
  }
  return Math.sqrt(s);
}

interface Evaluation {
  /** The log posterior (marginal likelihood times the priors), or −∞ where K is not positive definite. */
  value: number;
  gradient: number[];
}

/** What the fit needs of the data, prepared once. */
interface Prepared {
  n: number;
  d: number;
  x: readonly (readonly number[])[];
  y: Float64Array;
  noise: Float64Array;
  /** Squared coordinate differences per pair and dimension: diff2[(i·n + j)·d + k]. */
  diff2: Float64Array;
  /** The amplitude prior's centre (log of the observations' spread). */
  amplitudeCentre: number;
}

function prepare(data: GpData): Prepared {
  const n = data.y.length;
  const d = data.x[0].length;
  const diff2 = new Float64Array(n * n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      for (let k = 0; k < d; k++) {
        const v = (data.x[i][k] - data.x[j][k]) ** 2;
        diff2[(i * n + j) * d + k] = v;
        diff2[(j * n + i) * d + k] = v;
      }
    }
  }
  const y = Float64Array.from(data.y);
  const m = y.reduce((s, v) => s + v, 0) / n;
  const spread = Math.sqrt(y.reduce((s, v) => s + (v - m) ** 2, 0) / Math.max(1, n - 1));
  const meanNoise = Math.sqrt(data.noise.reduce((s, v) => s + v, 0) / n);
  // The function's spread: what the observations vary by beyond their noise, at least a tenth of the noise itself.
  const signal = Math.sqrt(Math.max(spread * spread - meanNoise * meanNoise, 0.01 * meanNoise * meanNoise));
  return { n, d, x: data.x, y, noise: Float64Array.from(data.noise), diff2, amplitudeCentre: Math.log(Math.max(signal, 1e-12)) };
}

/** The covariance K = α²·C + diag(noise) (+ jitter) and the kernel's pieces reused by the gradient. */
function covariance(p: Prepared, h: GpHyper): { k: Float64Array; r: Float64Array } {
  const { n, d, diff2, noise } = p;
  const amp2 = Math.exp(2 * h.logAmplitude);
  const inv2 = h.logLengths.map((l) => Math.exp(-2 * l));
  const k = new Float64Array(n * n);
  const r = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    k[i * n + i] = amp2 * (1 + JITTER) + noise[i];
    for (let j = 0; j < i; j++) {
      let s = 0;
      const base = (i * n + j) * d;
      for (let q = 0; q < d; q++) s += diff2[base + q] * inv2[q];
      const dist = Math.sqrt(s);
      const v = amp2 * matern52(dist);
      k[i * n + j] = v;
      k[j * n + i] = v;
      r[i * n + j] = dist;
      r[j * n + i] = dist;
    }
  }
  return { k, r };
}

/** The generalised least squares constant and the residuals' weights a = K⁻¹(y − μ1), from K's factor. */
function glsMean(l: Float64Array, n: number, y: Float64Array): { mu: number; a: Float64Array; oneKinvOne: number; kinv1: Float64Array } {
  const ones = new Float64Array(n).fill(1);
  const kinv1 = backward(l, n, forward(l, n, ones));
  const kinvy = backward(l, n, forward(l, n, y));
  let oneKinvOne = 0;
  let oneKinvY = 0;
  for (let i = 0; i < n; i++) {
    oneKinvOne += kinv1[i];
    oneKinvY += kinvy[i];
  }
  const mu = oneKinvY / oneKinvOne;
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = kinvy[i] - mu * kinv1[i];
  return { mu, a, oneKinvOne, kinv1 };
}

/** The log posterior of the hyperparameters and its gradient (in the order logAmplitude, logLengths…). */
function evaluate(p: Prepared, h: GpHyper): Evaluation {
  const { n, d, diff2, y } = p;
  const { k, r } = covariance(p, h);
  const l = Float64Array.from(k);
  if (!cholesky(l, n)) return { value: -Infinity, gradient: new Array(d + 1).fill(0) };
  const { mu, a, oneKinvOne, kinv1 } = glsMean(l, n, y);
  let quad = 0;
  let logDet = 0;
  for (let i = 0; i < n; i++) {
    quad += (y[i] - mu) * a[i];
    logDet += 2 * Math.log(l[i * n + i]);
  }
  const priorL = h.logLengths.reduce((s, v) => s - 0.5 * ((v - LENGTH_PRIOR_CENTRE) / LENGTH_PRIOR_SD) ** 2, 0);
  const priorA = -0.5 * ((h.logAmplitude - p.amplitudeCentre) / AMPLITUDE_PRIOR_SD) ** 2;
  // The restricted likelihood: the profile one less ½ log(1ᵀK⁻¹1), the constant's own uncertainty (REML).
  const value = -0.5 * quad - 0.5 * logDet - 0.5 * Math.log(oneKinvOne) - 0.5 * (n - 1) * Math.log(2 * Math.PI) + priorL + priorA;
  // ∂/∂θ = ½ tr((aaᵀ − P) ∂K/∂θ), P = K⁻¹ − K⁻¹11ᵀK⁻¹ / 1ᵀK⁻¹1 (the GLS constant sits at its optimum, so it drops out).
  const kinv = inverseFromCholesky(l, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) kinv[i * n + j] -= (kinv1[i] * kinv1[j]) / oneKinvOne;
  const amp2 = Math.exp(2 * h.logAmplitude);
  const inv2 = h.logLengths.map((v) => Math.exp(-2 * v));
  const gradient = new Array<number>(d + 1).fill(0);
  for (let i = 0; i < n; i++) {
    // Diagonal: ∂K_ii/∂logα = 2α²; the lengths leave it alone.
    gradient[0] += 0.5 * (a[i] * a[i] - kinv[i * n + i]) * 2 * amp2;
    for (let j = 0; j < i; j++) {
      const w = a[i] * a[j] - kinv[i * n + j]; // counted twice (ij and ji)
      const dist = r[i * n + j];
      gradient[0] += w * 2 * k[i * n + j];
      // ∂k/∂logℓ_q = α² (5/3)(1 + √5 r) e^{−√5 r} · Δ_q² / ℓ_q².
      const common = w * amp2 * (5 / 3) * (1 + SQRT5 * dist) * Math.exp(-SQRT5 * dist);
      const base = (i * n + j) * d;
      for (let q = 0; q < d; q++) gradient[q + 1] += common * diff2[base + q] * inv2[q];
    }
  }
  gradient[0] -= (h.logAmplitude - p.amplitudeCentre) / AMPLITUDE_PRIOR_SD ** 2;
  for (let q = 0; q < d; q++) gradient[q + 1] -= (h.logLengths[q] - LENGTH_PRIOR_CENTRE) / LENGTH_PRIOR_SD ** 2;
  return { value, gradient };
}

/** The log posterior of hyperparameters on some data (the restricted likelihood times the priors), and its gradient (logAmplitude first): what the fit maximises, for checks. */
export function gpLogPosterior(data: GpData, hyper: GpHyper): { value: number; gradient: number[] } {
  return evaluate(prepare(data), hyper);
}

function toVector(h: GpHyper): number[] {
  return [h.logAmplitude, ...h.logLengths];
}

/** The box the hyperparameters stay in: the amplitude within e^-8…e^6 of its prior's centre, the lengths within LOG_LENGTH_MIN…MAX. */
function boundsOf(d: number, centre: number): { lo: number[]; hi: number[] } {
  return { lo: [centre - 8, ...new Array(d).fill(LOG_LENGTH_MIN)], hi: [centre + 6, ...new Array(d).fill(LOG_LENGTH_MAX)] };
}

function fromVector(v: readonly number[]): GpHyper {
  return { logAmplitude: v[0], logLengths: v.slice(1) };
}

/**
 * Projected BFGS on the log posterior (maximised), from `start`, within the bounds; at most `iterations` steps.
 * A coordinate at a bound whose gradient pushes out of the box is held there (its gradient and direction set to
 * 0, the inverse Hessian's estimate kept to the free ones), so the search moves along the face instead of
 * clamping steps that point out of it. Deterministic: the same data and start give the same hyperparameters on
 * every machine.
 */
function maximise(p: Prepared, start: GpHyper, iterations: number): { hyper: GpHyper; value: number } {
  const dim = p.d + 1;
  const { lo, hi } = boundsOf(p.d, p.amplitudeCentre);
  const project = (v: readonly number[]) => v.map((x, j) => Math.min(hi[j], Math.max(lo[j], x)));
  let x = project(toVector(start));
  let cur = evaluate(p, fromVector(x));
  if (!Number.isFinite(cur.value)) return { hyper: fromVector(x), value: cur.value };
  const identity = () => Array.from({ length: dim }, (_, i) => Array.from({ length: dim }, (_, j) => (i === j ? 0.1 : 0)));
  // The inverse Hessian's estimate (of the negated objective), starting as a small identity.
  let hInv: number[][] = identity();
  for (let it = 0; it < iterations; it++) {
    const g = cur.gradient.map((v) => -v); // gradient of the negated objective
    // Held: at a bound, with descent (−g) pointing out of the box.
    const held = g.map((gj, j) => (x[j] <= lo[j] && gj > 0) || (x[j] >= hi[j] && gj < 0));
    const pg = g.map((gj, j) => (held[j] ? 0 : gj));
    if (Math.max(...pg.map(Math.abs)) < 1e-8) break;
    const dir = hInv.map((row, i) => (held[i] ? 0 : -row.reduce((s, v, j) => s + (held[j] ? 0 : v * pg[j]), 0)));
    let slope = dir.reduce((s, v, j) => s + v * pg[j], 0);
    if (!(slope < 0)) {
      // Not a descent direction: start again from steepest descent.
      hInv = identity();
      for (let j = 0; j < dim; j++) dir[j] = -0.1 * pg[j];
      slope = dir.reduce((s, v, j) => s + v * pg[j], 0);
    }
    // Armijo backtracking along the projected path, steps capped at 2 log units a coordinate.
    const biggest = Math.max(...dir.map(Math.abs));
    let step = biggest > 2 ? 2 / biggest : 1;
    let next: Evaluation | null = null;
    let nx: number[] = x;
    for (let bt = 0; bt < 30; bt++) {
      nx = project(x.map((v, j) => v + step * dir[j]));
      const e = evaluate(p, fromVector(nx));
      // Armijo's condition on the negated objective, by the projected step's first-order gain.
      const gain = nx.reduce((acc, v, j) => acc + (v - x[j]) * pg[j], 0);
      if (Number.isFinite(e.value) && e.value >= cur.value - 1e-4 * gain) {
        next = e;
        break;
      }
      step *= 0.5;
    }
    if (!next) break;
    const s = nx.map((v, j) => v - x[j]);
    const yv = next.gradient.map((v, j) => -v - g[j]);
    const improvement = next.value - cur.value;
    x = nx;
    cur = next;
    if (Math.max(...s.map(Math.abs)) < 1e-4 || improvement < 1e-7) break;
    // BFGS update of the inverse Hessian on the free coordinates (a held one's curvature is not learned through the wall).
    const free = s.map((_, j) => !held[j] && x[j] > lo[j] && x[j] < hi[j]);
    const sf = s.map((v, j) => (free[j] ? v : 0));
    const yf = yv.map((v, j) => (free[j] ? v : 0));
    const sy = sf.reduce((acc, v, j) => acc + v * yf[j], 0);
    if (sy > 1e-12) {
      const hy = hInv.map((row) => row.reduce((acc, v, j) => acc + v * yf[j], 0));
      const yhy = yf.reduce((acc, v, j) => acc + v * hy[j], 0);
      hInv = hInv.map((row, i) => row.map((v, j) => v + ((sy + yhy) * sf[i] * sf[j]) / (sy * sy) - (hy[i] * sf[j] + sf[i] * hy[j]) / sy));
    }
  }
  return { hyper: fromVector(x), value: cur.value };
}

/** The hyperparameters a fit starts from without a warm start: every length 0.5, the amplitude at its prior's centre. */
function defaultHyper(p: Prepared): GpHyper {
  return { logAmplitude: p.amplitudeCentre, logLengths: new Array(p.d).fill(LENGTH_PRIOR_CENTRE) };
}

export interface GpFitOptions {
  /** The last fit's hyperparameters, to start from (and to keep when the data do not move them). */
  warm?: GpHyper;
  /** BFGS steps at most (default 40). */
  iterations?: number;
}

/**
 * Fits the process to the data; null when it cannot be fitted (fewer than 2 points, a non-finite value,
 * noise that is not positive, or no positive-definite covariance).
 */
export function fitGaussianProcess(data: GpData, options: GpFitOptions = {}): GaussianProcess | null {
  const n = data.y.length;
  if (n < 2 || data.x.length !== n || data.noise.length !== n) return null;
  if (data.y.some((v) => !Number.isFinite(v)) || data.noise.some((v) => !(v > 0) || !Number.isFinite(v))) return null;
  if (data.x.some((p) => p.length !== data.x[0].length || p.some((v) => !Number.isFinite(v)))) return null;
  const p = prepare(data);
  // From the warm start and from the default, the better of the two: a warm start alone can stay in a poor
  // optimum found on fewer points; the default alone would forget what many generations learned.
  const starts = options.warm && options.warm.logLengths.length === p.d ? [options.warm, defaultHyper(p)] : [defaultHyper(p)];
  let best: { hyper: GpHyper; value: number } | null = null;
  for (const s of starts) {
    const r = maximise(p, s, options.iterations ?? 40);
    if (Number.isFinite(r.value) && (!best || r.value > best.value)) best = r;
  }
  if (!best) return null;
  return posterior(p, best.hyper, best.value);
}

/** The process at given hyperparameters, not fitted (for checks against a reference); null when its covariance is not positive definite. */
export function gaussianProcessAt(data: GpData, hyper: GpHyper): GaussianProcess | null {
  const p = prepare(data);
  return posterior(p, hyper, evaluate(p, hyper).value);
}

/** The posterior at fixed hyperparameters. */
function posterior(p: Prepared, hyper: GpHyper, logPosterior: number): GaussianProcess | null {
  const { n, x, y } = p;
  const { k } = covariance(p, hyper);
  const l = Float64Array.from(k);
  if (!cholesky(l, n)) return null;
  const { mu, a, oneKinvOne } = glsMean(l, n, y);
  const ones = new Float64Array(n).fill(1);
  const kinv1 = backward(l, n, forward(l, n, ones));
  const amp2 = Math.exp(2 * hyper.logAmplitude);
  const inverseLengths = hyper.logLengths.map((v) => Math.exp(-v));

  /** For each query point: k* (its covariances with the data), v = L⁻¹k*, and R = 1 − 1ᵀK⁻¹k* (the constant's share). */
  function cross(xs: readonly (readonly number[])[]): { ks: Float64Array[]; vs: Float64Array[]; rs: number[] } {
    const ks: Float64Array[] = [];
    const vs: Float64Array[] = [];
    const rs: number[] = [];
    for (const q of xs) {
      const ksq = new Float64Array(n);
      for (let i = 0; i < n; i++) ksq[i] = amp2 * matern52(scaledDistance(q, x[i], inverseLengths));
      ks.push(ksq);
      vs.push(forward(l, n, ksq));
      let r = 1;
      for (let i = 0; i < n; i++) r -= kinv1[i] * ksq[i];
      rs.push(r);
    }
    return { ks, vs, rs };
  }

  function predict(xs: readonly (readonly number[])[]): GpPrediction {
    const { ks, vs, rs } = cross(xs);
    const mean: number[] = [];
    const sd: number[] = [];
    for (let c = 0; c < xs.length; c++) {
      let m = mu;
      let vv = 0;
      for (let i = 0; i < n; i++) {
        m += ks[c][i] * a[i];
        vv += vs[c][i] * vs[c][i];
      }
      mean.push(m);
      sd.push(Math.sqrt(Math.max(0, amp2 - vv + (rs[c] * rs[c]) / oneKinvOne)));
    }
    return { mean, sd };
  }

  function joint(xs: readonly (readonly number[])[]): { mean: number[]; cov: Float64Array } {
    const m = xs.length;
    const { mean } = predict(xs);
    const { vs, rs } = cross(xs);
    // The joint covariance: K** − VᵀV + R Rᵀ / (1ᵀK⁻¹1).
    const cov = new Float64Array(m * m);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j <= i; j++) {
        let v = amp2 * matern52(scaledDistance(xs[i], xs[j], inverseLengths));
        const vi = vs[i];
        const vj = vs[j];
        for (let t = 0; t < n; t++) v -= vi[t] * vj[t];
        v += (rs[i] * rs[j]) / oneKinvOne;
        cov[i * m + j] = v;
        cov[j * m + i] = v;
      }
    }
    return { mean, cov };
  }

  function difference(a: readonly number[], b: readonly number[]): { mean: number; sd: number } {
    const { mean, cov } = joint([a, b]);
    return { mean: mean[0] - mean[1], sd: Math.sqrt(Math.max(0, cov[0] + cov[3] - 2 * cov[1])) };
  }

  function sample(xs: readonly (readonly number[])[], draws: number, normal: () => number): { draws: number[][]; fallback: boolean } {
    const m = xs.length;
    const { mean, cov } = joint(xs);
    // Jitter grows until the factorisation holds (candidate points may coincide).
    let factor: Float64Array | null = null;
    for (let jitter = 1e-9 * amp2; jitter < amp2; jitter *= 10) {
      const c = Float64Array.from(cov);
      for (let i = 0; i < m; i++) c[i * m + i] += jitter;
      if (cholesky(c, m)) {
        factor = c;
        break;
      }
    }
    const out: number[][] = [];
    for (let s = 0; s < draws; s++) {
      const z = Array.from({ length: m }, () => normal());
      const f = mean.slice();
      if (factor) for (let i = 0; i < m; i++) for (let j = 0; j <= i; j++) f[i] += factor[i * m + j] * z[j];
      out.push(f);
    }
    return { draws: out, fallback: factor === null };
  }

  return { hyper, constant: mu, logPosterior, predict, joint, difference, sample };
}
