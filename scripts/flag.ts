/** A script's command-line flag: the word after `name` in process.argv, or the fallback. */
export function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}
