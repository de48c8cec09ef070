/**
 * Where an external player is defined: a player file (`tune2048/player`: its name and the command that
 * starts it; `configs/players/NAME.json` for the ones named on the command line as `external:NAME`), or the
 * same fields inline in a run config's `fitness.player`. A relative program path and the working folder are
 * taken from the file's folder, so a definition works from any current directory.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import * as v from 'valibot';
import { CONFIGS_DIR } from '../../heuristic/weights';
import { InputError } from '../../util/errors';
import { readJsonFile } from '../../util/json-file';
import { describeIssues } from '../../util/valibot-issues';
import type { Launch } from '../spec';
import { NAME } from './protocol';

export const PLAYER_FORMAT = 'tune2048/player';
export const PLAYERS_DIR = join(CONFIGS_DIR, 'players');

/** The fields of a definition (run configs use them inside fitness.player, with kind "external"). */
export const externalPlayerFields = {
  /** The name the program announces (checked when it starts). */
  name: v.pipe(v.string(), v.regex(NAME, 'must be one word (letters, digits, _ . -)')),
  /** The program and its arguments, no shell: ["python3", "player.py", "--depth", "1"]. */
  command: v.pipe(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty'))), v.minLength(1, 'name the program to run')),
  /** Its working folder (default: the definition's folder). */
  cwd: v.optional(v.string()),
  /** Seconds it may take to announce itself and to answer one board. */
  timeoutSec: v.optional(v.pipe(v.number(), v.gtValue(0), v.maxValue(86400)), 60),
  /** A player that plays the same seed twice differently (checked once at the start of a run): refuse the run, or warn and go on. */
  nondeterministic: v.optional(v.picklist(['refuse', 'warn']), 'refuse'),
};

const playerFileSchema = v.strictObject({ format: v.literal(PLAYER_FORMAT), ...externalPlayerFields });

export interface ExternalPlayerDefinition {
  name: string;
  launch: Launch;
  nondeterministic: 'refuse' | 'warn';
}

/** A definition's launch with its paths made absolute against `baseDir` (the file's or the config's folder). */
export function definitionAt(fields: { name: string; command: string[]; cwd?: string; timeoutSec: number; nondeterministic: 'refuse' | 'warn' }, baseDir: string): ExternalPlayerDefinition {
  const cwd = resolve(baseDir, fields.cwd ?? '.');
  const [program, ...args] = fields.command;
  // "./player" or "bin/player" is relative to the definition; "python3" is found on PATH.
  const resolved = program.includes('/') && !isAbsolute(program) ? resolve(cwd, program) : program;
  return { name: fields.name, launch: { command: [resolved, ...args], cwd, timeoutSec: fields.timeoutSec }, nondeterministic: fields.nondeterministic };
}

/** Reads a player file. */
export function loadPlayerFile(path: string): ExternalPlayerDefinition {
  const data = readJsonFile(path, 'player file');
  const r = v.safeParse(playerFileSchema, data);
  if (!r.success) throw new InputError(`player file "${path}": ${describeIssues(r.issues)}`);
  const { format: _f, ...fields } = r.output;
  return definitionAt(fields, dirname(resolve(path)));
}

/** `external:NAME` → configs/players/NAME.json; `external:FILE` (a path) → that file. */
export function resolveExternalPlayer(ref: string): ExternalPlayerDefinition {
  const looksLikePath = ref.includes('/') || ref.endsWith('.json');
  if (looksLikePath) return loadPlayerFile(ref);
  const path = join(PLAYERS_DIR, `${ref}.json`);
  if (!existsSync(path)) throw new InputError(`unknown external player "${ref}" (a player file's path, or one of configs/players: ${listPlayers().join(', ') || 'none'})`);
  return loadPlayerFile(path);
}

export function listPlayers(): string[] {
  try {
    return readdirSync(PLAYERS_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  } catch {
    return [];
  }
}
