/**
 * A sequential probability ratio test on paired scores (fishtest's GSPRT,
 * `LLR_alt2` of server/fishtest/stats/LLRcalc.py, applied to per-seed
 * differences): after each batch of paired games it says "A is better by R1"
 * (H1), "A is not better than R0" (H0), or "keep playing".
 *
 * Hypotheses on the ratio of mean scores, mean(A) = R · mean(B), become
 * hypotheses on the mean paired difference d = (R − 1) · mean(B), with mean(B)
 * estimated from the games so far. With d̄ and σ² (the population variance)
 * of the N differences,
 *   LLR = N · (d1 − d0) · (2 d̄ − d0 − d1) / (2 σ²),
 * the log-likelihood ratio of two normal models of equal variance; the test
 * stops when it leaves (ln(β/(1−α)), ln((1−β)/α)).
 */

export interface SprtSettings {
  /** H0: mean(A) / mean(B) = ratio0 (e.g. 1: no better). */
  ratio0: number;
  /** H1: mean(A) / mean(B) = ratio1 (e.g. 1.1: 10 % better). */
  ratio1: number;
  /** Probability of accepting H1 when H0 holds. */
  alpha: number;
  /** Probability of accepting H0 when H1 holds. */
  beta: number;
}

export type SprtDecision = 'H1' | 'H0' | 'continue';

export interface SprtState {
  games: number;
  llr: number;
  lower: number;
  upper: number;
  decision: SprtDecision;
}

export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/** The GSPRT log-likelihood ratio of paired differences between d0 (H0) and d1 (H1). */
export function pairedLlr(diffs: readonly number[], d0: number, d1: number): number {
  const n = diffs.length;
  if (n < 2) return 0;
  let sum = 0;
  for (const d of diffs) sum += d;
  const mean = sum / n;
  let ss = 0;
  for (const d of diffs) ss += (d - mean) ** 2;
  const variance = ss / n;
  if (variance === 0) return mean > (d0 + d1) / 2 ? Infinity : mean < (d0 + d1) / 2 ? -Infinity : 0;
  return (n * (d1 - d0) * (2 * mean - d0 - d1)) / (2 * variance);
}

/** The test's state after the paired scores so far (a[i] and b[i] from the same seed). */
export function sprtStep(a: readonly number[], b: readonly number[], s: SprtSettings): SprtState {
  const { lower, upper } = sprtBounds(s.alpha, s.beta);
  const n = Math.min(a.length, b.length);
  let meanB = 0;
  for (let i = 0; i < n; i++) meanB += b[i];
  meanB /= Math.max(1, n);
  const diffs = Array.from({ length: n }, (_, i) => a[i] - b[i]);
  const llr = pairedLlr(diffs, (s.ratio0 - 1) * meanB, (s.ratio1 - 1) * meanB);
  return { games: n, llr, lower, upper, decision: llr >= upper ? 'H1' : llr <= lower ? 'H0' : 'continue' };
}
