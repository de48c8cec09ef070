/** Writing the files users name with --out: every failure is one line naming the path. */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describeFsError, InputError } from '../util/errors';

export interface OutputOptions {
  /** The option that named the path, for the messages (default --out). */
  option?: string;
  /** Make a missing folder (default paths only). */
  createFolder?: boolean;
  /** The command's --force: an existing file may be overwritten. */
  force?: boolean;
}

/**
 * Writes `text` to `path`. A folder given as the file, a missing folder (unless `createFolder`, for
 * default paths) or an existing file (unless `force`) is refused before anything is written.
 */
export function writeOutputFile(path: string, text: string | Uint8Array, o: OutputOptions = {}): void {
  checkOutputPath(path, o);
  const option = o.option ?? '--out';
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new InputError(`${option} "${path}": cannot write: ${describeFsError(e)}`);
  }
}

/**
 * The checks of writeOutputFile, for commands that should refuse a bad path before long work: no command
 * overwrites a file without --force (a network exported over another breaks every player file naming it).
 */
export function checkOutputPath(path: string, { option = '--out', createFolder = false, force = false }: OutputOptions = {}): void {
  const folder = dirname(resolve(path));
  try {
    if (statSync(path).isDirectory()) throw new InputError(`${option} "${path}" is a folder; name a file inside it`);
    if (!force) throw new InputError(`${option} "${path}" exists; add --force to overwrite it, or name another file`);
  } catch (e) {
    if (e instanceof InputError) throw e;
  }
  let folderExists = true;
  try {
    folderExists = statSync(folder).isDirectory();
    if (!folderExists) throw new InputError(`${option} "${path}": "${dirname(path)}" is not a folder`);
  } catch (e) {
    if (e instanceof InputError) throw e;
    folderExists = false;
  }
  if (!folderExists) {
    if (!createFolder) throw new InputError(`${option} "${path}": the folder "${dirname(path)}" does not exist`);
    try {
      mkdirSync(folder, { recursive: true });
    } catch (e) {
      throw new InputError(`${option} "${path}": cannot create the folder "${dirname(path)}": ${describeFsError(e)}`);
    }
  }
}
