/**
 * Slow, obviously-right reference code, written from the rules on plain grids
 * of tile values (4 rows of 4 numbers, 0 = empty). It shares nothing with the
 * table engine, the heuristic tables or the search it checks.
 */
import { readFileSync } from 'node:fs';
import type { Weights } from '../../src/heuristic/weights';

export type Grid = number[][];

/** Slides one line toward index 0: drop empties, merge equal neighbours once, pad. */
export function refSlideLine(line: readonly number[]): { line: number[]; score: number } {
  const tiles = line.filter((v) => v !== 0);
  const out: number[] = [];
  let score = 0;
  for (let i = 0; i < tiles.length; i++) {
    if (i + 1 < tiles.length && tiles[i] === tiles[i + 1] && tiles[i] < 32768) {
      out.push(tiles[i] * 2);
      score += tiles[i] * 2;
      i++;
    } else {
      out.push(tiles[i]);
    }
  }
  while (out.length < 4) out.push(0);
  return { line: out, score };
}

const transposeGrid = (g: Grid): Grid => [0, 1, 2, 3].map((c) => [0, 1, 2, 3].map((r) => g[r][c]));
const reverseRows = (g: Grid): Grid => g.map((row) => [...row].reverse());

/** dir: 0 up, 1 down, 2 left, 3 right. */
export function refMove(grid: Grid, dir: number): { grid: Grid; score: number; legal: boolean } {
  const toLeft = [(g: Grid) => transposeGrid(g), (g: Grid) => reverseRows(transposeGrid(g)), (g: Grid) => g, (g: Grid) => reverseRows(g)][dir];
  const fromLeft = [(g: Grid) => transposeGrid(g), (g: Grid) => transposeGrid(reverseRows(g)), (g: Grid) => g, (g: Grid) => reverseRows(g)][dir];
  let score = 0;
  const slid = toLeft(grid).map((row) => {
    const r = refSlideLine(row);
    score += r.score;
    return r.line;
  });
  const result = fromLeft(slid);
  return { grid: result, score, legal: JSON.stringify(result) !== JSON.stringify(grid) };
}

const log2 = (v: number) => (v === 0 ? 0 : Math.round(Math.log2(v)));

/** The weights of the stage a grid is in (weights.ts: by its largest tile or its tile sum, from ≤ m < to), merged into the base. */
export function refStageWeights(w: Weights, grid: Grid): Weights {
  if (!w.stages) return w;
  const tiles = grid.flat();
  const m = w.stages.by === 'maxTile' ? Math.max(...tiles) : tiles.reduce((a, b) => a + b, 0);
  const stage = w.stages.list.find((s) => s.from <= m && (s.to === undefined || m < s.to))!;
  const out: Record<string, unknown> = { ...w, stages: undefined };
  for (const [k, v] of Object.entries(stage)) if (k !== 'from' && k !== 'to' && v !== undefined) out[k] = v;
  // A stage's learned weight weighs the base's tables.
  if (stage.learned) out.learned = { ...w.learned!, weight: stage.learned.weight };
  return out as Weights;
}

/** A line network as two plain arrays, read from a line-table file's bytes at the offsets its format states. */
export interface RefNetwork {
  outer: number[];
  inner: number[];
}

export function refReadNetwork(bytes: Uint8Array): RefNetwork {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const table = (k: number) => Array.from({ length: 65536 }, (_, i) => view.getFloat32(20 + 4 * (k * 65536 + i), true));
  return { outer: table(0), inner: table(1) };
}

const networks = new Map<string, RefNetwork>();
/** A table file's network, read once per path (tests never change a file after weights name it). */
function refNetworkOf(path: string): RefNetwork {
  if (!networks.has(path)) networks.set(path, refReadNetwork(readFileSync(path)));
  return networks.get(path)!;
}

/** A line of ranks as its table index: the first cell in the lowest 4 bits. */
const indexOf = (ranks: readonly number[]) => ranks[0] | (ranks[1] << 4) | (ranks[2] << 8) | (ranks[3] << 12);

/** The network's value: every row and column, read forward and backward, in its table (outer lines: rows and columns 0 and 3). */
export function refNetworkValue(net: RefNetwork, grid: Grid): number {
  let total = 0;
  [...grid, ...transposeGrid(grid)].forEach((values, index) => {
    const table = index % 4 === 0 || index % 4 === 3 ? net.outer : net.inner;
    const ranks = values.map(log2);
    total += table[indexOf(ranks)];
    total += table[indexOf([...ranks].reverse())];
  });
  return total;
}

