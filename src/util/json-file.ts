/** Reading the JSON files users name (weights, configs): every failure is one line naming the file. */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describeFsError, InputError } from './errors';
import { didYouMean } from './valibot-issues';
import { shellWord } from './command-hint';

/** Reads a text file the user names (a template), with a one-line error naming the file on any failure. */
export function readTextFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${what} "${path}": ${describeFsError(e)}${(e as NodeJS.ErrnoException).code === 'ENOENT' ? siblingGuess(path) : ''}`);
  }
}

/** Reads a JSON file, with a one-line error naming the file on any failure. */
export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    // A network or line-table file (binary, up to gigabytes) given where JSON goes: say what it is, read none of it.
    if (fileStartsWith(path, BINARY_MAGIC)) throw new InputError(`${what} "${path}" is a tune2048 network or line-table file, not JSON: a network plays as --player ${shellWord(`network:${path}`)} (compare: ${shellWord(`network:${path}`)})`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read ${what} "${path}": ${describeFsError(e)}${(e as NodeJS.ErrnoException).code === 'ENOENT' ? siblingGuess(path) : ''}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    // V8 quotes the text around the error: a binary file's would print raw bytes.
    throw new InputError(`${what} "${path}" is not valid JSON: ${(e as Error).message.replace(/[^\x20-\x7e]/g, '?')}`);
  }
}

/** The first bytes of tune2048's binary files (networks, line tables). */
const BINARY_MAGIC = 'tune2048';

/** True when the file at `path` begins with `magic` (false when it cannot be read, a folder included: the caller's read says why). */
export function fileStartsWith(path: string, magic: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(magic.length);
    return readSync(fd, head, 0, magic.length, 0) === magic.length && head.toString('latin1') === magic;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** A missing file's likely name among the files of its folder: " (did you mean "configs/quick.json"?)", or "". */
function siblingGuess(path: string): string {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return '';
  }
  const guess = didYouMean(basename(path), names);
  return guess && guess.replace(/"(.*)"/, (_, name: string) => `"${join(dirname(path), name)}"`);
}
