/** Writing the files users name with --out: every failure is one line naming the path. */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describeFsError, InputError } from '../util/errors';

/**
 * Writes `text` to `path`. A folder given as the file, or a missing folder (unless `createFolder`,
 * for default paths), is refused before anything is written.
 */
export function writeOutputFile(path: string, text: string | Uint8Array, option = '--out', createFolder = false): void {
  checkOutputPath(path, option, createFolder);
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new InputError(`${option} "${path}": cannot write: ${describeFsError(e)}`);
  }
}

/** The checks of writeOutputFile, for commands that should refuse a bad path before long work. */
export function checkOutputPath(path: string, option = '--out', createFolder = false): void {
  const folder = dirname(resolve(path));
  try {
    if (statSync(path).isDirectory()) throw new InputError(`${option} "${path}" is a folder; name a file inside it`);
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

/** Refuses an existing output file unless --force (a folder is left to checkOutputPath, which names it). */
export function refuseExistingOutput(path: string, force?: boolean, option = '--out'): void {
  if (!force && existsSync(path) && !statSync(path).isDirectory()) throw new InputError(`${option} "${path}" exists; add --force to overwrite it, or name another file`);
}
