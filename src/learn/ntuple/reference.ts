/**
 * The slow, obviously right n-tuple network: a plain 4×4 grid, its 8 symmetric grids made by mirroring and
 * transposing it cell by cell, each tuple's index read cell by cell; TD(0) training games on tune2048's own
 * engine (src/engine). The WebAssembly trainer (src/wasm/assembly/learn.ts) is checked against it: the same
 * values, and the same tables to the bit after the same training games.
 */
import { boardToRanks, makeBoard, maxRank, withRank, type Board } from '../../engine/board';
import { applyMove, CORNER_ORDER, DIRECTIONS } from '../../engine/moves';
import { createRng, initialBoard, spawnTile } from '../../engine/spawn';
import { stageOfRank, type NetworkShape } from './shape';
import type { RestartRule } from './machine';

type Grid = number[][];

/** tables[stage * tuples + tuple]: one Float32Array per (stage, tuple), as NetworkMachine.tables() lists them. */
export interface ReferenceNetwork {
  shape: NetworkShape;
  tables: Float32Array[];
  /** Temporal coherence learning: per table, its entries' (E, A) pairs (as NetworkMachine.accumulators() lists them). */
  accumulators?: Float32Array[];
}

const gridOf = (board: Board): Grid => {
  const ranks = boardToRanks(board);
  return [0, 1, 2, 3].map((r) => ranks.slice(4 * r, 4 * r + 4));
};
const mirrorH = (g: Grid): Grid => g.map((row) => [row[3], row[2], row[1], row[0]]);
const mirrorV = (g: Grid): Grid => [g[3], g[2], g[1], g[0]];
const transposeGrid = (g: Grid): Grid => [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => g[c][r]));

/** The 8 symmetric grids, in the order the value sums them: I, H, V, HV, T, HT, VT, HVT. */
export function symmetries(board: Board): Grid[] {
  const g = gridOf(board);
  const t = transposeGrid(g);
  return [g, mirrorH(g), mirrorV(g), mirrorH(mirrorV(g)), t, mirrorH(t), mirrorV(t), mirrorH(mirrorV(t))];
}

function indexOf(grid: Grid, cells: readonly number[]): number {
  let index = 0;
  cells.forEach((cell, i) => (index += grid[Math.floor(cell / 4)][cell % 4] * 16 ** i));
  return index;
}

function stageOf(net: ReferenceNetwork, board: Board): number {
  return stageOfRank(net.shape)[maxRank(board)];
}

/** An entry as the value reads it: a 0 in a later stage is, with promotion, the stage below's entry. */
function entry(net: ReferenceNetwork, stage: number, tuple: number, index: number): number {
  const n = net.shape.tuples.length;
  let s = stage;
  let v = net.tables[s * n + tuple][index];
  while (v === 0 && net.shape.promote && s > 0) v = net.tables[--s * n + tuple][index];
  return v;
}

/** Every read of a board's value: [tuple, index], tuple by tuple, symmetry by symmetry. */
function readsOf(net: ReferenceNetwork, board: Board): [number, number][] {
  const grids = symmetries(board);
  return net.shape.tuples.flatMap((cells, t) => grids.map((g) => [t, indexOf(g, cells)] as [number, number]));
}

export function referenceValue(net: ReferenceNetwork, board: Board): number {
  const stage = stageOf(net, board);
  let sum = 0;
  for (const [t, index] of readsOf(net, board)) sum += entry(net, stage, t, index);
  return sum;
}

/**
 * One TD step: every read entry moves by step · (target − value), one after the other. With temporal
 * coherence, each entry's move is scaled by |E| / A of its own accumulators (1 while A is 0), then E takes the
 * error and A its size.
 */
export function referenceUpdate(net: ReferenceNetwork, board: Board, target: number, step: number): void {
  const stage = stageOf(net, board);
  const error = target - referenceValue(net, board);
  const delta = step * error;
  const n = net.shape.tuples.length;
  const acc = net.accumulators;
  for (const [t, index] of readsOf(net, board)) {
    const k = stage * n + t;
    if (!acc) {
      net.tables[k][index] = entry(net, stage, t, index) + delta;
      continue;
    }
    const pairs = acc[k];
    const e = 2 * index;
    const rate = pairs[e + 1] === 0 ? 1 : Math.abs(pairs[e]) / pairs[e + 1];
    net.tables[k][index] = entry(net, stage, t, index) + delta * rate;
    pairs[e] += error;
    pairs[e + 1] += Math.abs(error);
  }
}

interface Choice {
  after: Board;
  reward: number;
  value: number;
}

/** The greedy move on reward + value (ties to the earlier in CORNER_ORDER: up, right, down, left), or null when none is legal. */
export function referenceChoice(net: ReferenceNetwork, board: Board): Choice | null {
  let best: Choice | null = null;
  for (const dir of CORNER_ORDER) {
    const m = applyMove(board, dir);
    if (!m.legal) continue;
    const value = referenceValue(net, m.board);
    if (!best || m.score + value > best.reward + best.value) best = { after: m.board, reward: m.score, value };
  }
  return best;
}

export interface ReferenceGame {
  score: number;
  moves: number;
  maxRank: number;
  /** 1 + the game's restarts. */
  episodes: number;
}

/** How a reference training game learns beyond online TD(0): TD(λ) backward at each episode's end, restarts. */
export interface ReferenceLearning {
  lambda?: number;
  restarts?: RestartRule;
}

