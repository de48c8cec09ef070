/**
 * What sits on a learned network, as a file (`tune2048/network-player`): the network it is for (path and
 * SHA-256), the search's cprob and depth rule, a weight per stage on the network's value at the leaves and heuristic terms
 * added there (tune2048's weights, per stage too; without learned lines). `export` writes
 * one for a run that tuned a network; `network:FILE.json` plays it wherever `network:FILE.bin` plays (the
 * depth stays the command's: -d, or compare's @dN).
 */
import * as v from 'valibot';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { InputError } from '../util/errors';
import { readJsonFile } from '../util/json-file';
import { describeIssues } from '../util/valibot-issues';
import { parseWeights, type Weights } from '../heuristic/weights';
import { downgradeProblem } from './downgrade';
import { MAX_DEPTH } from './limits';

export const NETWORK_SETTINGS_FORMAT = 'tune2048/network-player';

const emptyCells = (what: string) => v.optional(v.pipe(v.number(), v.integer(`${what} must be a whole number of empty cells`), v.minValue(0), v.maxValue(16)));

/** A depth rule as network player files and stored runs hold it: whole empty-cell counts, the shallower side above the deeper. */
export function depthRuleSchema() {
  return v.pipe(
    v.strictObject({ deeperAtEmpty: emptyCells('deeperAtEmpty'), shallowerAtEmpty: emptyCells('shallowerAtEmpty') }),
    v.check((r) => depthRuleProblem(r) === null, 'shallowerAtEmpty must be above deeperAtEmpty'),
  );
}

/** The depth of a decision from how full the board is (network-player.ts applies it on top of -d or auto). */
export interface DepthRule {
  /** At most this many empty cells: one chance layer deeper (a full board's move is the one that loses games; deeper there is not cheap: the move frees cells). */
  deeperAtEmpty?: number;
  /** At least this many empty cells: one shallower (an open board's move rarely decides anything). */
  shallowerAtEmpty?: number;
}

/** What is wrong with a depth rule, or null. */
export function depthRuleProblem(r: DepthRule): string | null {
  if (r.deeperAtEmpty !== undefined && r.shallowerAtEmpty !== undefined && r.shallowerAtEmpty <= r.deeperAtEmpty) {
    return `shallowerAtEmpty (${r.shallowerAtEmpty}) must be above deeperAtEmpty (${r.deeperAtEmpty})`;
  }
  return null;
}

/** A decision's depth under a rule, from the depth without it and the board's empty cells (never below 0 nor above `max`). */
export function ruledDepth(depth: number, empty: number, rule: DepthRule | undefined, max: number): number {
  if (!rule) return depth;
  if (rule.deeperAtEmpty !== undefined && empty <= rule.deeperAtEmpty) return Math.min(max, depth + 1);
  if (rule.shallowerAtEmpty !== undefined && empty >= rule.shallowerAtEmpty) return Math.max(0, depth - 1);
  return depth;
}

/**
 * The smallest path probability a max node of the second layer can hold: a 4 (0.1) in one of at most 15 empty
 * cells of an afterstate (a move never empties the board). network-search.ts stops expanding where the path
 * probability falls below cprob, and above depth 2 only that layer's max nodes expand: so at depths ≤ 2 a cutoff
 * at or below this never prunes, and at depth ≤ 1 no cutoff does.
 */
export const LEAST_SECOND_LAYER_PROBABILITY = 0.1 / 15;

/**
 * A search as it plays: stage weights that are all 1 left out (stageWeightsThatAct: the player skips them);
 * and at a fixed depth, a depth-rule side that can change no depth left out (deeper at the deepest
 * depth, shallower at depth 0), and a cutoff that can prune nothing set to 0. Two searches with the same result
 * play the same moves and count the same positions on every board, so a tuner plays one of them only (two
 * cutoffs that never bind are one player). A time per move (its depth varies) or an "auto" depth: otherwise as given.
 */
export function searchAsPlayed<S extends { depth: number | 'auto'; cprob: number; msPerMove?: number; depthRule?: DepthRule; stageWeights?: number[] }>(given: S): S {
  const { stageWeights, ...unweighted } = given;
  const search = (stageWeightsThatAct(stageWeights) ? given : unweighted) as S;
  const { depth, depthRule } = search;
  if (depth === 'auto' || search.msPerMove !== undefined) return search;
  const deeper = depthRule?.deeperAtEmpty !== undefined && depth < MAX_DEPTH ? depthRule.deeperAtEmpty : undefined;
  const shallower = depthRule?.shallowerAtEmpty !== undefined && depth > 0 ? depthRule.shallowerAtEmpty : undefined;
  const rule: DepthRule = { ...(deeper !== undefined ? { deeperAtEmpty: deeper } : {}), ...(shallower !== undefined ? { shallowerAtEmpty: shallower } : {}) };
  const deepest = deeper !== undefined ? depth + 1 : depth;
  const prunes = deepest >= 3 || (deepest === 2 && search.cprob > LEAST_SECOND_LAYER_PROBABILITY);
  const { depthRule: _given, ...rest } = search;
  return { ...rest, cprob: prunes ? search.cprob : 0, ...(Object.keys(rule).length > 0 ? { depthRule: rule } : {}) } as S;
}