/** The score the tiles hold: (r − 1)·2^r for each tile 2^r ≥ 4. */
export function refTileScore(grid: Grid): number {
  return grid.flat().reduce((s, v) => s + (v >= 4 ? (log2(v) - 1) * v : 0), 0);
}

/** The heuristic, computed directly on a grid from the formulas in weights.ts (of the grid's own stage). */
export function refHeuristic(weights: Weights, grid: Grid): number {
  const staged = refStageWeights(weights, grid);
  const lines = [...grid, ...transposeGrid(grid)];
  let total = 0;
  lines.forEach((values, index) => {
    // Line-position terms: rows 0 and 3 are outer rows, 1 and 2 inner; the same for columns.
    const pos = index % 4;
    const group = `${pos === 0 || pos === 3 ? 'outer' : 'inner'}${index < 4 ? 'Rows' : 'Columns'}` as const;
    const own = Object.fromEntries(Object.entries(staged.lines?.[group] ?? {}).filter(([, v]) => v !== undefined));
    const w = { ...staged, ...own } as Weights;
    const ranks = values.map(log2);
    total += w.alive;
    total += w.empty * values.filter((v) => v === 0).length;
    // merges: runs of equal tiles among the nonzero ones, a run of n >= 2 counts n
    const tiles = ranks.filter((r) => r !== 0);
    let i = 0;
    while (i < tiles.length) {
      let j = i;
      while (j + 1 < tiles.length && tiles[j + 1] === tiles[i]) j++;
      if (j > i) total += w.merges * (j - i + 1);
      i = j + 1;
    }
    // descents (seed 000): value below the previous, the first compared to 9999
    let prev = 9999;
    for (const v of values) {
      if (v < prev) total += w.descents;
      prev = v;
    }
    // monotonicity: min of the total decreases and total increases of rank^power
    let down = 0;
    let up = 0;
    for (let k = 1; k < 4; k++) {
      const d = ranks[k - 1] ** w.monotonicityPower - ranks[k] ** w.monotonicityPower;
      if (ranks[k - 1] > ranks[k]) down += d;
      else up -= d;
    }
    total -= w.monotonicity * Math.min(down, up);
    const f = w.smoothnessOn === 'rank' ? ranks : values;
    for (let k = 1; k < 4; k++) total -= w.smoothness * Math.abs(f[k] - f[k - 1]);
    for (const r of ranks) total -= w.sum * r ** w.sumPower;
  });
  if (staged.matrix) {
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 4; c++) total += staged.matrix[r][c] * (staged.matrixOn === 'rank' ? log2(grid[r][c]) : grid[r][c]);
    }
  }
  if (staged.learned) total += staged.learned.weight * (refNetworkValue(refNetworkOf(staged.learned.table), grid) + refTileScore(grid));
  return total;
}

/**
 * Brute-force expectimax: no probability cutoff, no cache. depth = chance
 * layers below the root move. Returns the value of each move (null if illegal).
 */
export function refExpectimax(weights: Weights, grid: Grid, depth: number): (number | null)[] {
  // With stages, the whole search scores leaves with the root board's stage.
  const w = refStageWeights(weights, grid);
  const chance = (g: Grid, d: number): number => {
    if (d >= depth) return refHeuristic(w, g);
    const empties: [number, number][] = [];
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) if (g[r][c] === 0) empties.push([r, c]);
    let sum = 0;
    for (const [r, c] of empties) {
      for (const [tile, p] of [[2, 0.9], [4, 0.1]]) {
        const child = g.map((row) => [...row]);
        child[r][c] = tile;
        sum += p * maxValue(child, d + 1);
      }
    }
    return sum / empties.length;
  };
  const maxValue = (g: Grid, d: number): number => {
    let best = -Infinity;
    for (let dir = 0; dir < 4; dir++) {
      const m = refMove(g, dir);
      if (m.legal) best = Math.max(best, chance(m.grid, d));
    }
    return best === -Infinity ? 0 : best;
  };
  return [0, 1, 2, 3].map((dir) => {
    const m = refMove(grid, dir);
    return m.legal ? chance(m.grid, 0) : null;
  });
}
