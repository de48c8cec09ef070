/**
 * A player that a command runs in the foreground (hint; play in one process), built in a worker thread
 * (src/util/off-thread.ts): its searches never block the main thread, so Ctrl-C stops the command at once
 * however deep a decision goes. This module is the command's side only: the players themselves
 * (./session, and every search it imports) load in the thread, not twice.
 */
import { offThread, type OffThread } from '../util/off-thread';
import type { PlayerPool, PlayerSession } from './session';
import type { PlayerSpec } from './spec';

export type { ForegroundDecision, PlayerPool, PlayerSession } from './session';

/** The spec's player in a thread of its own; `close()` when done. Throws the player's own error if it cannot be built. */
export async function foregroundPlayer(spec: PlayerSpec): Promise<OffThread<PlayerSession>> {
  const thread = offThread<PlayerSession>(`${__dirname}/session`, 'playerSession', spec);
  try {
    await thread.remote.ready();
  } catch (e) {
    await thread.close();
    throw e;
  }
  return thread;
}

/**
 * Whether the spec's one decision is done in milliseconds whatever the board: a heuristic's expectimax or
 * minimax at depth ≤ 2 on one thread (≲ 10^5 nodes even at cutoff 0). Such a search may run in the
 * command's own thread (hint does): Ctrl-C waits for it no longer than a keypress takes, and the thread's
 * start (a second Node instance loading every search: ~2× the command's own start) is saved.
 */
export function decidesAtOnce(spec: PlayerSpec): boolean {
  if (spec.kind !== 'expectimax' && spec.kind !== 'minimax') return false;
  const { depth, threads, msPerMove } = spec.search;
  return typeof depth === 'number' && depth <= 2 && threads === undefined && msPerMove === undefined;
}

/** A pool in a thread of its own. */
export function foregroundPool(): OffThread<PlayerPool> {
  return offThread<PlayerPool>(`${__dirname}/session`, 'playerPool');
}
