/** What makes an external player's program this program: the files its command names, hashed. */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Launch } from '../spec';

/**
 * The files a launch names — its command's words that are files in its folder or absolute paths, the program
 * or script among them — hashed together (16 hex digits). An interpreter named by word (python3) is not read:
 * the script is what a player's author edits. Their contents only, in the command's order, never where they
 * lie: a remote worker starts the same program from its own path (`worker --player NAME=COMMAND`).
 */
export function programHash(launch: Launch): string {
  const hash = createHash('sha256');
  for (const word of launch.command) {
    const path = isAbsolute(word) ? word : join(launch.cwd, word);
    try {
      if (!statSync(path).isFile()) continue;
      const content = readFileSync(path);
      hash.update(`${content.length}\n`).update(content);
    } catch {
      // not a file: an interpreter's name, a flag, a value
    }
  }
  return hash.digest('hex').slice(0, 16);
}
