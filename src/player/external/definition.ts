/**
 * Where an external player is defined: a player file (`tune2048/player`: its name and the command that
 * starts it; `configs/players/NAME.json` for the ones named on the command line as `external:NAME`), or the
 * same fields inline in a run config's `fitness.player`. A relative program path and the working folder are
 * taken from the file's folder, so a definition works from any current directory.
 */
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import * as v from 'valibot';
import { CONFIGS_DIR } from '../../heuristic/weights';
import { InputError } from '../../util/errors';
import { readJsonFile } from '../../util/json-file';
import { describeIssues } from '../../util/valibot-issues';
import type { Launch } from '../spec';
import { NAME } from './protocol';
import { builtProgram, recipeHash } from './build';

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
  /**
   * How its program is built where it is missing (build.ts): a command run in its folder, "{program}" standing
   * for the file to write, e.g. ["cc", "-O2", "-o", "{program}", "player.c", "-lm"]. Built once into the cache.
   */
  build: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty'))), v.minLength(1, 'name the program that builds it'), v.check((b) => b.some((w) => w.includes('{program}')), 'must say where the program goes ({program})'))),
};

const playerFileSchema = v.strictObject({ format: v.literal(PLAYER_FORMAT), ...externalPlayerFields });

export interface ExternalPlayerDefinition {
  name: string;
  /** What runs: the command with its program's path absolute (or built into the cache: build.ts). */
  launch: Launch;
  nondeterministic: 'refuse' | 'warn';
  /** The definition as written, its paths absolute: what a run config stores, so a resume builds again where it must. */
  declared: { command: string[]; cwd: string; build?: string[] };
}

/** A definition's launch with its paths made absolute against `baseDir` (the file's or the config's folder); its program built if it must be. */
export function definitionAt(fields: { name: string; command: string[]; cwd?: string; timeoutSec: number; nondeterministic: 'refuse' | 'warn'; build?: string[] }, baseDir: string): ExternalPlayerDefinition {
  const cwd = resolve(baseDir, fields.cwd ?? '.');
  const [program, ...args] = fields.command;
  // "./player" or "bin/player" is relative to the definition; "python3" is found on PATH.
  const resolved = program.includes('/') && !isAbsolute(program) ? resolve(cwd, program) : program;
  const runs = fields.build && resolved.includes('/') && !existsSync(resolved) ? builtProgram(fields.name, resolved, fields.build, cwd) : resolved;
  return {
    name: fields.name,
    launch: { command: [runs, ...args], cwd, timeoutSec: fields.timeoutSec, ...(fields.build ? { sources: recipeHash(fields.build, cwd) } : {}) },
    nondeterministic: fields.nondeterministic,
    declared: { command: [resolved, ...args], cwd, ...(fields.build ? { build: fields.build } : {}) },
  };
}

/** Reads a player file. */
export function loadPlayerFile(path: string): ExternalPlayerDefinition {
  const data = readJsonFile(path, 'player file');
  const r = v.safeParse(playerFileSchema, data);
  if (!r.success) throw new InputError(`player file "${path}": ${describeIssues(r.issues)}`);
  const { format: _f, ...fields } = r.output;
  return definitionAt(fields, dirname(resolve(path)));
}

/**
 * The folders players are named from, first found first: those of $TUNE2048_PLAYERS (separated as PATH is),
 * the working folder's configs/players, then the package's own (the shipped examples).
 */
export function playerFolders(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string[] {
  const folders = [...(env.TUNE2048_PLAYERS ?? '').split(delimiter).filter(Boolean).map((d) => resolve(cwd, d)), resolve(cwd, 'configs', 'players'), PLAYERS_DIR];
  return folders.filter((d, i) => folders.indexOf(d) === i);
}

/** `external:NAME` → NAME.json in the first of playerFolders() that has it; `external:FILE` (a path) → that file. */
export function resolveExternalPlayer(ref: string): ExternalPlayerDefinition {
  const looksLikePath = ref.includes('/') || ref.endsWith('.json');
  if (looksLikePath) return loadPlayerFile(ref);
  const path = playerFolders().map((d) => join(d, `${ref}.json`)).find((p) => existsSync(p));
  if (!path) throw new InputError(`unknown external player "${ref}": a player file's path, or a name among ${listPlayers().join(', ') || 'none'} (the players of ${playerFolders().join(', ')}; TUNE2048_PLAYERS names more folders)`);
  return loadPlayerFile(path);
}

/** The names of the players in playerFolders(). */
export function listPlayers(): string[] {
  const names = playerFolders().flatMap((dir) => {
    try {
      return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
    } catch {
      return [];
    }
  });
  return [...new Set(names)].sort();
}
