/** What crosses from a game runner to the processes that play (IPC or a Redis job), and back. */
import type { PlayedGame } from '../engine/game';
import type { PlayerSpec } from '../player/spec';

/** A batch: several seeded games of one player. */
export interface BatchTask {
  spec: PlayerSpec;
  seeds: number[];
}


export interface BatchResult {
  pid: number;
  games: PlayedGame[];
}
