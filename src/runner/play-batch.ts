/**
 * The worker entry (loaded through child.ts in a worker-farm child, locally or
 * under `tune2048 worker`): plays batches of seeded games and returns their
 * results. It never opens the database.
 */
import type { Board } from '../engine/board';
import type { Player } from '../engine/game';
import { createPlayer, playSpecGame, wrapMoves, type CountedPlayer } from '../player/players';
import { playerKey } from '../player/spec';
import { parentGone } from './parent';
import { playExternalGames } from '../player/external/play';
import { InputError } from '../util/errors';
import type { BatchResult, BatchTask } from './protocol';

// Consecutive batches usually belong to the same candidate: keep the last few players.
const players = new Map<string, Player>();
const CACHED_PLAYERS = 2;

function playerFor(task: BatchTask): Player {
  const key = playerKey(task.spec);
  let player = players.get(key);
  if (player) {
    players.delete(key);
  } else {
    player = createPlayer(task.spec);
    if (players.size >= CACHED_PLAYERS) players.delete(players.keys().next().value as string);
  }
  players.set(key, player);
  return player;
}

/** The player's moves, with a look every 8 moves at whether the parent still exists (an orphan exits). */
function watched(player: Player): CountedPlayer {
  let moves = 0;
  return wrapMoves(player, (board: Board) => {
    if ((++moves & 7) === 0 && parentGone()) process.exit(0);
    return player.chooseMove(board);
  });
}

export function playBatch(task: BatchTask, callback: (error: Error | null, result?: BatchResult) => void): void {
  const spec = task.spec;
  if (spec.kind === 'external') {
    // Its moves come over a pipe: the batch is asynchronous, one program per worker process, kept between batches.
    const launch = spec.external.launch;
    if (!launch) return callback(new InputError(`no command to start the external player ${spec.external.name} on this machine`));
    playExternalGames(spec.external, launch, task.seeds, () => {
      if (parentGone()) process.exit(0);
    }).then(
      (games) => callback(null, { pid: process.pid, games }),
      (e: unknown) => callback(e as Error),
    );
    return;
  }
  try {
    let player: CountedPlayer | null = null;
    const games = task.seeds.map((seed) => {
      if (parentGone()) process.exit(0); // between games too (a synthetic game plays no moves)
      return playSpecGame(spec, seed, () => (player ??= watched(playerFor(task))));
    });
    callback(null, { pid: process.pid, games });
  } catch (e) {
    callback(e as Error);
  }
}
