/** Reading the JSON files users name (weights, configs): every failure is one line naming the file. */
import { readFileSync } from 'node:fs';
import { InputError } from './errors';

/** Reads a JSON file, with a one-line error naming the file on any failure. */
export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${what} "${path}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${what} "${path}" is not valid JSON: ${(e as Error).message}`);
  }
}
