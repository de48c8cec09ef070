/**
 * Tile-downgrading (TDL2048+, Guei, Chen & Wu 2022; moporgic/TDL2048's `--shift`): a network has rarely seen
 * boards whose largest tiles are rare, so the player decides on the board "shifted down": the highest ranks
 * missing below its largest tile are closed, every tile above a closed gap moving down one rank per gap
 * below it. The tiles keep their order and every tile equal or unequal to another stays so (a closed rank
 * held no tile), so the same moves are legal and merge the same tiles: the move chosen on the downgraded
 * board is played on the real one.
 *
 * TDL2048 closes one gap once a tile ≥ the threshold is made and a second once the board so downgraded
 * holds such a tile again (its default "stint" of 1), keeping that count for the rest of the game. Here the
 * count is read off the board alone (so a decision stays a function of its board, as hints, stored games and
 * the transposition table need): 0 below the threshold, else 1, or 2 when the board with one gap closed
 * still holds a tile ≥ the threshold. A board with no missing rank below its largest tile is left as it is.
 */
import { isTile, makeBoard, rankAt, type Board } from '../engine/board';

/** The ranks present on a board as bits (bit r: a tile 2^r; bit 0 never set). */
function ranksPresent(b: Board): number {
  let bits = 0;
  for (let k = 0; k < 16; k++) bits |= 1 << rankAt(b, k);
  return bits & ~1;
}

/** The board with its `gaps` highest missing ranks below its largest tile closed (fewer when it has fewer). */
export function closeGaps(b: Board, gaps: number): Board {
  const present = ranksPresent(b);
  if (present === 0) return b;
  const top = 31 - Math.clz32(present);
  const closed: number[] = [];
  for (let r = top - 1; r >= 1 && closed.length < gaps; r--) if (!(present & (1 << r))) closed.push(r);
  if (closed.length === 0) return b;
  // down[r]: how far a tile of rank r moves (the closed gaps below it).
  const down = new Int8Array(16);
  for (let r = 1; r <= 15; r++) for (const g of closed) if (g < r) down[r]++;
  const shiftHalf = (h: number): number => {
    let out = 0;
    for (let s = 0; s < 32; s += 4) {
      const r = (h >>> s) & 15;
      out |= (r - down[r]) << s;
    }
    return out;
  };
  return makeBoard(shiftHalf(b.lo), shiftHalf(b.hi));
}

/** The tiles of rank 15 (32768) on a board. */
function topTiles(b: Board): number {
  let n = 0;
  for (let k = 0; k < 16; k++) if (rankAt(b, k) === 15) n++;
  return n;
}

/**
 * The gaps a player with threshold `atTile` closes on `b` (0, 1 or 2; see above). Never on a board with two
 * 32768s: they cannot merge here (a rank is 4 bits), and one rank down they would.
 */
export function downgradeGaps(b: Board, atTile: number): number {
  const atRank = Math.log2(atTile);
  const holds = (x: Board) => ranksPresent(x) >>> atRank !== 0;
  if (!holds(b) || topTiles(b) >= 2) return 0;
  return holds(closeGaps(b, 1)) ? 2 : 1;
}

/** The board a player with threshold `atTile` decides on. */
export function downgraded(b: Board, atTile: number): Board {
  const gaps = downgradeGaps(b, atTile);
  return gaps === 0 ? b : closeGaps(b, gaps);
}

/** What is wrong with a threshold, or null: it must be a tile from 8 to 32768. */
export function downgradeProblem(atTile: number): string | null {
  return isTile(atTile, 8) ? null : `${atTile} is not a tile from 8 to 32768`;
}