/** What a network's search adds to its depth, for labels: its depth rule and tile-downgrading (none: empty). */
export function searchAdditions(search: { depthRule?: DepthRule; downgradeAt?: number }): string[] {
  const rule = search.depthRule;
  const sides = rule ? [rule.deeperAtEmpty !== undefined ? `deeper at ≤ ${rule.deeperAtEmpty} empty` : '', rule.shallowerAtEmpty !== undefined ? `shallower at ≥ ${rule.shallowerAtEmpty} empty` : ''].filter(Boolean) : [];
  return [...(sides.length ? [`depth rule: ${sides.join(', ')}`] : []), ...(search.downgradeAt ? [`tile-downgrading at ${search.downgradeAt}`] : [])];
}

const settingsSchema = v.strictObject({
  format: v.literal(NETWORK_SETTINGS_FORMAT),
  version: v.literal(1, 'must be 1 (this tune2048 reads version 1 of network player files)'),
  /** The network file, relative to this file's folder (or absolute), and its SHA-256. */
  network: v.strictObject({ file: v.pipe(v.string(), v.minLength(1, 'must not be empty')), sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex')) }),
  cprob: v.optional(v.pipe(v.number(), v.minValue(0), v.ltValue(1))),
  /** The depth it plays at when the command gives none (a flag, or compare's @dN): the one it was tuned and validated at. */
  depth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_DEPTH))),
  /** One weight per stage of the network, multiplying the network's value at the search's leaves. */
  stageWeights: v.optional(v.pipe(v.array(v.pipe(v.number(), v.finite(), v.gtValue(0, 'must be above 0'))), v.minLength(1, 'must name a weight per stage'))),
  /** The depth by how full the board is: one chance layer deeper with at most `deeperAtEmpty` empty cells, one shallower with at least `shallowerAtEmpty`. */
  depthRule: v.optional(depthRuleSchema()),
  /** Tile-downgrading (downgrade.ts): a board holding a tile at least this large is decided with its highest missing ranks closed. */
  downgradeAt: v.optional(v.pipe(v.number(), v.check((x) => downgradeProblem(x) === null, 'must be a tile from 8 to 32768'))),
  /** Weights (tune2048/weights) whose heuristic is added to the network's value at every leaf. */
  heuristic: v.optional(v.unknown()),
  name: v.optional(v.string()),
  provenance: v.optional(v.unknown()),
});

export type NetworkSettings = Omit<v.InferOutput<typeof settingsSchema>, 'heuristic'> & { heuristic?: Weights };

/** True when the data says it is a network player file. */
export function isNetworkSettings(data: unknown): boolean {
  return (data as { format?: unknown } | null)?.format === NETWORK_SETTINGS_FORMAT;
}

/** A network player file, its network's path made absolute (from the file's folder). */
export function loadNetworkSettings(path: string): NetworkSettings {
  const r = v.safeParse(settingsSchema, readJsonFile(path, 'network player file'));
  if (!r.success) throw new InputError(`network player file "${path}": ${describeIssues(r.issues)}`);
  const s = r.output;
  const heuristic = s.heuristic === undefined ? undefined : leafHeuristic(parseWeights(s.heuristic, `network player file "${path}": heuristic`), `network player file "${path}": heuristic`);
  return { ...s, heuristic, network: { ...s.network, file: resolve(dirname(resolve(path)), s.network.file) } };
}

/**
 * Weights a network's leaves can add: any heuristic but learned lines (their tables are not built there).
 * With stages, a decision adds the terms of its root board's stage, as tune2048's expectimax does.
 */
export function leafHeuristic(w: Weights, origin: string): Weights {
  if (w.learned) throw new InputError(`${origin}: weights with learned line tables are not added to a network (it learned its own)`);
  return w;
}

/** The file's content for settings whose network lies at `network.file`, to be written at `path` (the network named relative to it; null: as given). */
export function networkSettingsFile(path: string | null, settings: Omit<NetworkSettings, 'format' | 'version'>): NetworkSettings {
  const file = settings.network.file;
  const named = path !== null && isAbsolute(file) ? relative(dirname(resolve(path)), file) : file;
  return { format: NETWORK_SETTINGS_FORMAT, version: 1, ...settings, network: { file: named, sha256: settings.network.sha256 } } as NetworkSettings;
}

/**
 * Stage weights as the search applies them: none when every weight is 1. 1 × v is v to the bit, so such weights
 * are the network's own values, but weighted leaves go around the leaf cache (a tuned file that carries
 * [1, 1, 1, 1] searched ~1.5× the time a position): the player plays them unweighted, and gamesKey names them so.
 */
export function stageWeightsThatAct<W extends readonly number[]>(weights: W | undefined): W | undefined {
  return weights?.some((w) => w !== 1) ? weights : undefined;
}

/** What is wrong with stage weights for a network of `stages` stages, or null. */
export function stageWeightsProblem(weights: readonly number[], stages: number): string | null {
  if (weights.length !== stages) return `${weights.length} stage weight${weights.length === 1 ? '' : 's'} for a network of ${stages} stage${stages === 1 ? '' : 's'}`;
  const bad = weights.findIndex((w) => !(Number.isFinite(w) && w > 0));
  return bad >= 0 ? `stage weight ${bad} is ${weights[bad]}; a weight is a number above 0` : null;
}
