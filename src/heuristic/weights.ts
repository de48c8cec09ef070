/**
 * The weights schema: the genome of a 2048 evaluation function.
 *
 *   value(board) = Σ over 4 rows and 4 columns of line(ranks)
 *                + Σ over cells of matrix[row][col] · f(cell)      (f = rank or tile value)
 *
 *   line(r) = alive + empty·#empty + merges·mergeCount + descents·descentCount
 *           − monotonicity · min(monoL, monoR)      over rank^monotonicityPower
 *           − smoothness · Σ |f(r[i]) − f(r[i−1])|  over all 3 neighbour pairs (f from smoothnessOn)
 *           − sum · Σ rank^sumPower
 *
 * Penalties are written as positive numbers, as their authors wrote them.
 * Lines are read left→right (rows) and top→bottom (columns).
 */
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
// valibot (run configs use it too): every command that plays loads weights, and valibot's import costs
// ~10 ms of start-up where zod's cost ~100 ms.
import * as v from 'valibot';
import { InputError } from '../util/errors';

export const WEIGHTS_FORMAT = 'tune2048/weights';
export const WEIGHTS_VERSION = 1;

const finite = v.pipe(v.number(), v.finite('must be a finite number'));
const power = v.pipe(v.number(), v.minValue(0), v.maxValue(8));
const scale = v.picklist(['rank', 'value']);
const matrixRow = v.pipe(v.array(finite), v.length(4, 'a matrix row must have 4 numbers'));

export const weightsSchema = v.strictObject({
  format: v.literal(WEIGHTS_FORMAT),
  version: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(WEIGHTS_VERSION, `is newer than this tune2048 understands (max ${WEIGHTS_VERSION})`)),
  name: v.optional(v.string()),
  description: v.optional(v.string()),
  source: v.optional(v.string()),
  alive: v.optional(finite, 0),
  empty: v.optional(finite, 0),
  merges: v.optional(finite, 0),
  descents: v.optional(finite, 0),
  monotonicity: v.optional(finite, 0),
  monotonicityPower: v.optional(power, 4),
  smoothness: v.optional(finite, 0),
  smoothnessOn: v.optional(scale, 'rank'),
  sum: v.optional(finite, 0),
  sumPower: v.optional(power, 3.5),
  matrixOn: v.optional(scale, 'rank'),
  matrix: v.optional(v.pipe(v.array(matrixRow), v.length(4, 'a matrix must have 4 rows'))),
  /** Where tuned weights came from (written by `export`); free-form. */
  provenance: v.optional(v.record(v.string(), v.unknown())),
});

export type Weights = v.InferOutput<typeof weightsSchema>;
export type WeightsInput = v.InferInput<typeof weightsSchema>;

/** What only labels a weight set (its file's format, names, provenance): never a part of how it plays. */
const LABEL_FIELDS = ['format', 'version', 'name', 'description', 'source', 'provenance'] as const;

/** The fields that decide the heuristic (labels left out): two weight sets with equal ones play alike. */
export function heuristicFields(w: Weights): Omit<Weights, (typeof LABEL_FIELDS)[number]> {
  const out: Record<string, unknown> = { ...w };
  for (const k of LABEL_FIELDS) delete out[k];
  return out as Omit<Weights, (typeof LABEL_FIELDS)[number]>;
}

/** The numeric weights a tuner may vary (matrix cells are "matrix[i][j]"). */
export const SCALAR_WEIGHT_NAMES = [
  'alive',
  'empty',
  'merges',
  'descents',
  'monotonicity',
  'monotonicityPower',
  'smoothness',
  'sum',
  'sumPower',
] as const;

/** Formats the first problem valibot found as "field "a.b": message". */
function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  // A wrong or missing format means "not a weights file at all": say that before any other problem.
  const issue = issues.find((i) => i.path?.[0]?.key === 'format') ?? issues[0];
  const path = (issue.path ?? []).map((p) => String(p.key));
  const where = (p: string[]) => (p.length > 0 ? `field "${p.join('.')}"` : 'top level');
  if (issue.type === 'strict_object' && issue.input === undefined) return `${where(path)}: missing`;
  if (issue.type === 'strict_object') return `${where(path.slice(0, -1))}: unknown key "${path[path.length - 1]}"`;
  return `${where(path)}: ${issue.message}`;
}

