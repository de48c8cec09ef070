/**
 * Boards strong play reaches: the start positions of multi-stage TD learning (a learning config's
 * `starts`). Game i of the collecting player is seeded by ("<seed>:start:<i>"), so the same config always
 * collects the same boards (a learning run stores them at the first collection: src/learn/late-starts.ts).
 * Collecting takes minutes for a deep tile (500 depth-1 games to 8192: ~8 minutes), so it yields between
 * games: progress is drawn and a stop (Ctrl-C) is heard at the next game.
 */
import { maxRank, makeBoard, type Board } from '../engine/board';
import { moved, moveInto } from '../engine/moves';
import { createRng, initialBoard, spawnTile } from '../engine/spawn';
import { loadWeights } from '../heuristic/weights';
import { InputError } from '../util/errors';
import { createExpectimaxPlayer } from './expectimax';

export interface LateBoardsSpec {
  weights: string;
  depth: number;
  maxTile: number;
  positions: number;
}

/** Games tried per position wanted before giving up (a player that rarely reaches the tile). */
const GAMES_PER_POSITION = 50;

export interface Collecting {
  /** After each game: boards found so far and games played. */
  onGame?: (found: number, games: number) => void;
  /** Asked after each game: true gives up collecting (lateBoards returns null). */
  shouldStop?: () => boolean;
}

export async function lateBoards(spec: LateBoardsSpec, seed: number, on: Collecting = {}): Promise<Board[] | null> {
  const player = createExpectimaxPlayer(loadWeights(spec.weights), { depth: spec.depth });
  const rank = Math.log2(spec.maxTile);
  const found: Board[] = [];
  const limit = spec.positions * GAMES_PER_POSITION;
  let games = 0;
  while (found.length < spec.positions && games < limit) {
    const rng = createRng(`${seed}:start:${games++}`);
    let board = initialBoard(rng);
    for (;;) {
      const dir = player.chooseMove(board);
      if (dir < 0) break;
      moveInto(board.lo, board.hi, dir);
      board = spawnTile(makeBoard(moved[0], moved[1]), rng);
      if (maxRank(board) >= rank) {
        found.push(board);
        break;
      }
    }
    on.onGame?.(found.length, games);
    await new Promise<void>((done) => setImmediate(done));
    if (on.shouldStop?.()) return null;
  }
  if (found.length < spec.positions) {
    throw new InputError(`starts: ${spec.weights} at depth ${spec.depth} reached ${spec.maxTile} in ${found.length} of ${games} games (${spec.positions} wanted); lower starts.maxTile or starts.positions, or use a stronger player`);
  }
  return found;
}
