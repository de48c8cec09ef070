/**
 * Commands the CLI suggests to the user ("resume it with: …"). Every hint must
 * work as printed, so it carries --db whenever the database is not the default.
 */

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
