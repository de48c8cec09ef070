/**
 * An external player's parameter values as a file (`tune2048/player-params`): what `export` writes for a
 * run of an external player, what a run may start from (space.start) and what play, compare and hint take
 * as a contender. It names the player and version it is for: values of another program mean nothing.
 */
import * as v from 'valibot';
import { InputError } from '../../util/errors';
import { readJsonFile } from '../../util/json-file';
import { describeIssues } from '../../util/valibot-issues';
import type { Announcement } from './protocol';

export const PARAMS_FORMAT = 'tune2048/player-params';

const paramsFileSchema = v.object({
  format: v.literal(PARAMS_FORMAT),
  player: v.string(),
  version: v.string(),
  params: v.record(v.string(), v.pipe(v.number(), v.finite())),
  /**
   * The player the values were tuned with, as its run ran it (export writes it): a parameter file alone is a
   * contender even where no player file of its name is found. Paths absolute.
   */
  definition: v.optional(v.object({ command: v.array(v.string()), cwd: v.string(), build: v.optional(v.array(v.string())), timeoutSec: v.optional(v.number()) })),
  provenance: v.optional(v.unknown()),
});

export type PlayerParamsFile = v.InferOutput<typeof paramsFileSchema>;

/** True when the file says it is a parameter file (so a contender's file can be told from a weights file). */
export function isParamsFile(data: unknown): boolean {
  return (data as { format?: unknown } | null)?.format === PARAMS_FORMAT;
}

export function parseParamsFile(data: unknown, origin: string): PlayerParamsFile {
  const r = v.safeParse(paramsFileSchema, data);
  if (!r.success) throw new InputError(`${origin}: ${describeIssues(r.issues)}`);
  return r.output;
}

export function loadParamsFile(path: string): PlayerParamsFile {
  return parseParamsFile(readJsonFile(path, 'parameter file'), `parameter file "${path}"`);
}

/**
 * Every announced parameter's value: the file's, the announced default for any it leaves out. Refuses a file
 * of another player or version, an unknown parameter or a value outside the announced bounds.
 */
export function paramsFor(announcement: Announcement, file: PlayerParamsFile, origin: string): Record<string, number> {
  if (file.player !== announcement.name) throw new InputError(`${origin} is for the player "${file.player}", not "${announcement.name}"`);
  if (file.version !== announcement.version) throw new InputError(`${origin} is for version ${file.version} of ${file.player}; the program announces version ${announcement.version}`);
  const values: Record<string, number> = {};
  for (const p of announcement.params) values[p.name] = p.default;
  for (const [name, value] of Object.entries(file.params)) {
    const p = announcement.params.find((q) => q.name === name);
    if (!p) throw new InputError(`${origin}: "${name}" is not a parameter of ${announcement.name} (it announces ${announcement.params.map((q) => q.name).join(', ') || 'none'})`);
    if (value < p.min || value > p.max) throw new InputError(`${origin}: ${name} = ${value} is outside ${announcement.name}'s bounds [${p.min}, ${p.max}]`);
    values[name] = value;
  }
  return values;
}
