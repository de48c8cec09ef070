/**
 * Does this worker still have its parent? A worker runs whole batches
 * synchronously, so it cannot hear 'disconnect' until a batch ends (minutes at
 * depth 3); the game loop asks this instead. When the parent dies the child is
 * re-parented at once, so its parent pid changes. Checked at most every 200 ms.
 * The parent's pid comes from the parent (farm.ts): a parent killed while this
 * process was still starting has already re-parented it, and process.ppid would
 * name the new parent as the original one (its workers then played on for minutes).
 */
import { procStat } from '../util/proc';

const ORIGINAL_PARENT = Number(process.env.TUNE2048_PARENT_PID) || process.ppid;
const CHECK_EVERY_MS = 200;
let lastCheck = performance.now();

function currentParent(): number {
  const stat = procStat('self');
  if (stat) return Number(stat[1]);
  try {
    process.kill(ORIGINAL_PARENT, 0); // no /proc (not Linux)
    return ORIGINAL_PARENT;
  } catch {
    return -1;
  }
}

export function parentGone(): boolean {
  const now = performance.now();
  if (now - lastCheck < CHECK_EVERY_MS) return false;
  lastCheck = now;
  return currentParent() !== ORIGINAL_PARENT;
}
