/** What makes an external player's program this program: the files its command names, hashed. */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import type { Launch } from '../spec';

/** Interpreters a command may name by path (.venv/bin/python, /usr/bin/node): another machine's is another binary. */
const INTERPRETER = /^(python|pypy|node|nodejs|bun|deno|ruby|perl|php|java|julia|Rscript|bash|sh|zsh)[\d.]*$/;

/**
 * The files a launch names — its command's words that are files in its folder or absolute paths, the program
 * or script among them — hashed together (16 hex digits). An interpreter is not read, named by word (python3)
 * or by path (.venv/bin/python: another machine's is another binary): the script is what a player's author
 * edits. Their contents only, in the command's order, never where they lie. A built program (a player file's
 * "build") is its recipe and sources (launch.sources) in place of the binary a compiler made of them, with the
 * files its arguments name.
 */
export function programHash(launch: Launch): string {
  const hash = createHash('sha256');
  const [first, ...rest] = launch.command;
  const programWords = launch.sources !== undefined || INTERPRETER.test(basename(first)) ? rest : launch.command;
  if (launch.sources !== undefined) hash.update(`sources ${launch.sources}\n`);
  for (const word of programWords) {
    const path = isAbsolute(word) ? word : join(launch.cwd, word);
    let content: Buffer;
    try {
      if (!statSync(path).isFile()) continue;
      content = readFileSync(path);
    } catch {
      continue; // not a file: a flag, a value, a module name
    }
    hash.update(`${content.length}\n`).update(content);
  }
  return hash.digest('hex').slice(0, 16);
}