/**
 * No term of the heuristic may exceed this in magnitude on any board, so that
 * values, their expectimax averages and fitness sums stay finite and exact
 * enough (Number.MAX_SAFE_INTEGER is ~9e15).
 */
export const MAX_HEURISTIC_MAGNITUDE = 1e15;

/** The largest magnitude each weighted term can reach on a 4x4 board (8 lines, 16 cells). */
function termBounds(w: Weights): [string, number][] {
  const top = (scaleOn: 'rank' | 'value') => (scaleOn === 'rank' ? 15 : 32768);
  const bounds: [string, number][] = [
    ['alive', Math.abs(w.alive) * 8],
    ['empty', Math.abs(w.empty) * 32],
    ['merges', Math.abs(w.merges) * 32],
    ['descents', Math.abs(w.descents) * 32],
    ['monotonicity', Math.abs(w.monotonicity) * 15 ** w.monotonicityPower * 8],
    ['smoothness', Math.abs(w.smoothness) * 3 * top(w.smoothnessOn) * 8],
    ['sum', Math.abs(w.sum) * 4 * 15 ** w.sumPower * 8],
  ];
  w.matrix?.forEach((row, i) => row.forEach((x, j) => bounds.push([`matrix[${i}][${j}]`, Math.abs(x) * top(w.matrixOn)])));
  return bounds;
}

/** Refuses weights whose heuristic could leave the safe range, naming the largest term. */
function checkMagnitude(w: Weights): string | null {
  const bounds = termBounds(w);
  const total = bounds.reduce((s, [, b]) => s + b, 0);
  if (total <= MAX_HEURISTIC_MAGNITUDE) return null;
  const [field, bound] = bounds.reduce((a, b) => (b[1] > a[1] ? b : a));
  const reach = Number.isFinite(bound) ? `can reach ${bound.toPrecision(3)} in magnitude` : 'overflows';
  return `field "${field}": its term of the heuristic ${reach} (limit ${MAX_HEURISTIC_MAGNITUDE.toExponential(0)} on any board); use smaller weights`;
}

export function parseWeights(data: unknown, origin = 'weights'): Weights {
  const result = v.safeParse(weightsSchema, data);
  if (!result.success) throw new InputError(`${origin}: ${describeIssue(result.issues)}`);
  const tooLarge = checkMagnitude(result.output);
  if (tooLarge) throw new InputError(`${origin}: ${tooLarge}`);
  return result.output;
}

/** Reads a JSON file, with a one-line error naming the file on any failure. */
export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${what} "${path}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${what} "${path}" is not valid JSON: ${(e as Error).message}`);
  }
}

/** configs/ of this package (two levels above both src/heuristic and dist/heuristic). */
export const CONFIGS_DIR = resolve(__dirname, '..', '..', 'configs');
export const PRESETS_DIR = join(CONFIGS_DIR, 'weights');

export function listPresets(): string[] {
  if (!existsSync(PRESETS_DIR)) return [];
  return readdirSync(PRESETS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Loads weights from a file path, or by preset name from configs/weights/. */
export function loadWeights(spec: string): Weights {
  const looksLikePath = spec.includes('/') || spec.includes('\\') || spec.endsWith('.json');
  if (looksLikePath || existsSync(spec)) {
    return parseWeights(readJsonFile(spec, 'weights file'), `weights file "${spec}"`);
  }
  const presetPath = join(PRESETS_DIR, `${spec}.json`);
  if (!existsSync(presetPath)) {
    throw new InputError(`unknown weights preset or file "${spec}" (presets: ${listPresets().join(', ')})`);
  }
  return parseWeights(readJsonFile(presetPath, 'weights preset'), `weights preset "${spec}"`);
}
