/**
 * The suite's temporary folder: every test file, and every process a test starts, makes its files under one
 * folder of its own (TMPDIR, which os.tmpdir() and child processes follow), removed when the suite ends,
 * failed tests included. The end also checks the system's temporary folder: a tune2048-* folder that was not
 * there before the suite began was made by code that ignores TMPDIR, and fails the run, named.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const system = tmpdir();
  const ours = (names: string[]) => names.filter((n) => n.startsWith('tune2048'));
  const before = new Set(ours(readdirSync(system)));
  const dir = mkdtempSync(join(system, 'tune2048-suite-'));
  chmodSync(dir, 0o1777); // some tests run the CLI as an unprivileged user
  process.env.TMPDIR = dir;
  return () => {
    process.env.TMPDIR = system;
    rmSync(dir, { recursive: true, force: true });
    const left = ours(readdirSync(system)).filter((n) => !before.has(n));
    if (left.length > 0) {
      // vitest reports an error thrown here but still exits 0: the exit code is set as well.
      process.exitCode = 1;
      throw new Error(`the suite left ${left.length} folder(s) in ${system}, made outside TMPDIR: ${left.join(', ')}`);
    }
  };
}
