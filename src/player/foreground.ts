/**
 * A player that a command runs in the foreground (hint; play in one process), built in a worker thread
 * (src/util/off-thread.ts): its searches never block the main thread, so Ctrl-C stops the command at once
 * however deep a decision goes.
 */
import type { Board } from '../engine/board';
import type { playGame, PlayGameOptions } from '../engine/game';
import type { Decision } from '../engine/player';
import { offThread, type OffThread } from '../util/off-thread';
import { createPlayer, playCounted } from './players';
import { playerKey, type PlayerSpec } from './spec';

/** What a decision searched: the depth its player used on that board (auto and the depth rule resolve per board). */
export interface ForegroundDecision extends Decision {
  depth: number | null;
}

/** The object the thread holds (its factory, `playerSession`, runs there). */
export interface PlayerSession {
  /** Nothing: answers once the player is built (a bad setting fails here, before any output). */
  ready(): true;
  decide(board: Board): ForegroundDecision;
  /** One seeded game, without its final board's moves. */
  play(seed: number, options: PlayGameOptions): ReturnType<typeof playGame>;
}

export function playerSession(spec: PlayerSpec): PlayerSession {
  const player = createPlayer(spec);
  const depthFor = 'depthFor' in player ? (player as { depthFor(b: Board): number }).depthFor : null;
  return {
    ready: () => true,
    decide: (board) => ({ ...player.decide(board), depth: depthFor ? depthFor(board) : null }),
    play: (seed, options) => playCounted(player, seed, options),
  };
}

/** The spec's player in a thread of its own; `close()` when done. Throws the player's own error if it cannot be built. */
export async function foregroundPlayer(spec: PlayerSpec): Promise<OffThread<PlayerSession>> {
  const thread = offThread<PlayerSession>(`${__dirname}/foreground`, 'playerSession', spec);
  try {
    await thread.remote.ready();
  } catch (e) {
    await thread.close();
    throw e;
  }
  return thread;
}

/** Players of many specs in one thread (the viewer's server: one network's tables serve every depth). */
export interface PlayerPool {
  /** The decision of the spec's player on `board`, with the depth it searched and the search's milliseconds. */
  decide(spec: PlayerSpec, board: Board): ForegroundDecision & { ms: number };
}

/** Players built on first use and kept by their key (the networks themselves are kept per process: network-player.ts). */
export function playerPool(): PlayerPool {
  const players = new Map<string, ReturnType<typeof playerSession>>();
  return {
    decide(spec, board) {
      const key = playerKey(spec);
      let session = players.get(key);
      if (!session) {
        session = playerSession(spec);
        players.set(key, session);
        if (players.size > POOL_PLAYERS) players.delete(players.keys().next().value!);
      }
      const t0 = performance.now();
      const decision = session.decide(board);
      return { ...decision, ms: performance.now() - t0 };
    },
  };
}

/** Players a pool keeps (each holds only its settings; the tables are the process's). */
const POOL_PLAYERS = 16;

/** A pool in a thread of its own. */
export function foregroundPool(): OffThread<PlayerPool> {
  return offThread<PlayerPool>(`${__dirname}/foreground`, 'playerPool');
}
