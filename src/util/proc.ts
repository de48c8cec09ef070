/** Reading a process's state from Linux's /proc. */
import { readFileSync } from 'node:fs';

/**
 * The fields of /proc/<pid>/stat after the parenthesised command name (which may itself hold spaces
 * and parentheses): [0] the state letter (R, S, Z…), [1] the parent pid, … Null without /proc or process.
 */
export function procStat(pid: number | 'self'): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Is the process alive? A zombie (exited, not yet reaped by its parent) holds nothing. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (stat) return stat[0] !== 'Z' && stat[0] !== 'X'; // zombie or dead
  return true; // no /proc (not Linux): kill(pid, 0) said it exists
}
