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
import { z } from 'zod';
import { InputError } from '../util/errors';

export const WEIGHTS_FORMAT = 'tune2048/weights';
export const WEIGHTS_VERSION = 1;

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const power = z.number().min(0).max(8);
const scale = z.enum(['rank', 'value']);
const matrixRow = z.array(finite).length(4);

export const weightsSchema = z
  .object({
    format: z.literal(WEIGHTS_FORMAT),
    version: z.number().int().min(1).max(WEIGHTS_VERSION, `is newer than this tune2048 understands (max ${WEIGHTS_VERSION})`),
    name: z.string().optional(),
    description: z.string().optional(),
    source: z.string().optional(),
    alive: finite.default(0),
    empty: finite.default(0),
    merges: finite.default(0),
    descents: finite.default(0),
    monotonicity: finite.default(0),
    monotonicityPower: power.default(4),
    smoothness: finite.default(0),
    smoothnessOn: scale.default('rank'),
    sum: finite.default(0),
    sumPower: power.default(3.5),
    matrixOn: scale.default('rank'),
    matrix: z.array(matrixRow).length(4).optional(),
    /** Where tuned weights came from (written by `export`); free-form. */
    provenance: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export type Weights = z.infer<typeof weightsSchema>;
export type WeightsInput = z.input<typeof weightsSchema>;

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

/** Formats the first problem zod found as "field "a.b": message". */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length > 0 ? `field "${issue.path.map(String).join('.')}"` : 'top level';
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') message = `unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return `${where}: ${message}`;
}

export function parseWeights(data: unknown, origin = 'weights'): Weights {
  const result = weightsSchema.safeParse(data);
  if (!result.success) throw new InputError(`${origin}: ${describeZodError(result.error)}`);
  return result.data;
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
