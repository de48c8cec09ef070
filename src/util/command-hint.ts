/**
 * Commands the CLI suggests to the user ("resume it with: …"). Every hint must
 * work as printed, so it carries --db whenever the database is not the default.
 */
import { existsSync } from 'node:fs';

/** The database every command uses unless given --db. */
export const DEFAULT_DB = 'db/tune2048.sqlite';

/** Quotes a word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * "tune2048 <args> [--db <path>]", ready to paste. A command that holds a path or any other value from the
 * user is given as its words, each quoted as it needs; a string is taken as it is (fixed words only).
 */
export function suggest(args: string | readonly string[], db?: string): string {
  const words = typeof args === 'string' ? args : args.map(shellWord).join(' ');
  return `tune2048 ${words}${db !== undefined && db !== DEFAULT_DB ? ` --db ${shellWord(db)}` : ''}`;
}

/**
 * A file name for a printed hint's --out that no file in the working folder has: `stem.ext`, else
 * `stem-2.ext`, `stem-3.ext`, … (the hint works as printed: an existing file would be refused without --force).
 */
export function freeOutputName(stem: string, ext: string): string {
  for (let k = 1; ; k++) {
    const name = k === 1 ? `${stem}.${ext}` : `${stem}-${k}.${ext}`;
    if (!existsSync(name)) return name;
  }
}
