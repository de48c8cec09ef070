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

/** "tune2048 <args> [--db <path>]", ready to paste. */
export function suggest(args: string, db?: string): string {
  return `tune2048 ${args}${db !== undefined && db !== DEFAULT_DB ? ` --db ${shellWord(db)}` : ''}`;
}
