/**
 * Seeded tile spawns. Every random number of a game comes from one seedrandom
 * generator (Alea: fast, and the same sequence on every machine) seeded by the
 * game seed, so a game seed plus a deterministic player replays the same game.
 * Per spawn: cell = the floor(u * n)-th empty cell in cell order (k = 4*row+col),
 * then a 2 if the next number is < 0.9, else a 4.
 */
import seedrandom from 'seedrandom';
import { Board, countEmpty, makeBoard, rankAt } from './board';

export type Rng = () => number;

export function createRng(seed: number | string): Rng {
  return seedrandom.alea(String(seed));
}

export const SPAWN_TWO_PROBABILITY = 0.9;

/** Places one tile on a uniformly chosen empty cell. Returns the board unchanged if it is full. */
export function spawnTile(board: Board, rng: Rng): Board {
  const empties = countEmpty(board);
  if (empties === 0) return board;
  let pick = Math.floor(rng() * empties);
  const rank = rng() < SPAWN_TWO_PROBABILITY ? 1 : 2;
  for (let k = 0; k < 16; k++) {
    if (rankAt(board, k) !== 0) continue;
    if (pick-- === 0) {
      return k < 8 ? makeBoard(board.lo | (rank << (4 * k)), board.hi) : makeBoard(board.lo, board.hi | (rank << (4 * (k - 8))));
    }
  }
  throw new Error('unreachable: no empty cell picked');
}

/** The start of a game: two spawns on an empty board. */
export function initialBoard(rng: Rng): Board {
  return spawnTile(spawnTile(makeBoard(0, 0), rng), rng);
}

