/**
 * Commands the CLI suggests to the user ("resume it with: …"). Every hint must
 * work as printed, so it carries --db whenever the database is not the default,
 * and starts with the command that runs this tune2048 where the user is (cli()).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

/** The database every command uses unless given --db. */
export const DEFAULT_DB = 'db/tune2048.sqlite';

/** Quotes a word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The package's own folder (two levels above dist/util and src/util) and its command's script. */
const PACKAGE_ROOT = join(__dirname, '..', '..');
const MAIN = join(PACKAGE_ROOT, 'dist', 'cli', 'main.js');

function realpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** npm's own bin folders, which `npm run` and `npx` put before the user's PATH (the user's shell has none of them). */
const npmBinFolder = (dir: string) => /[\\/]node_modules[\\/]\.bin$/.test(dir) || /[\\/]node-gyp-bin$/.test(dir);

/**
 * How the user runs this tune2048 from the working folder, for every command the tool prints:
 * - "tune2048" when the user's PATH has a tune2048 that is this one (installed with npm install -g, or npm link);
 * - "npx tune2048" where npx finds this one: in its checkout, or a project that has it in node_modules;
 * - else "node /path/to/dist/cli/main.js", which works from anywhere.
 * TUNE2048_COMMAND, when set, is taken as it is (a wrapper script, an alias the user prefers).
 */
export function cli(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  if (env.TUNE2048_COMMAND) return env.TUNE2048_COMMAND;
  const main = realpath(MAIN);
  if (main === null) return 'tune2048'; // run from the sources (scripts under tsx): no built command to name
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || npmBinFolder(dir)) continue;
    const found = realpath(join(dir, 'tune2048'));
    if (found !== null) {
      if (found === main) return 'tune2048';
      break; // another tune2048 comes first on the PATH: the name would run that one
    }
  }
  // npx runs the bin of the nearest folder holding a package.json (or node_modules): this package itself, or a project depending on it.
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const hasPackage = existsSync(join(dir, 'package.json'));
    if (hasPackage || existsSync(join(dir, 'node_modules'))) {
      if (realpath(join(dir, 'node_modules', '.bin', 'tune2048')) === main) return 'npx tune2048';
      if (hasPackage && realpath(dir) === realpath(PACKAGE_ROOT) && packageName(dir) === 'tune2048') return 'npx tune2048';
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return `node ${shellWord(main)}`;
}

function packageName(dir: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name ?? null;
  } catch {
    return null;
  }
}

let cached: string | null = null;
/** cli() for this process (the PATH and working folder do not change while a command runs). */
export function cliName(): string {
  cached ??= cli();
  return cached;
}

/**
 * "tune2048 <args> [--db <path>]", ready to paste (the first word as cliName() says). A command that holds a path or any other value from the
 * user is given as its words, each quoted as it needs; a string is taken as it is (fixed words only).
 */
export function suggest(args: string | readonly string[], db?: string): string {
  const words = typeof args === 'string' ? args : args.map(shellWord).join(' ');
  return `${cliName()} ${words}${db !== undefined && db !== DEFAULT_DB ? ` --db ${shellWord(db)}` : ''}`;
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
