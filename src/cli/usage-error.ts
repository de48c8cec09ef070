/**
 * The argument parser's usage errors in the tool's own words: one "tune2048:" line naming the option or
 * argument at fault, as every other error is (commander prints "error: option '--max-cost <nodes>' cannot
 * be used with option …", its suggestion on a second line).
 */
export function usageErrorLine(text: string): string {
  const lines = text.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  let message = lines.map((l) => l.replace(/^error: /, '')).join(' ');
  // An option as the user types it: '-o, --out <file>' → --out.
  message = message.replace(/'(?:-\w, )?(--?[\w-]+)(?: <[^>]*>| \[[^\]]*\])?'/g, '$1');
  message = message
    .replace(/^option (\S+) cannot be used with option (\S+)/, '$1 and $2 exclude each other: give one of them')
    .replace(/^required option (\S+) not specified/, '$1 is required')
    .replace(/^missing required argument '?([^' ]+)'?/, 'the argument <$1> is missing')
    .replace(/^option (\S+) argument missing/, '$1 needs a value')
    .replace(/^(too many arguments.*)$/, '$1 (a path with spaces goes in quotes)')
    .replace(/\(Did you mean (.*)\?\)$/, '(did you mean $1?)');
  return `tune2048: ${message}\n`;
}
