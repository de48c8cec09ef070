/**
 * External players as the command line names them: `--player external:NAME` (NAME a player in
 * configs/players or a player file's path) with `--params FILE` or its defaults, and a comparison's
 * contender `external:NAME`, `external:NAME@PARAMS` or a parameter file (its `player` names the player).
 * Each starts the program once to read what it announces.
 */
import { basename } from 'node:path';
import { programHash } from './program-hash';
import { readJsonFile } from '../../util/json-file';
import { InputError } from '../../util/errors';
import type { ExternalPlayerSpec } from '../spec';
import { definitionAt, resolveExternalPlayer, type ExternalPlayerDefinition } from './definition';
import { isParamsFile, loadParamsFile, paramsFor, parseParamsFile, type PlayerParamsFile } from './params-file';
import { readAnnouncement, replayDiffers } from './play';
import { announcementHash, defaultParams } from './protocol';
import { EXTERNAL_PREFIX } from '../player-ref';

/**
 * The spec of a defined player with a parameter file's values (or its defaults), and the hash of the files its
 * command names (its program): a program changed on disk without a new version line is another player, whose
 * games compare --db does not take for its old ones'.
 */
export async function externalPlayerSpec(definition: ExternalPlayerDefinition, paramsPath?: string): Promise<ExternalPlayerSpec> {
  const announcement = await readAnnouncement(definition.name, definition.launch);
  const params = paramsPath ? paramsFor(announcement, loadParamsFile(paramsPath), `parameter file "${paramsPath}"`) : defaultParams(announcement);
  return { kind: 'external', external: { name: announcement.name, version: announcement.version, announced: announcementHash(announcement), params, launch: definition.launch, program: programHash(definition.launch) } };
}

/**
 * What tune checks before a run (run-problem.ts, checkReplay), for compare and play: the program plays a
 * fixed seed twice alike, or its figures are not a function of the seed. Refuses in one line, or (the player
 * file says "nondeterministic": "warn") returns the warning to print; null when it replays.
 */
export async function checkExternalReplay(spec: ExternalPlayerSpec, nondeterministic: 'refuse' | 'warn'): Promise<string | null> {
  const differs = await replayDiffers(spec.external, spec.external.launch!, EXTERNAL_REPLAY_SEED);
  if (!differs) return null;
  const message = `player ${spec.external.name} ${differs}: its games are not a function of the seed, so its figures cannot be replayed or paired`;
  if (nondeterministic === 'refuse') throw new InputError(`${message} (its player file's "nondeterministic": "warn" plays it anyway)`);
  return `warning: ${message}; playing it anyway (nondeterministic: "warn")`;
}

/** The seed the replay check plays twice (tune's, run-problem.ts). */
export const EXTERNAL_REPLAY_SEED = 20_480_000;

/** The players a command line's contenders name as external:NAME or external:NAME@PARAMS (for the parameter files beside them). */
export function namedExternalPlayers(args: readonly string[]): ExternalPlayerDefinition[] {
  return args.flatMap((arg) => {
    if (!arg.startsWith(EXTERNAL_PREFIX)) return [];
    const [name] = splitAt(arg.slice(EXTERNAL_PREFIX.length));
    return name === '' ? [] : [resolveExternalPlayer(name)];
  });
}

/**
 * A comparison contender, if it names an external player (null: it is a weights file or preset). A parameter
 * file alone plays with the player of its name among `named` (the command's other contenders, which may give
 * a player file's path), else the one registered in configs/players.
 */
export async function externalContender(arg: string, named: readonly ExternalPlayerDefinition[] = []): Promise<{ label: string; spec: ExternalPlayerSpec; nondeterministic: 'refuse' | 'warn' } | null> {
  if (arg.startsWith(EXTERNAL_PREFIX)) {
    const [name, paramsPath] = splitAt(arg.slice(EXTERNAL_PREFIX.length));
    if (name === '') throw new InputError(`contender "${arg}": name the player (external:NAME or external:NAME@PARAMS)`);
    const definition = resolveExternalPlayer(name);
    const spec = await externalPlayerSpec(definition, paramsPath);
    // Named by its player file when given one (two files may start one program two ways), else by its name.
    const player = name.includes('/') || name.endsWith('.json') ? basename(name, '.json') : spec.external.name;
    return { label: externalLabel(player, paramsPath), spec, nondeterministic: definition.nondeterministic };
  }
  if (!arg.endsWith('.json')) return null;
  const data = readJsonFile(arg, 'weights or parameter file');
  if (!isParamsFile(data)) return null;
  const file = parseParamsFile(data, `parameter file "${arg}"`);
  const definition = playerOfParamsFile(file, named);
  const spec = await externalPlayerSpec(definition, arg);
  return { label: externalLabel(spec.external.name, arg), spec, nondeterministic: definition.nondeterministic };
}

/** The player a parameter file plays with: one the command names, else one found by its name, else the one the file itself records. */
function playerOfParamsFile(file: PlayerParamsFile, named: readonly ExternalPlayerDefinition[]): ExternalPlayerDefinition {
  const found = named.find((d) => d.name === file.player);
  if (found) return found;
  try {
    return resolveExternalPlayer(file.player);
  } catch (e) {
    if (!file.definition) throw e;
    const { command, cwd, build, timeoutSec } = file.definition;
    return definitionAt({ name: file.player, command, cwd, timeoutSec: timeoutSec ?? 60, nondeterministic: 'refuse', ...(build ? { build } : {}) }, cwd);
  }
}

/** How tables name an external player: its name, and the parameter file it plays with (none: its defaults). */
export function externalLabel(player: string, paramsPath?: string): string {
  return paramsPath ? `${player}@${basename(paramsPath)}` : player;
}

function splitAt(s: string): [string, string | undefined] {
  const at = s.indexOf('@');
  return at < 0 ? [s, undefined] : [s.slice(0, at), s.slice(at + 1)];
}
