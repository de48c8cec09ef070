/** Runs the CLI from source (through tsx), as a user would run the built one. */
import { spawnSync, SpawnSyncOptions } from 'node:child_process';
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
