/**
 * The shape of an n-tuple network, as data: base tuples (lists of cells, k = 4·row + col), each read on the
 * 8 symmetric boards and sharing one table of 16^length float32 entries per stage; stages by the board's
 * largest tile. The common strong network (Szubert & Jaśkowski 2014; Yeh et al. 2016) is the default: four
 * 6-tuples, two straight and two 2×3 rectangles.
 *
 * The line network (src/learn/line-network.ts) is the shape {tuples: [[0,1,2,3],[4,5,6,7]], one stage}: an
 * outer and an inner row read on 8 symmetric boards are the 8 lines read both ways.
 */
import { InputError } from '../../util/errors';
import { isTile } from '../../engine/board';

export interface StageSpec {
  /** The largest tiles this stage holds: [lowest, highest], powers of two. */
  maxTile: readonly [number, number];
}

export interface NetworkShape {
  tuples: readonly (readonly number[])[];
  stages: readonly StageSpec[];
  /** A stage above the first reads an entry still 0 as the stage below's (lazy weight promotion). */
  promote: boolean;
}

export const DEFAULT_TUPLES: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5],
  [4, 5, 6, 7, 8, 9],
  [0, 1, 2, 4, 5, 6],
  [4, 5, 6, 8, 9, 10],
];
export const LINE_TUPLES: readonly (readonly number[])[] = [
  [0, 1, 2, 3],
  [4, 5, 6, 7],
];
export const MAX_TUPLE_LENGTH = 6;
/** Per thread, the module keeps the 8 reads of each tuple (src/wasm/assembly/ntuple.ts). */
export const MAX_TUPLES = 16;
export const MAX_STAGES = 8;
/** The largest rank a board holds (4 bits: 32768). */
export const TOP_RANK = 15;
export const ONE_STAGE: readonly StageSpec[] = [{ maxTile: [2, 32768] }];

const tileName = (rank: number) => String(2 ** rank);

/** One line naming what is wrong with a shape (`origin` says where it came from), or nothing. */
export function checkShape(shape: NetworkShape, origin: string): void {
  const fail = (what: string) => {
    throw new InputError(`${origin}: ${what}`);
  };
  if (shape.tuples.length === 0) fail('network.tuples is empty: list at least one tuple (cells 0..15)');
  if (shape.tuples.length > MAX_TUPLES) fail(`network.tuples has ${shape.tuples.length} tuples; at most ${MAX_TUPLES}`);
  shape.tuples.forEach((cells, t) => {
    if (cells.length === 0) fail(`network.tuples[${t}] is empty`);
    if (cells.length > MAX_TUPLE_LENGTH) fail(`network.tuples[${t}] has ${cells.length} cells; a tuple has at most ${MAX_TUPLE_LENGTH} (16^${MAX_TUPLE_LENGTH} entries, 64 MiB a table)`);
    const seen = new Set<number>();
    for (const c of cells) {
      if (!Number.isInteger(c) || c < 0 || c > 15) fail(`network.tuples[${t}]: cell ${c} is not a cell (0..15, 4·row + column)`);
      if (seen.has(c)) fail(`network.tuples[${t}]: cell ${c} is repeated`);
      seen.add(c);
    }
  });
  if (shape.stages.length === 0) fail('network.stages is empty');
  if (shape.stages.length > MAX_STAGES) fail(`network.stages has ${shape.stages.length} stages; at most ${MAX_STAGES}`);
  const ranks = shape.stages.map((s, k) => {
    const [lo, hi] = s.maxTile.map((x) => Math.log2(x));
    for (const x of s.maxTile) if (!isTile(x)) fail(`network.stages[${k}].maxTile: ${x} is not a tile (a power of two from 2 to 32768)`);
    if (lo > hi) fail(`network.stages[${k}].maxTile: ${s.maxTile[0]} is above ${s.maxTile[1]}`);
    return [lo, hi] as const;
  });
  for (let r = 1; r <= TOP_RANK; r++) {
    const holders = ranks.flatMap(([lo, hi], k) => (lo <= r && r <= hi ? [k] : []));
    if (holders.length > 1) fail(`network.stages[${holders[0]}] and network.stages[${holders[1]}] overlap: both hold boards whose largest tile is ${tileName(r)}`);
    if (holders.length === 0) fail(`network.stages leave boards whose largest tile is ${tileName(r)} in no stage (cover 2 to 32768)`);
  }
  for (let k = 1; k < ranks.length; k++) if (ranks[k][0] < ranks[k - 1][0]) fail(`network.stages[${k}] comes before network.stages[${k - 1}]: list the stages from the smallest tiles up`);
}

/** Whether two shapes are one network's (tuples, stages and promotion alike). */
export function sameShape(a: NetworkShape, b: NetworkShape): boolean {
  const key = (s: NetworkShape) => JSON.stringify({ tuples: s.tuples, stages: s.stages, promote: s.promote });
  return key(a) === key(b);
}

/** The stage of a board whose largest rank is r, for r = 0..15 (rank 0: an empty board, in the first stage). */
export function stageOfRank(shape: NetworkShape): Uint8Array {
  const out = new Uint8Array(16);
  shape.stages.forEach((s, k) => {
    for (let r = Math.log2(s.maxTile[0]); r <= Math.log2(s.maxTile[1]); r++) out[r] = k;
  });
  return out;
}

export function tableEntries(cells: readonly number[]): number {
  return 16 ** cells.length;
}

/** The float32 entries of the whole network (every stage's tables). */
export function networkEntries(shape: NetworkShape): number {
  return shape.stages.length * shape.tuples.reduce((sum, cells) => sum + tableEntries(cells), 0);
}

export interface Run {
  /** Bit position of the run's first cell on the board. */
  shift: number;
  mask: number;
  /** Bit position of its first cell in the index. */
  to: number;
}

/** A tuple's index as runs of cells that follow each other on the board: one shift and mask a run. */
export function tupleRuns(cells: readonly number[]): Run[] {
  const runs: Run[] = [];
  let i = 0;
  while (i < cells.length) {
    let j = i + 1;
    while (j < cells.length && cells[j] === cells[j - 1] + 1) j++;
    runs.push({ shift: 4 * cells[i], mask: 2 ** (4 * (j - i)) - 1, to: 4 * i });
    i = j;
  }
  return runs;
}

export function describeShape(shape: NetworkShape): string {
  const tuples = `${shape.tuples.length} tuples of ${[...new Set(shape.tuples.map((t) => t.length))].join('/')} cells`;
  const stages = shape.stages.length === 1 ? 'one stage' : `${shape.stages.length} stages (${shape.stages.map((s) => `${s.maxTile[0]}–${s.maxTile[1]}`).join(', ')})`;
  return `${tuples}, ${stages}`;
}
