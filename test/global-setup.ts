/**
 * The suite's temporary folder: every test file, and every process a test starts, makes its files under one
 * folder of its own (TMPDIR, which os.tmpdir() and child processes follow), removed when the suite ends,
 * failed tests included. The end also checks the system's temporary folder: a tune2048-* folder that was not
 * there before the suite began was made by code that ignores TMPDIR, and fails the run, named.
 *
 * First, the CLI the tests run (dist/, test/helpers/cli.ts) is built from the sources if any is newer.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
// What tsconfig.build.json leaves out of dist/ (the web page, the WebAssembly sources), as test/package-modules.test.ts reads it.
const EXCLUDED = (JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { exclude: string[] }).exclude.map((e) => join(ROOT, e));

/**
 * The newest modification time of the files under `dir` that tsconfig.build.json compiles: TypeScript and JSON
 * sources only (build:native writes its object files under src/wasm/native/build/ on every npm test, and they
 * would otherwise make dist/ look stale every time).
 */
function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((e) => {
      const path = join(dir, e.name);
      if (!e.isDirectory()) return /\.(ts|json)$/.test(e.name) ? statSync(path).mtimeMs : 0;
      return EXCLUDED.includes(path) ? 0 : newest(path);
    }),
  );
}

function buildCliIfStale(): void {
  const built = join(ROOT, 'dist', 'cli', 'main.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(ROOT, 'src'))) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
}

/** The entries of the home folder and of its .config, .cache and .local/share: what a test must not add to. */
function homeEntries(): Set<string> {
  const home = homedir();
  const list = (dir: string) => {
    try {
      return readdirSync(join(home, dir)).map((name) => join(dir, name));
    } catch {
      return [];
    }
  };
  return new Set([...list(''), ...list('.config'), ...list('.cache'), ...list(join('.local', 'share'))]);
}

export default function setup(): () => void {
  buildCliIfStale();
  // dist/ is now these sources compiled: worker processes and threads of code run from the sources run it
  // (src/util/thread-entry.ts) instead of compiling every module again with tsx as each starts.
  process.env.TUNE2048_COMPILED = '1';
  const homeBefore = homeEntries();
  const system = tmpdir();
  const ours = (names: string[]) => names.filter((n) => n.startsWith('tune2048'));
  const before = new Set(ours(readdirSync(system)));
  const dir = mkdtempSync(join(system, 'tune2048-suite-'));
  chmodSync(dir, 0o1777); // some tests run the CLI as an unprivileged user
  process.env.TMPDIR = dir;
  // The CLI as installed (npm install -g links its bin into a PATH folder): the commands it prints start with
  // "tune2048" and run as printed. Tests of a checkout without it (npx) and of elsewhere take it off the PATH.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  chmodSync(bin, 0o755);
  chmodSync(join(ROOT, 'dist', 'cli', 'main.js'), 0o755);
  symlinkSync(join(ROOT, 'dist', 'cli', 'main.js'), join(bin, 'tune2048'));
  process.env.PATH = `${bin}:${process.env.PATH ?? ''}`;
  process.env.TUNE2048_TEST_BIN = bin;
  // Players built on first use (src/player/external/build.ts) go to the suite's folder, not the user's cache.
  process.env.TUNE2048_CACHE = join(dir, 'cache');
  return () => {
    process.env.TMPDIR = system;
    process.env.PATH = (process.env.PATH ?? '').split(':').filter((d) => d !== bin).join(':');
    rmSync(dir, { recursive: true, force: true });
    const left = ours(readdirSync(system)).filter((n) => !before.has(n));
    const inHome = [...homeEntries()].filter((e) => !homeBefore.has(e));
    if (left.length > 0 || inHome.length > 0) {
      // vitest reports an error thrown here but still exits 0: the exit code is set as well.
      process.exitCode = 1;
      if (left.length > 0) throw new Error(`the suite left ${left.length} folder(s) in ${system}, made outside TMPDIR: ${left.join(', ')}`);
      throw new Error(`the suite left ${inHome.length} new entr${inHome.length === 1 ? 'y' : 'ies'} in the home folder ${homedir()}: ${inHome.join(', ')}`);
    }
  };
}
