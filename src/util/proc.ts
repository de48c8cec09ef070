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
