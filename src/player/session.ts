/**
 * The players a command drives one decision or game at a time (hint, play in one process, the viewer's
 * server), as objects that live where they search: built in a worker thread by src/player/foreground.ts,
 * or in the command's own thread when the search cannot take long (hint at a shallow depth).
 */
import type { Board } from '../engine/board';
import type { playGame, PlayGameOptions } from '../engine/game';
import type { Decision } from '../engine/player';
import { createPlayer, playCounted } from './players';
import { playerKey, type PlayerSpec } from './spec';

/** What a decision searched: the depth its player used on that board (auto and the depth rule resolve per board). */
export interface ForegroundDecision extends Decision {
  depth: number | null;
}

/** One player's decisions and games. */
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
