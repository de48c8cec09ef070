/** Seeded random test boards. */
import seedrandom from 'seedrandom';
import { Board, boardFromRanks } from '../../src/engine/board';

/** A board whose cells are empty with probability pEmpty, else a rank in 1..maxRank. */
export function randomBoard(rng: () => number, pEmpty = 0.35, maxRank = 15): Board {
  const ranks: number[] = [];
  for (let k = 0; k < 16; k++) ranks.push(rng() < pEmpty ? 0 : 1 + Math.floor(rng() * maxRank));
  return boardFromRanks(ranks);
}

export function randomBoards(seed: string, n: number, pEmpty = 0.35, maxRank = 15): Board[] {
  const rng = seedrandom.alea(seed);
  return Array.from({ length: n }, () => randomBoard(rng, pEmpty, maxRank));
}
