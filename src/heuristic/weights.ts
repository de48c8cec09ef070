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
 *
 * Version 2 adds two optional parts (a version-1 file plays exactly as before):
 * - `lines`: line-position terms. Any of line()'s coefficients set again for the outer rows (0 and 3), the
 *   inner rows (1, 2), the outer columns or the inner columns; a coefficient left out is the base's.
 * - `stages`: a weight set per stage of the game. `by` the root board's largest tile or its tile sum, a list
 *   of stages covering [0, ∞) without gap or overlap (`from` inclusive, `to` exclusive, the last open);
 *   each stage sets again any heuristic field (a coefficient, `lines`, `matrix`, …), the rest is the base's.
 *   The stage is chosen per decision from the board to move on, so a search's tables change only when the
 *   stage does.
 * - `learned`: a learned line network (src/learn, `tune2048 learn`) added as weight × its estimate of the final
 *   score (the network's value + the score the tiles hold). Named by its file and SHA-256: a table trained
 *   again is refused, never silently played in place of the one a result was measured with. A relative
 *   path is relative to the weights file (to the working directory for weights given inline). A stage may
 *   set its own weight of the same tables (0: not in that stage; a network learned from greedy games never
 *   saw an 8192).
 *
 * Version 3 adds `search`: the depth and chance cutoff the weights were tuned and validated at (a run that tuned
 * its search writes them): play, hint and compare search at them unless told otherwise.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
// valibot (run configs use it too): every command that plays loads weights, and valibot's import costs
// ~10 ms of start-up where zod's cost ~100 ms.
import * as v from 'valibot';
import { maxRank, rankToValue, tileSum, type Board } from '../engine/board';
import { MAX_TABLE_ENTRY } from '../learn/table-file';
import { InputError } from '../util/errors';
import { MAX_DEPTH } from '../player/limits';
import { readJsonFile } from '../util/json-file';

export const WEIGHTS_FORMAT = 'tune2048/weights';
export const WEIGHTS_VERSION = 3;

const finite = v.pipe(v.number(), v.finite('must be a finite number'));
const power = v.pipe(v.number(), v.minValue(0), v.maxValue(8));
const scale = v.picklist(['rank', 'value']);
const matrixRow = v.pipe(v.array(finite), v.length(4, 'a matrix row must have 4 numbers'));

/** The coefficients of line(r): what line-position terms and stages may set again. */
const lineTerms = {
  alive: v.optional(finite),
  empty: v.optional(finite),
  merges: v.optional(finite),
  descents: v.optional(finite),
  monotonicity: v.optional(finite),
  monotonicityPower: v.optional(power),
  smoothness: v.optional(finite),
  smoothnessOn: v.optional(scale),
  sum: v.optional(finite),
  sumPower: v.optional(power),
};
/** The four groups of lines that may have coefficients of their own. */
export const LINE_GROUPS = ['outerRows', 'innerRows', 'outerColumns', 'innerColumns'] as const;
export type LineGroup = (typeof LINE_GROUPS)[number];
const linesSchema = v.strictObject(Object.fromEntries(LINE_GROUPS.map((g) => [g, v.optional(v.strictObject(lineTerms))])) as Record<LineGroup, v.OptionalSchema<v.StrictObjectSchema<typeof lineTerms, undefined>, undefined>>);
const matrixSchema = v.pipe(v.array(matrixRow), v.length(4, 'a matrix must have 4 rows'));
const bound = v.pipe(v.number(), v.minValue(0, 'must be ≥ 0'));
const learnedSchema = v.strictObject({
  table: v.pipe(v.string(), v.minLength(1, 'must name a line-table file')),
  sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'must be the 64 hex digits of the table file\'s SHA-256 (tune2048 learn export prints it)')),
  weight: finite,
});
/** A stage: where it applies, and the heuristic fields it sets again. */
const stageSchema = v.strictObject({
  from: bound,
  to: v.optional(bound),
  ...lineTerms,
  matrixOn: v.optional(scale),
  matrix: v.optional(matrixSchema),
  lines: v.optional(linesSchema),
  /** The base's learned tables with a weight of the stage's own. */
  learned: v.optional(v.strictObject({ weight: finite })),
});
export const STAGE_MEASURES = ['maxTile', 'tileSum'] as const;
export type StageMeasure = (typeof STAGE_MEASURES)[number];
const stagesSchema = v.strictObject({
  by: v.picklist(STAGE_MEASURES, `must be one of ${STAGE_MEASURES.join(', ')}`),
  list: v.pipe(v.array(stageSchema), v.minLength(2, 'needs 2 to 4 stages'), v.maxLength(4, 'needs 2 to 4 stages')),
});

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
  matrix: v.optional(matrixSchema),
  /** Version 2: coefficients of their own for outer/inner rows and columns. */
  lines: v.optional(linesSchema),
  /** Version 2: a weight set per stage of the game. */
  stages: v.optional(stagesSchema),
  /** Version 2: a learned line network's estimate of the final score, weighted (a stage may set its own). */
  learned: v.optional(learnedSchema),
  /**
   * Version 3: the search these weights play at when the command gives none (a flag, or compare's @dN and @cP,
   * says otherwise): the depth and cutoff a run tuned and validated them at.
   */
  search: v.optional(
    v.strictObject({
      depth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_DEPTH))),
      cprob: v.optional(v.pipe(v.number(), v.minValue(0), v.ltValue(1))),
    }),
  ),
  /** Where tuned weights came from (written by `export`); free-form. */
  provenance: v.optional(v.record(v.string(), v.unknown())),
});

