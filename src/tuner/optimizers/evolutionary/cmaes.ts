/**
 * CMA-ES: the standard (μ/μ_w, λ) evolution strategy with rank-one and rank-μ
 * covariance updates and cumulative step-size adaptation (Hansen's tutorial,
 * "The CMA Evolution Strategy", 2016; the same equations as pycma's
 * purecma.py). Written for maximisation. The whole state is plain JSON, so a
 * run stored after any generation continues exactly.
 *
 * This file is the algorithm only (no bounds, no noise handling): `cmaAsk`
 * samples λ points, `cmaTell` updates the distribution from their fitness.
 */
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { gaussian } from '../operators';

export interface CmaState {
  n: number;
  lambda: number;
  mean: number[];
  sigma: number;
  /** Covariance matrix C. */
  C: number[][];
  /** Evolution paths for C and for σ. */
  pc: number[];
  ps: number[];
  /** Eigen-decomposition of C: C = B·diag(D²)·Bᵀ (D = standard deviations along B's columns). */
  B: number[][];
  D: number[];
  /** Generations told so far (for the h_σ correction). */
  iteration: number;
}

interface Params {
  mu: number;
  weights: number[];
  mueff: number;
  cc: number;
  cs: number;
  c1: number;
  cmu: number;
  damps: number;
  chiN: number;
}

export function defaultLambda(n: number): number {
  return 4 + Math.floor(3 * Math.log(n));
}

/** Strategy parameters, derived from n and λ (never stored). */
function params(n: number, lambda: number): Params {
  const mu = Math.floor(lambda / 2);
  const raw = Array.from({ length: mu }, (_, i) => Math.log(mu + 0.5) - Math.log(i + 1));
  const sum = raw.reduce((a, b) => a + b, 0);
  const weights = raw.map((w) => w / sum);
  const mueff = 1 / weights.reduce((a, w) => a + w * w, 0);
  const cc = (4 + mueff / n) / (n + 4 + (2 * mueff) / n);
  const cs = (mueff + 2) / (n + mueff + 5);
  const c1 = 2 / ((n + 1.3) ** 2 + mueff);
  const cmu = Math.min(1 - c1, (2 * (mueff - 2 + 1 / mueff)) / ((n + 2) ** 2 + mueff));
  const damps = 1 + 2 * Math.max(0, Math.sqrt((mueff - 1) / (n + 1)) - 1) + cs;
  const chiN = Math.sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));
  return { mu, weights, mueff, cc, cs, c1, cmu, damps, chiN };
}

const identity = (n: number): number[][] => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));

export function cmaInit(mean: readonly number[], sigma: number, lambda = defaultLambda(mean.length)): CmaState {
  const n = mean.length;
  return {
    n,
    lambda,
    mean: [...mean],
    sigma,
    C: identity(n),
    pc: new Array(n).fill(0),
    ps: new Array(n).fill(0),
    B: identity(n),
    D: new Array(n).fill(1),
    iteration: 0,
  };
}

/** λ samples x = m + σ·B·D·z, z ~ N(0, I). */
export function cmaAsk(state: CmaState, rng: () => number): number[][] {
  const { n, B, D, mean, sigma } = state;
  return Array.from({ length: state.lambda }, () => {
    const z = Array.from({ length: n }, () => gaussian(rng));
    return mean.map((m, i) => {
      let y = 0;
      for (let j = 0; j < n; j++) y += B[i][j] * D[j] * z[j];
      return m + sigma * y;
    });
  });
}

/** Updates the distribution from λ samples and their fitness (higher is better). */
export function cmaTell(state: CmaState, samples: readonly (readonly number[])[], fitness: readonly number[]): CmaState {
  const { n } = state;
  const p = params(n, samples.length);
  const order = fitness.map((f, i) => [f, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i);
  const old = state.mean;
  const mean = new Array(n).fill(0);
  for (let k = 0; k < p.mu; k++) for (let i = 0; i < n; i++) mean[i] += p.weights[k] * samples[order[k]][i];
  const y = mean.map((m, i) => (m - old[i]) / state.sigma);

  // C^(-1/2)·y = B·diag(1/D)·Bᵀ·y
  const bty = Array.from({ length: n }, (_, j) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += state.B[i][j] * y[i];
    return s / state.D[j];
  });
  const invSqrtCy = Array.from({ length: n }, (_, i) => {
    let s = 0;
    for (let j = 0; j < n; j++) s += state.B[i][j] * bty[j];
    return s;
  });
  const ps = state.ps.map((v, i) => (1 - p.cs) * v + Math.sqrt(p.cs * (2 - p.cs) * p.mueff) * invSqrtCy[i]);
  const psNorm = Math.hypot(...ps);
  const iteration = state.iteration + 1;
  const hsig = psNorm / Math.sqrt(1 - (1 - p.cs) ** (2 * iteration)) / p.chiN < 1.4 + 2 / (n + 1) ? 1 : 0;
  const pc = state.pc.map((v, i) => (1 - p.cc) * v + hsig * Math.sqrt(p.cc * (2 - p.cc) * p.mueff) * y[i]);

  const c1a = p.c1 * (1 - (1 - hsig * hsig) * p.cc * (2 - p.cc));
  const C = state.C.map((row, i) =>
    row.map((cij, j) => {
      let rankMu = 0;
      for (let k = 0; k < p.mu; k++) {
        const xk = samples[order[k]];
        rankMu += p.weights[k] * ((xk[i] - old[i]) / state.sigma) * ((xk[j] - old[j]) / state.sigma);
      }
      return (1 - c1a - p.cmu) * cij + p.c1 * pc[i] * pc[j] + p.cmu * rankMu;
    }),
  );
  // Keep C exactly symmetric against round-off.
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) C[i][j] = C[j][i] = (C[i][j] + C[j][i]) / 2;
  const sigma = state.sigma * Math.exp(Math.min(1, (p.cs / p.damps) * (psNorm / p.chiN - 1)));
  const { values, vectors } = symmetricEigen(C);
  return { ...state, mean, sigma, C, pc, ps, B: vectors, D: values.map((v) => Math.sqrt(Math.max(v, 1e-300))), iteration };
}

/** Condition number of C (ratio of its largest to smallest eigenvalue). */
export function conditionNumber(state: CmaState): number {
  const max = Math.max(...state.D);
  const min = Math.min(...state.D);
  return (max / min) ** 2;
}

/**
 * Eigen-decomposition of a symmetric matrix (ml-matrix's, the project's one linear-algebra library).
 * Returns eigenvalues and the eigenvectors as the columns of `vectors`.
 */
export function symmetricEigen(matrix: readonly (readonly number[])[]): { values: number[]; vectors: number[][] } {
  const e = new EigenvalueDecomposition(new Matrix(matrix.map((r) => [...r])), { assumeSymmetric: true });
  return { values: e.realEigenvalues, vectors: e.eigenvectorMatrix.to2DArray() };
}