/**
 * One episode from `start` played greedily to its end with `rng`: with `step` and no λ, TD(0) online (after
 * each move, the previous afterstate's value moves toward the next reward plus the next afterstate's
 * value, or toward 0 when the game is over); its path is every move's afterstate and reward.
 */
function referenceEpisode(net: ReferenceNetwork, start: Board, rng: () => number, step: number | undefined, online: boolean) {
  let board = start;
  let score = 0;
  let top = maxRank(board);
  const path: { after: Board; reward: number }[] = [];
  let now = referenceChoice(net, board);
  while (now) {
    score += now.reward;
    path.push({ after: now.after, reward: now.reward });
    board = spawnTile(makeBoard(now.after.lo, now.after.hi), rng);
    top = Math.max(top, maxRank(board));
    const next = referenceChoice(net, board);
    if (step !== undefined && online) referenceUpdate(net, now.after, next ? next.reward + next.value : 0, step);
    now = next;
  }
  return { score, top, path };
}

/**
 * A game on `seed` played greedily by the network; when `step` is given, a training game. A training game may
 * start from a late board: the game's first random number below `late.share` picks
 * `late.boards[g mod count]`. With λ, each episode is learned after it ends, from its last afterstate back to
 * its first: the last toward 0, each one before toward r + λ·G + (1 − λ)·V of the afterstate after it (its
 * reward, its own target, its value once updated). With restarts, while an episode made more than
 * `minMoves` moves (and at most `maxInRow` times), the next starts from a spawn on its path's afterstate
 * number floor(moves · at), on the same generator. The result is the first episode's; moves are every
 * episode's.
 */
export function referenceGame(net: ReferenceNetwork, seed: number, step?: number, late?: { boards: readonly Board[]; share: number; game: number }, learning: ReferenceLearning = {}): ReferenceGame {
  const rng = createRng(seed);
  let start = late && late.boards.length > 0 && rng() < late.share ? late.boards[late.game % late.boards.length] : initialBoard(rng);
  const { lambda, restarts } = step === undefined ? {} : learning;
  let first: { score: number; top: number } | null = null;
  let moves = 0;
  let episodes = 0;
  for (;;) {
    const episode = referenceEpisode(net, start, rng, step, lambda === undefined);
    first ??= episode;
    moves += episode.path.length;
    episodes++;
    const n = episode.path.length;
    const again = restarts !== undefined && n > restarts.minMoves && (restarts.maxInRow === undefined || episodes <= restarts.maxInRow);
    if (again) {
      const from = episode.path[Math.floor(n * restarts.at)].after;
      start = spawnTile(makeBoard(from.lo, from.hi), rng);
    }
    if (lambda !== undefined) {
      let target = 0;
      for (let i = n - 1; i >= 0; i--) {
        referenceUpdate(net, episode.path[i].after, target, step!);
        target = episode.path[i].reward + lambda * target + (1 - lambda) * referenceValue(net, episode.path[i].after);
      }
    }
    if (!again) break;
  }
  return { score: first!.score, moves, maxRank: first!.top, episodes };
}

/**
 * Expectimax with the network at the leaves, by brute force (no table): what
 * src/wasm/assembly/network-search.ts computes, in the same order of operations. A root move is worth its
 * reward + its afterstate's chance node; a chance node at depth `depth` (or below the probability `cprob`)
 * is the network's value, else the mean over every empty cell (in cell order) of 0.9 × the max node with a
 * 2 there + 0.1 × with a 4; a max node is the best reward + chance node over its legal moves (at the depth
 * limit: + value, the greedy choice), 0 when none is legal. NaN for an illegal root move. With `on`, every
 * leaf value is its stage's weight × the network's (stageWeights), + the heuristic of the board (heuristic).
 */
export function referenceSearchMove(net: ReferenceNetwork, board: Board, dir: number, depth: number, cprob: number, on: { stageWeights?: readonly number[]; heuristic?: (b: Board) => number } = {}): number {
  const { stageWeights, heuristic } = on;
  /** A leaf afterstate: the network's value (times its stage's weight), + the heuristic when one is given. */
  const leaf = (b: Board): number => {
    const v = stageWeights ? stageWeights[stageOf(net, b)] * referenceValue(net, b) : referenceValue(net, b);
    return heuristic ? v + heuristic(b) : v;
  };
  const chance = (b: Board, p: number, d: number): number => {
    if (d >= depth || p < cprob) return leaf(b);
    const empty = boardToRanks(b).flatMap((r, cell) => (r === 0 ? [cell] : []));
    let sum = 0;
    for (const cell of empty) {
      const q = p / empty.length;
      sum += 0.9 * max(withRank(b, cell, 1), q * 0.9, d + 1) + 0.1 * max(withRank(b, cell, 2), q * 0.1, d + 1);
    }
    return sum / empty.length;
  };
  const max = (b: Board, p: number, d: number): number => {
    if (d >= depth || p < cprob) {
      if (!stageWeights && !heuristic) {
        const c = referenceChoice(net, b);
        return c ? c.reward + c.value : 0;
      }
      const values = DIRECTIONS.map((k) => applyMove(b, k)).flatMap((m) => (m.legal ? [m.score + leaf(m.board)] : []));
      return values.length === 0 ? 0 : Math.max(...values);
    }
    let best = -Infinity;
    for (const k of DIRECTIONS) {
      const m = applyMove(b, k);
      if (m.legal) best = Math.max(best, m.score + chance(m.board, p, d));
    }
    return best === -Infinity ? 0 : best;
  };
  const m = applyMove(board, dir as (typeof DIRECTIONS)[number]);
  return m.legal ? m.score + chance(m.board, 1, 0) : Number.NaN;
}