export type Weights = v.InferOutput<typeof weightsSchema>;
export type WeightsInput = v.InferInput<typeof weightsSchema>;

/** What only labels a weight set (its file's format, names, provenance) or sits beside its heuristic (the search it plays at): never a part of how it evaluates a board. */
const LABEL_FIELDS = ['format', 'version', 'name', 'description', 'source', 'provenance', 'search'] as const;

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

/** The line-position group of row or column i. */
export function lineGroup(kind: 'row' | 'column', i: number): LineGroup {
  const outer = i === 0 || i === 3;
  return kind === 'row' ? (outer ? 'outerRows' : 'innerRows') : outer ? 'outerColumns' : 'innerColumns';
}

/** `base` with the fields `own` sets (those not undefined, nor named in `skip`) set again. */
function overlay(base: Record<string, unknown>, own: Record<string, unknown> | undefined, skip: readonly string[] = []): Weights {
  const out = { ...base };
  for (const [k, x] of Object.entries(own ?? {})) if (x !== undefined && !skip.includes(k)) out[k] = x;
  return out as Weights;
}

/** The coefficients of line() for a group of lines: the base's, with the group's own where it sets them. */
export function lineWeights(w: Weights, group: LineGroup): Weights {
  const own = w.lines?.[group];
  return own ? overlay(w, own) : w;
}

/** The weights of stage k: the base's heuristic fields, with the stage's own where it sets them (no stages left). */
export function stageWeights(w: Weights, k: number): Weights {
  const { stages, ...base } = w;
  const own = stages?.list[k];
  const out = overlay(base, own, ['from', 'to', 'learned']);
  return own?.learned && base.learned ? { ...out, learned: { ...base.learned, weight: own.learned.weight } } : out;
}

/** The stage of a board (0 without stages). */
export function stageOf(w: Weights, board: Board): number {
  const stages = w.stages;
  if (!stages) return 0;
  const m = stages.by === 'maxTile' ? rankToValue(maxRank(board)) : tileSum(board);
  let k = 0;
  while (k < stages.list.length - 1 && m >= stages.list[k + 1].from) k++;
  return k;
}

/** The parts a version-1 file does not have. */
const VERSION_2_PARTS = ['lines', 'stages', 'learned'] as const;

/** The oldest version that holds these weights (so a tune2048 before version 2 reads what it can play). */
export function oldestVersion(w: Pick<Weights, (typeof VERSION_2_PARTS)[number] | 'search'>): number {
  return w.search !== undefined ? 3 : VERSION_2_PARTS.some((key) => w[key] !== undefined) ? 2 : 1;
}

/** Stages that do not cover [0, ∞) exactly once, or version-2 parts in a version-1 file: the first problem. */
function checkStructure(w: Weights): string | null {
  if (w.version < 2) {
    for (const key of VERSION_2_PARTS) if (w[key] !== undefined) return `field "${key}": needs "version": 2 (a version-1 file has no ${key})`;
  }
  if (w.version < 3 && w.search !== undefined) return `field "search": needs "version": 3 (an older file has no search)`;
  const list = w.stages?.list;
  if (!list) return null;
  const at = (k: number, f: string) => `field "stages.list.${k}.${f}"`;
  const weighed = list.findIndex((st) => st.learned !== undefined);
  if (weighed >= 0 && !w.learned) return `${at(weighed, 'learned')}: the weights have no learned tables to weigh (set "learned" with its table at the top level)`;
  if (list[0].from !== 0) return `${at(0, 'from')}: the first stage must start at 0 (boards below ${list[0].from} would have no stage)`;
  for (let k = 0; k < list.length; k++) {
    const { from, to } = list[k];
    const last = k === list.length - 1;
    if (last && to !== undefined) return `${at(k, 'to')}: the last stage must be open (no "to"): boards from ${to} up would have no stage`;
    if (!last && to === undefined) return `${at(k, 'to')}: missing (only the last stage is open)`;
    if (to !== undefined && !(to > from)) return `${at(k, 'to')}: must be above "from" (${from})`;
    if (!last) {
      const next = list[k + 1].from;
      if (next > to!) return `${at(k + 1, 'from')}: stages leave a gap from ${to} to ${next}`;
      if (next < to!) return `${at(k + 1, 'from')}: stages overlap from ${next} to ${to}`;
    }
  }
  return null;
}

