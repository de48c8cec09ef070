/** Runs the CLI from source (through tsx), as a user would run the built one. */
import { spawn, spawnSync, SpawnSyncOptions } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: SpawnSyncOptions = {}): CliResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    ...options,
  });
  return { code: r.status ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

export interface RunningCli {
  child: ReturnType<typeof spawn>;
  done: Promise<CliResult>;
}

/** Starts the CLI in the background (for kill and Ctrl-C tests). */
export function startCli(args: string[]): RunningCli {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 + 9 : -1), stdout, stderr })));
  return { child, done };
}

/** Polls until the predicate holds (or throws after the timeout). */
export async function waitFor(predicate: () => boolean, timeoutMs = 60_000, everyMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
