/**
 * TD(0) learning of afterstate values (Szubert & Jaśkowski 2014, the n-tuple programs' method) for a line
 * network: each training game is played greedily on reward + value of the afterstate, and after each move
 * the value of the previous afterstate moves toward the reward and value of the next one (toward 0 when the
 * game is over). A game is a pure function of the network and its seed, so training from a checkpoint
 * replays exactly what an uninterrupted run would have played.
 */
import { makeBoard, maxRank, type Board } from '../engine/board';
import { moved, moveInto } from '../engine/moves';
import { createRng, initialBoard, spawnTile } from '../engine/spawn';
import { addToNetwork, networkValue, type LineNetwork } from './line-network';

/** A board's value is read from 16 table entries: a step on the value is spread over them. */
const READS = 16;

export interface TrainedGame {
  score: number;
  maxRank: number;
  moves: number;
}

/** The best afterstate of a board by reward + value, into `best` ([lo, hi, reward, value]); false when no move is legal. */
function bestAfterstate(net: LineNetwork, board: Board, best: Float64Array): boolean {
  let found = false;
  for (let dir = 0; dir < 4; dir++) {
    moveInto(board.lo, board.hi, dir);
    const lo = moved[0];
    const hi = moved[1];
    if (lo === board.lo && hi === board.hi) continue;
    const reward = moved[2];
    const value = networkValue(net, lo, hi);
    if (!found || reward + value > best[2] + best[3]) {
      best[0] = lo;
      best[1] = hi;
      best[2] = reward;
      best[3] = value;
      found = true;
    }
  }
  return found;
}

/** Plays one training game on `seed` (from `start`, else from a new game's first board), updating `net` after every move. */
export function trainGame(net: LineNetwork, seed: number, learningRate: number, start?: Board): TrainedGame {
  const rng = createRng(seed);
  const step = learningRate / READS;
  let board = start ?? initialBoard(rng);
  const now = new Float64Array(4);
  const next = new Float64Array(4);
  let score = 0;
  let moves = 0;
  let top = maxRank(board);
  let alive = bestAfterstate(net, board, now);
  while (alive) {
    score += now[2];
    moves++;
    board = spawnTile(makeBoard(now[0], now[1]), rng);
    top = Math.max(top, maxRank(board));
    alive = bestAfterstate(net, board, next);
    const target = alive ? next[2] + next[3] : 0;
    addToNetwork(net, now[0], now[1], step * (target - now[3]));
    now.set(next);
  }
  return { score, maxRank: top, moves };
}
