/**
 * The synthetic player: whole games drawn from a known landscape with the noise this project measured, for
 * proving optimizers where it is cheap (tests, benches, optimizer races). It plays no moves; a game on a
 * seed is a draw that depends only on (its player, the seed), so it goes through every game runner (local
 * processes, Redis) as a real player does, and two weight sets' games on one seed are as uncorrelated as
 * real ones (docs/results/depth-3-stall.md: ~0 at every depth).
 *
 * Landscape: the mean score of a weight set is
 *   peak · (floor + (1 − floor) · exp(−½ Σ_k z_k²))
 * over the fields k named in `optimum` (scalar weights or "matrix[i][j]"), with
 *   z_k = ln(w_k / o_k) / width       when w_k and o_k are both positive (weights act by ratio), else
 *   z_k = (w_k − o_k) / (width · max(|o_k|, 1)).
 * Its optimum is `optimum` (mean `peak`); fields not named do not matter.
 *
 * Noise: a game's score is mean · M with E[M] = 1 and sd(M) = cv. M is a mixture of three modes, as real
 * scores cluster by the largest tile a game reaches (here at 0.40, 0.94 and 1.50 × the mean at cv 0.40,
 * with probabilities 0.2, 0.5, 0.3), each with a log-normal jitter of σ 0.1; the modes' spread is solved
 * from cv in closed form: E[M²] = e^{σ²} (1 + t² Σ p_k b_k²). The calibration: cv 0.40 is the sd/mean of a
 * depth-3 game's score measured here, 0.44 a depth-2 game's (docs/results/depth-3-stall.md).
 */
import seedrandom from 'seedrandom';
import type { PlayedGame } from '../engine/game';
import { SCALAR_WEIGHT_NAMES, type Weights } from '../heuristic/weights';

export interface SyntheticLandscape {
  /** The optimum: a value per field (scalar weight names, or "matrix[i][j]"). */
  optimum: Record<string, number>;
  /** How far from the optimum (in ln units for positive weights) the mean falls to e^{−1/2} of its rise. */
  width: number;
  /** The mean score at the optimum. */
  peak: number;
  /** The share of the peak left far from the optimum (the landscape's floor). */
  floor: number;
  /** A game's sd over its mean (0.40 as a depth-3 game, 0.44 as a depth-2 one). */
  cv: number;
  /** How long a game takes, in ms, as a sleep that uses no CPU (0: instant). */
  gameMs: number;
  /**
   * A cost per move for two-objective runs (absent: the games report none): nodes · e^{growth · w} positions
   * per move, w the named weight's value, as each ply of depth multiplies a search's cost. With the weight's
   * optimum in `optimum`, the front of mean against cost is known: the weight from its low bound up to its optimum.
   * `cv`: each game's cost a move drawn around that (log-normal, this sd of its log; absent: exact), as a real
   * search's cost varies with the positions a game reaches.
   */
  cost?: { weight: string; nodes: number; growth: number; cv?: number };
  /**
   * Two of the optimum's weights on a ridge (absent: none): their z's turned by 45°, the mean falling `ratio` times
   * more slowly along z_a + z_b than across it, as two weights that trade one for the other (a model must learn
   * the direction, not each axis alone).
   */
  ridge?: { weights: [string, string]; ratio: number };
}

export const SYNTHETIC_DEFAULTS: Omit<SyntheticLandscape, 'optimum'> = { width: 0.5, peak: 140_000, floor: 0.2, cv: 0.4, gameMs: 0 };

const MATRIX_FIELD = /^matrix\[([0-3])\]\[([0-3])\]$/;

/** What is wrong with a landscape, or null (checked where configs are read). */
export function landscapeProblem(l: SyntheticLandscape): string | null {
  const names = Object.keys(l.optimum);
  if (names.length === 0) return 'optimum: name at least one weight';
  const unknown = names.find((n) => !(SCALAR_WEIGHT_NAMES as readonly string[]).includes(n) && !MATRIX_FIELD.test(n));
  if (unknown) return `optimum: unknown weight "${unknown}" (known: ${SCALAR_WEIGHT_NAMES.join(', ')}, matrix[i][j])`;
  const bad = names.find((n) => !Number.isFinite(l.optimum[n]));
  if (bad) return `optimum: "${bad}" must be a finite number`;
  if (l.ridge && (l.ridge.weights[0] === l.ridge.weights[1] || l.ridge.weights.some((w) => !(w in l.optimum)))) return `ridge.weights: two different weights of the optimum (${names.join(', ')})`;
  if (l.cost && !(SCALAR_WEIGHT_NAMES as readonly string[]).includes(l.cost.weight) && !MATRIX_FIELD.test(l.cost.weight)) return `cost.weight: unknown weight "${l.cost.weight}" (known: ${SCALAR_WEIGHT_NAMES.join(', ')}, matrix[i][j])`;
  return null;
}

