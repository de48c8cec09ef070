/**
 * Files written whole or not at all: a write goes to `PATH.tmp-PID` beside its target and is renamed onto it
 * at the end, so the target is never half-written. A temporary file left by a killed process (kill -9) is
 * removed by the next write of the same target, and this process removes its own when it exits part way
 * (Ctrl-C during a long write).
 */
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pidAlive } from './proc';

export function temporaryFor(path: string): { tmp: string; release: () => void } {
  removeStaleTemporaries(path);
  const tmp = `${path}.tmp-${process.pid}`;
  const onExit = () => rmSync(tmp, { force: true });
  process.on('exit', onExit);
  return { tmp, release: () => process.off('exit', onExit) };
}

function removeStaleTemporaries(path: string): void {
  const dir = dirname(resolve(path));
  const prefix = `${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // the write will name the problem
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length));
    if (name.startsWith(prefix) && Number.isInteger(pid) && pid !== process.pid && !pidAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}