/** The largest magnitude each weighted term can reach on a 4x4 board (8 lines, 16 cells), for a weight set without stages. */
function termBounds(w: Weights): [string, number][] {
  const top = (scaleOn: 'rank' | 'value') => (scaleOn === 'rank' ? 15 : 32768);
  const total = new Map<string, number>();
  const add = (name: string, x: number) => total.set(name, (total.get(name) ?? 0) + x);
  for (const kind of ['row', 'column'] as const) {
    for (let i = 0; i < 4; i++) {
      const l = lineWeights(w, lineGroup(kind, i));
      add('alive', Math.abs(l.alive));
      add('empty', Math.abs(l.empty) * 4);
      add('merges', Math.abs(l.merges) * 4);
      add('descents', Math.abs(l.descents) * 4);
      add('monotonicity', Math.abs(l.monotonicity) * 15 ** l.monotonicityPower);
      add('smoothness', Math.abs(l.smoothness) * 3 * top(l.smoothnessOn));
      add('sum', Math.abs(l.sum) * 4 * 15 ** l.sumPower);
    }
  }
  const bounds = [...total.entries()];
  // 16 table reads (8 lines, both ways) and the tile score of 16 tiles of up to 32768.
  if (w.learned) bounds.push(['learned.weight', Math.abs(w.learned.weight) * (16 * MAX_TABLE_ENTRY + 16 * 14 * 32768)]);
  w.matrix?.forEach((row, i) => row.forEach((x, j) => bounds.push([`matrix[${i}][${j}]`, Math.abs(x) * top(w.matrixOn)])));
  return bounds;
}

/** Refuses weights whose heuristic could leave the safe range, naming the largest term (of the stage where it is). */
function checkMagnitude(w: Weights): string | null {
  const sets = w.stages ? w.stages.list.map((_, k) => ({ prefix: `stages.list.${k}: `, w: stageWeights(w, k) })) : [{ prefix: '', w }];
  for (const { prefix, w: set } of sets) {
    const bounds = termBounds(set);
    const total = bounds.reduce((s, [, b]) => s + b, 0);
    if (total <= MAX_HEURISTIC_MAGNITUDE) continue;
    const [field, bound] = bounds.reduce((a, b) => (b[1] > a[1] ? b : a));
    const reach = Number.isFinite(bound) ? `can reach ${bound.toPrecision(3)} in magnitude` : 'overflows';
    return `${prefix}field "${field}": its term of the heuristic ${reach} (limit ${MAX_HEURISTIC_MAGNITUDE.toExponential(0)} on any board); use smaller weights`;
  }
  return null;
}

export function parseWeights(data: unknown, origin = 'weights'): Weights {
  const result = v.safeParse(weightsSchema, data);
  if (!result.success) throw new InputError(`${origin}: ${describeIssue(result.issues)}`);
  const malformed = checkStructure(result.output);
  if (malformed) throw new InputError(`${origin}: ${malformed}`);
  const tooLarge = checkMagnitude(result.output);
  if (tooLarge) throw new InputError(`${origin}: ${tooLarge}`);
  return result.output;
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

/** A learned table's path made absolute from the weights file's folder, so the weights play from any working directory. */
function anchored(w: Weights, file: string): Weights {
  if (!w.learned || isAbsolute(w.learned.table)) return w;
  return { ...w, learned: { ...w.learned, table: resolve(dirname(file), w.learned.table) } };
}

/** Loads weights from a file path, or by preset name from configs/weights/. */
/**
 * A file of another kind given where weights are taken: said with the flag that takes it, never as a schema error
 * on "format" (an external player's export, a network player file, a run or learning config, a player file).
 */
function otherKindOfFile(data: unknown, path: string): void {
  const { format, player, name } = (data ?? {}) as { format?: unknown; player?: unknown; name?: unknown };
  const which = `"${path}"`;
  const said: Record<string, string> = {
    'tune2048/player-params': `${which} holds an external player's parameters (tune2048/player-params${typeof player === 'string' ? ` of ${player}` : ''}), not weights: play it with --player external:${typeof player === 'string' ? player : 'NAME'} --params ${path}, or give it to compare as a contender`,
    'tune2048/network-player': `${which} is a network player file (tune2048/network-player), not weights: give it to play or compare in place of the weights (a contender), or as --network`,
    'tune2048/config': `${which} is a tuning config (tune2048/config), not weights: run it with tune -c ${path}`,
    'tune2048/learn': `${which} is a learning config (tune2048/learn), not weights: run it with learn start -c ${path}`,
    'tune2048/player': `${which} is an external player's file (tune2048/player${typeof name === 'string' ? `, ${name}` : ''}), not weights: play it with --player external:${path}`,
  };
  if (typeof format === 'string' && said[format]) throw new InputError(said[format]);
}

export function loadWeights(spec: string): Weights {
  const looksLikePath = spec.includes('/') || spec.includes('\\') || spec.endsWith('.json');
  if (looksLikePath || existsSync(spec)) {
    const data = readJsonFile(spec, 'weights file');
    otherKindOfFile(data, spec);
    return anchored(parseWeights(data, `weights file "${spec}"`), spec);
  }
  const presetPath = join(PRESETS_DIR, `${spec}.json`);
  if (!existsSync(presetPath)) {
    throw new InputError(`unknown weights preset or file "${spec}" (presets: ${listPresets().join(', ')})`);
  }
  return anchored(parseWeights(readJsonFile(presetPath, 'weights preset'), `weights preset "${spec}"`), presetPath);
}