/** A field's value in a weight set (a matrix cell of a weight set without a matrix is 0). */
function field(w: Weights, name: string): number {
  const m = MATRIX_FIELD.exec(name);
  if (m) return w.matrix?.[Number(m[1])]?.[Number(m[2])] ?? 0;
  return w[name as (typeof SCALAR_WEIGHT_NAMES)[number]];
}

/** The landscape's cost per move at a weight set (positions searched a move), or null when it has none. */
export function syntheticCost(w: Weights, l: SyntheticLandscape): number | null {
  return l.cost ? l.cost.nodes * Math.exp(l.cost.growth * field(w, l.cost.weight)) : null;
}

/** The landscape's mean score at a weight set. */
export function syntheticMean(w: Weights, l: SyntheticLandscape): number {
  const z = new Map<string, number>();
  for (const [name, o] of Object.entries(l.optimum)) {
    const x = field(w, name);
    z.set(name, x > 0 && o > 0 ? Math.log(x / o) / l.width : (x - o) / (l.width * Math.max(Math.abs(o), 1)));
  }
  if (l.ridge) {
    const [a, b] = l.ridge.weights;
    const za = z.get(a)!;
    const zb = z.get(b)!;
    z.set(a, (za - zb) / Math.SQRT2);
    z.set(b, (za + zb) / (Math.SQRT2 * l.ridge.ratio));
  }
  let d2 = 0;
  for (const v of z.values()) d2 += v * v;
  return l.peak * (l.floor + (1 - l.floor) * Math.exp(-0.5 * d2));
}

// The mixture: probabilities, mode offsets (Σ p·b = 0, so E[M] = 1) and the jitter.
const P = [0.2, 0.5, 0.3];
const B = [-1.5, -0.15, 1.25];
const JITTER = 0.1;

/** The modes' spread t for a coefficient of variation (see the header); 0 when cv is below the jitter's own. */
export function modeSpread(cv: number): number {
  const sumPb2 = P.reduce((s, p, k) => s + p * B[k] ** 2, 0);
  const t2 = ((cv * cv + 1) / Math.exp(JITTER * JITTER) - 1) / sumPb2;
  return Math.sqrt(Math.max(0, t2));
}

/** The largest tile a game of this score plausibly reached: building 2^k from 2s earns about 2^k·(k − 1). */
function tileOf(score: number): number {
  let k = 2;
  while (k < 15 && 2 ** (k + 1) * k <= score) k++;
  return 2 ** k;
}

/** A synthetic game: deterministic per (the player's key, seed). `key` is the spec's playerKey. */
export function syntheticGame(w: Weights, l: SyntheticLandscape, key: string, seed: number): PlayedGame {
  const rng = seedrandom.alea(`synthetic:${key}:${seed}`);
  const u = rng();
  const mode = u < P[0] ? 0 : u < P[0] + P[1] ? 1 : 2;
  const t = modeSpread(l.cv);
  const normal = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const multiplier = Math.max(0, 1 + t * B[mode]) * Math.exp(JITTER * normal - (JITTER * JITTER) / 2);
  const score = Math.round(syntheticMean(w, l) * multiplier);
  // ~22 points of score per move at depth 2–3 here (e.g. 140k in ~6,300 moves).
  const moves = Math.max(1, Math.round(score / 22));
  const cost = syntheticCost(w, l);
  // Drawn last, so a landscape without cost noise plays the games it always played.
  const costNoise = l.cost?.cv ? Math.exp(l.cost.cv * Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng()) - (l.cost.cv * l.cost.cv) / 2) : 1;
  return { seed, score, maxTile: tileOf(score), moves, ms: l.gameMs, ...(cost !== null ? { nodes: Math.round(cost * costNoise * moves) } : {}) };
}

let sleeper: Int32Array | null = null;

/** Waits without using the CPU (a worker plays its batch synchronously). Made on first use: the browser bundle never sleeps. */
export function sleepMs(ms: number): void {
  if (ms <= 0) return;
  sleeper ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleeper, 0, 0, ms);
}
