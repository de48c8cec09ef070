/**
 * Runs the CLI as a user runs it: the built one (dist/, compiled by tsc from the sources; the suite's setup,
 * test/global-setup.ts, builds it first whenever a source is newer). Not through tsx: esbuild turns every
 * imported function into a getter call, which makes the TypeScript hot paths (games, line tables, the
 * worker processes that play them) about 4× slower and the suite minutes longer.
 */
import { spawn, spawnSync, SpawnSyncOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
// By its absolute path, so the CLI runs from any folder (a README tour runs in an empty one).
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A cap on a synchronous command: only against a hang, never a measure of the work (a busy machine runs the
 * README's quick tune for minutes); a command stopped by it says so in its stderr, never as a CLI error.
 */
const HANG_CAP_MS = 1_500_000;

function result(r: ReturnType<typeof spawnSync>): CliResult {
  const stopped = r.error ? `\n[test harness: the command did not end: ${r.error.message}]` : '';
  return { code: r.status ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) + stopped };
}

export function runCli(args: string[], options: SpawnSyncOptions = {}): CliResult {
  return result(spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: HANG_CAP_MS, ...options }));
}

/**
 * Runs a command the CLI printed through bash exactly as printed: "tune2048 …" (the suite's PATH has this CLI
 * as tune2048, as an installed one: test/global-setup.ts), "npx tune2048 …" or "node …/main.js …".
 */
export function runPrinted(command: string, options: SpawnSyncOptions = {}): CliResult {
  if (!/^(tune2048|npx tune2048|node \S+main\.js) /.test(command)) throw new Error(`not a tune2048 command: ${command}`);
  return result(spawnSync('bash', ['-c', command], { cwd: ROOT, encoding: 'utf8', timeout: HANG_CAP_MS, ...options }));
}

export interface RunningCli {
  child: ReturnType<typeof spawn>;
  done: Promise<CliResult>;
}

/** Starts the CLI in the background (for kill and Ctrl-C tests). */
/** `detached`: the CLI leads a process group of its own, as a shell's foreground job does (kill(-pid) is then a terminal's Ctrl-C). */
export function startCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; detached?: boolean } = {}): RunningCli {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 + 9 : -1), stdout, stderr })));
  return { child, done };
}

/**
 * Polls until the predicate holds (an event: a stored row, a process gone). The timeout is only a
 * safety net against a hang, far above what the event takes even on a loaded machine.
 */
export async function waitFor(predicate: () => boolean, timeoutMs = 240_000, everyMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Pids of the live child processes of `pid` (from /proc), e.g. a command's workers. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The worker processes of a command: its children running worker-farm's child module.
 */
export function workersOf(pid: number): number[] {
  return childrenOf(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('worker-farm');
    } catch {
      return false;
    }
  });
}

/** Is the process alive (not gone, not a zombie)? */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits for a line on the running command's stdout or stderr matching `pattern`. */
export function waitForOutput(run: RunningCli, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d;
      const match = new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(seen);
      if (match) {
        run.child[stream]!.off('data', onData);
        resolve(match);
      }
    };
    run.child[stream]!.on('data', onData);
    run.done.then((r) => reject(new Error(`the command ended (code ${r.code}) before ${pattern} on ${stream}: ${r.stderr.slice(-500)}`)));
  });
}
