/**
 * How `--player` and a comparison's contender name a player that is not built in: "network:FILE" and
 * "external:NAME". Only the names, apart from the modules that load such players, so a command reads
 * its options without loading what it will not play.
 */
import { cliName } from '../util/command-hint';
import { InputError } from '../util/errors';

export const NETWORK_PREFIX = 'network:';
export const EXTERNAL_PREFIX = 'external:';

/** "network:FILE" → FILE; null otherwise. */
export function networkFileOf(arg: string): string | null {
  if (!arg.startsWith(NETWORK_PREFIX)) return null;
  const file = arg.slice(NETWORK_PREFIX.length);
  if (file === '') throw new InputError(`network:FILE needs a network file (${cliName()} learn export RUN --out FILE writes one)`);
  return file;
}

/** The player ref of `--player`: "external:NAME" → NAME; null for a built-in kind. */
export function externalName(player: string): string | null {
  if (!player.startsWith(EXTERNAL_PREFIX)) return null;
  const name = player.slice(EXTERNAL_PREFIX.length);
  if (name === '') throw new InputError('--player external:NAME needs the player\'s name or player file (external:greedy-py)');
  return name;
}
