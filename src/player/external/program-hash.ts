/** What makes an external player's program this program: the files its command names, hashed. */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Launch } from '../spec';

/**
 * The files a launch names — its command's words that are files in its folder or absolute paths, the program
 * or script among them — hashed together (16 hex digits). An interpreter named by word (python3) is not read:
 * the script is what a player's author edits; nor is the first of several files (an interpreter given by path,
 * .venv/bin/python myai.py: another machine's is another binary). Their contents only, in the command's order,
 * never where they lie: a remote worker starts the same program from its own path. A built program (a player
 * file's "build") is its recipe and sources (launch.sources), not the binary a compiler made of them.
 */
export function programHash(launch: Launch): string {
  const hash = createHash('sha256');
  if (launch.sources !== undefined) return hash.update(`sources ${launch.sources}`).digest('hex').slice(0, 16);
  const files = launch.command.map((word) => (isAbsolute(word) ? word : join(launch.cwd, word))).filter((path) => {
    try {
      return statSync(path).isFile();
    } catch {
      return false; // not a file: an interpreter's name, a flag, a value
    }
  });
  for (const path of files.length > 1 ? files.slice(1) : files) {
    const content = readFileSync(path);
    hash.update(`${content.length}\n`).update(content);
  }
  return hash.digest('hex').slice(0, 16);
}
