/**
 * Precomputed move tables for all 65,536 rows (nneonneo/2048-ai style).
 *
 * A row is 16 bits: four 4-bit ranks, nibble 0 (lowest bits) is the cell at
 * index 0 of the line (the left cell of a row, the top cell of a column).
 * "Left" slides toward index 0; "right" toward index 3.
 *
 * The 32768 limit: a rank is 4 bits, so rank 15 (32768) is the largest tile.
 * Two 32768 tiles never merge here (a merge would need rank 16); they behave
 * like unequal tiles. nneonneo instead merges them into a single 32768, which
 * silently destroys a tile; we prefer to keep the board honest.
 */

export const ROW_COUNT = 65536;
export const MAX_RANK = 15;

/** Row after sliding toward index 0. */
export const ROW_LEFT = new Uint16Array(ROW_COUNT);
/** Row after sliding toward index 3. */
export const ROW_RIGHT = new Uint16Array(ROW_COUNT);
/** Merge score (sum of created tile values) of a left slide of the row. */
export const SCORE_LEFT = new Int32Array(ROW_COUNT);
/** Merge score of a right slide of the row. */
export const SCORE_RIGHT = new Int32Array(ROW_COUNT);
/** Number of empty cells in the row. */
export const EMPTY_COUNT = new Uint8Array(ROW_COUNT);
/** Largest rank in the row. */
export const MAX_RANK_OF_ROW = new Uint8Array(ROW_COUNT);

export function rowToRanks(row: number): number[] {
  return [row & 15, (row >>> 4) & 15, (row >>> 8) & 15, (row >>> 12) & 15];
}

export function ranksToRow(ranks: readonly number[]): number {
  return (ranks[0] | (ranks[1] << 4) | (ranks[2] << 8) | (ranks[3] << 12)) & 0xffff;
}

export function reverseRow(row: number): number {
  return ((row & 15) << 12) | (((row >>> 4) & 15) << 8) | (((row >>> 8) & 15) << 4) | (row >>> 12);
}

/**
 * Slides each row toward index 0 (merging each tile at most once), without allocation: every CLI command pays for
 * building these tables at start-up, so the build is a tight loop (~2 ms).
 */
function buildTables(): void {
  for (let row = 0; row < ROW_COUNT; row++) {
    let out = 0; // the slid row, filled from nibble 0
    let shift = 0;
    let score = 0;
    let pending = 0;
    let empty = 0;
    let max = 0;
    for (let i = 0; i < 16; i += 4) {
      const r = (row >>> i) & 15;
      if (r === 0) {
        empty++;
        continue;
      }
      if (r > max) max = r;
      if (pending === r && r < MAX_RANK) {
        out |= (r + 1) << shift;
        shift += 4;
        score += 1 << (r + 1);
        pending = 0;
      } else {
        if (pending !== 0) {
          out |= pending << shift;
          shift += 4;
        }
        pending = r;
      }
    }
    if (pending !== 0) out |= pending << shift;
    ROW_LEFT[row] = out;
    SCORE_LEFT[row] = score;
    EMPTY_COUNT[row] = empty;
    MAX_RANK_OF_ROW[row] = max;
  }
  for (let row = 0; row < ROW_COUNT; row++) {
    const rev = reverseRow(row);
    ROW_RIGHT[row] = reverseRow(ROW_LEFT[rev]);
    SCORE_RIGHT[row] = SCORE_LEFT[rev];
  }
}

buildTables();
