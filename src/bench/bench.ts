/**
 * Benchmarks: raw engine moves and search throughput on the 50 mid-game
 * positions of configs/bench/positions50.txt (copied from ../shared/bench, where
 * the C++ reference figures of nneonneo/2048-ai on the same positions live).
 * Single core, in-process; each figure is the median of several passes.
 * The search figures time the WebAssembly search through createExpectimaxPlayer, one
 * player per figure, all sharing the process's one module instance (so no
 * figure pays a "second player" penalty: there is no JIT state to lose).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Board, parseBoard } from '../engine/board';
import * as moves from '../engine/moves';
import { playGame } from '../engine/game';
import { CONFIGS_DIR, loadWeights, Weights } from '../heuristic/weights';
import { createExpectimaxPlayer } from '../player/expectimax';
import { searchModule } from '../wasm/module';
import { createNetworkPlayer, networkMachineFor } from '../player/network-player';
import type { NetworkPlayerSpec } from '../player/spec';
import { median } from '../util/stats';
import { pearson } from '../compare/noise';

export const BENCH_POSITIONS_FILE = join(CONFIGS_DIR, 'bench', 'positions50.txt');

export function loadBenchPositions(path = BENCH_POSITIONS_FILE): Board[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map(parseBoard);
}

export interface EngineBench {
  /** Which code path was timed. */
  path: string;
  nsPerMove: number;
  passes: number[];
}

/**
 * ns per move of the search's own move (WebAssembly: row-table lookups and the 64-bit transpose),
 * every position × 4 directions in a loop inside the module, so no call crosses into JavaScript.
 */
export function benchWasmMoves(boards: readonly Board[], passes = 7, repeats = 20_000): EngineBench {
  const wasm = searchModule();
  const ptr = wasm.exports.boardsPtr(boards.length);
  const view = new BigUint64Array(wasm.exports.memory.buffer, ptr, boards.length);
  boards.forEach((b, i) => (view[i] = (BigInt(b.hi >>> 0) << 32n) | BigInt(b.lo >>> 0)));
  const results: number[] = [];
  for (let p = 0; p < passes; p++) {
    const t0 = process.hrtime.bigint();
    wasm.exports.benchMoves(ptr, boards.length, repeats);
    results.push(Number(process.hrtime.bigint() - t0) / (boards.length * 4 * repeats));
  }
  return { path: 'WebAssembly move (the search\'s)', nsPerMove: median(results.slice(1)), passes: results };
}

/**
 * ns per move of the library's `moveInto` (TypeScript; what applyMove and the game loop use):
 * every position × 4 directions, repeated.
 */
export function benchEngine(boards: readonly Board[], passes = 7, movesPerPass = 4_000_000): EngineBench {
  const lo = Int32Array.from(boards, (b) => b.lo);
  const hi = Int32Array.from(boards, (b) => b.hi);
  const n = boards.length;
  const moveInto = moves.moveInto; // a local alias: transpilers may make imports getters
  const moved = moves.moved;
  let sink = 0;
  const results: number[] = [];
  for (let p = 0; p < passes; p++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < movesPerPass; i++) {
      const k = i % n;
      moveInto(lo[k], hi[k], i & 3);
      sink ^= moved[0] ^ moved[1];
    }
    results.push(Number(process.hrtime.bigint() - t0) / movesPerPass);
  }
  if (sink === 0x12345678) console.error('');
  return { path: 'TypeScript moveInto (the library\'s)', nsPerMove: median(results.slice(1)), passes: results };
}

export interface SearchBench {
  depth: number;
  msPerMove: number;
  leavesPerSecond: number;
  movesExecutedPerSecond: number;
  nodesPerMove: number;
  leavesPerMove: number;
  cacheHitsPerMove: number;
}

/** One timed pass: every position decided, repeated until at least `minMs` has passed (so timer resolution does not matter). */
export function timePass(player: { chooseMove(board: Board): unknown }, boards: readonly Board[], minMs: number): { msPerDecision: number; decisions: number } {
  let decisions = 0;
  const t0 = performance.now();
  let elapsed = 0;
  do {
    for (const b of boards) player.chooseMove(b);
    decisions += boards.length;
    elapsed = performance.now() - t0;
  } while (elapsed < minMs);
  return { msPerDecision: elapsed / decisions, decisions };
}

/** Best move for every position at a fixed depth; median ms per decision over passes. */
export function benchSearch(weights: Weights, boards: readonly Board[], depth: number, passes = 5, cprob = 1e-4): SearchBench {
  const player = createExpectimaxPlayer(weights, { depth, cprob });
  const perPass: { ms: number; leaves: number; moves: number; nodes: number; hits: number }[] = [];
  const minMs = depth <= 1 ? 200 : 400; // repeat short passes so timer resolution does not matter
  for (let p = 0; p < passes + 1; p++) {
    player.resetStats();
    const { msPerDecision, decisions } = timePass(player, boards, minMs);
    const s = player.stats();
    if (p > 0) perPass.push({ ms: msPerDecision, leaves: s.leaves / decisions, moves: s.movesExecuted / decisions, nodes: s.nodes / decisions, hits: s.cacheHits / decisions });
  }
  const msPerMove = median(perPass.map((r) => r.ms));
  const leavesPerMove = median(perPass.map((r) => r.leaves));
  const movesPerMove = median(perPass.map((r) => r.moves));
  return {
    depth,
    msPerMove,
    leavesPerSecond: (leavesPerMove / msPerMove) * 1000,
    movesExecutedPerSecond: (movesPerMove / msPerMove) * 1000,
    nodesPerMove: median(perPass.map((r) => r.nodes)),
    leavesPerMove,
    cacheHitsPerMove: median(perPass.map((r) => r.hits)),
  };
}

export interface GameBench {
  depth: number;
  games: number;
  /** Median over games of ms per game. */
  msPerGame: number;
  movesPerGame: number;
  /** Median over games of µs per move. */
  usPerMove: number;
}

/** Whole seeded games, warm (a few warm-up games first). */
export function benchGames(weights: Weights, depth: number, games = 30, seed = 1): GameBench {
  const player = createExpectimaxPlayer(weights, { depth });
  for (let i = 0; i < 3; i++) playGame(player, 1_000_000 + i);
  const results = Array.from({ length: games }, (_, i) => playGame(player, seed + i));
  return {
    depth,
    games,
    msPerGame: median(results.map((r) => r.ms)),
    movesPerGame: median(results.map((r) => r.moves)),
    usPerMove: median(results.map((r) => (1000 * r.ms) / r.moves)),
  };
}

export interface NetworkSearchBench {
  depth: number;
  msPerMove: number;
  nodesPerMove: number;
  /** With threads > 1: the root split's ms per decision, timed in the same passes (interleaved), and one thread's over it. */
  split?: { threads: number; msPerMove: number; speedup: number };
}

/**
 * The network's search (src/wasm/assembly/network-search.ts) on every position at a fixed depth; median ms per
 * decision over passes. With threads > 1 each pass also times the root split on that many threads, right after
 * the one-thread pass (a noisy machine then slows both alike).
 */
export function benchNetworkSearch(spec: NetworkPlayerSpec, boards: readonly Board[], depth: number, passes = 5, threads = 1): NetworkSearchBench {
  const split = threads > 1 && depth > 0 ? createNetworkPlayer({ ...spec, search: { ...spec.search, depth, threads } }) : null;
  const player = createNetworkPlayer({ ...spec, search: { ...spec.search, depth } });
  const machine = networkMachineFor(spec.network, split ? threads : 1);
  const perPass: { ms: number; nodes: number; splitMs: number }[] = [];
  const minMs = depth <= 1 ? 200 : 400;
  for (let p = 0; p < passes + 1; p++) {
    const nodes0 = machine.exports.searchNodes();
    const one = timePass(player, boards, minMs);
    const nodes = (machine.exports.searchNodes() - nodes0) / one.decisions;
    const splitMs = split ? timePass(split, boards, minMs).msPerDecision : NaN;
    if (p > 0) perPass.push({ ms: one.msPerDecision, nodes, splitMs });
  }
  const msPerMove = median(perPass.map((r) => r.ms));
  const splitMs = median(perPass.map((r) => r.splitMs));
  return { depth, msPerMove, nodesPerMove: median(perPass.map((r) => r.nodes)), ...(split ? { split: { threads, msPerMove: splitMs, speedup: median(perPass.map((r) => r.ms / r.splitMs)) } } : {}) };
}

/** How well a search's node count predicts its time: one sample a position and depth. */
export interface CostFit {
  /** Positions × depths timed. */
  samples: number;
  /** R² of ms per move against nodes per move (a line with an intercept), over the samples. */
  r2: number;
  /** Nanoseconds a node: all the samples' time over all their nodes. */
  nsPerNode: number;
}

/** The least-squares line of y on x: its R² (Pearson's r squared; 0 when either side is constant). */
export function rSquared(xs: readonly number[], ys: readonly number[]): number {
  const r = pearson(xs, ys);
  return Number.isNaN(r) ? 0 : r * r;
}

/**
 * The nodes a search counts against its time, position by position: each position's decision repeated for
 * at least `minMs`, at each depth. The count is the same on every machine (it is what a two-objective run
 * would minimise); the time is this machine's.
 */
export function fitCost(playerAt: (depth: number) => { chooseMove(board: Board): unknown }, nodes: (depth: number) => number, boards: readonly Board[], depths: readonly number[], minMs = 5): CostFit {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const depth of depths) {
    const player = playerAt(depth);
    for (const b of boards) {
      player.chooseMove(b); // warm: tables, the transposition table's first fill
      const n0 = nodes(depth);
      const { msPerDecision, decisions } = timePass(player, [b], minMs);
      xs.push((nodes(depth) - n0) / decisions);
      ys.push(msPerDecision);
    }
  }
  const totalNodes = xs.reduce((a, b) => a + b, 0);
  return { samples: xs.length, r2: rSquared(xs, ys), nsPerNode: totalNodes > 0 ? (ys.reduce((a, b) => a + b, 0) / totalNodes) * 1e6 : NaN };
}

/** Every figure `tune2048 bench` prints (its thread runs this: src/cli/commands/bench.ts), progress on stderr. */
export function runBench(opts: { depths: number[]; passes: number; games: number; weights: string; networkSpec: NetworkPlayerSpec | null; threads?: number }) {
  const boards = loadBenchPositions();
  const { networkSpec } = opts;
  const weights = loadWeights(opts.weights);
  console.error(`bench: engine moves on ${boards.length} positions x 4 directions...`);
  const engine = [benchWasmMoves(boards, opts.passes + 1), benchEngine(boards, opts.passes + 1)];
  const search = opts.depths.map((d) => {
    console.error(`bench: search at depth ${d}...`);
    return benchSearch(weights, boards, d, opts.passes);
  });
  const network = networkSpec
    ? [0, ...opts.depths.filter((d) => d > 0)].map((d) => {
        console.error(`bench: the network's search at depth ${d}...`);
        return benchNetworkSearch(networkSpec, boards, d, opts.passes, opts.threads ?? 1);
      })
    : undefined;
  const searched = opts.depths.filter((d) => d > 0);
  console.error(`bench: nodes against time, position by position, at depths ${searched.join(', ')}...`);
  const players = new Map(searched.map((d) => [d, createExpectimaxPlayer(weights, { depth: d, cprob: 1e-4 })]));
  const cost = {
    search: fitCost((d) => players.get(d)!, (d) => players.get(d)!.stats().nodes, boards, searched),
    ...(networkSpec
      ? (() => {
          const nets = new Map(searched.map((d) => [d, createNetworkPlayer({ ...networkSpec, search: { ...networkSpec.search, depth: d } })]));
          const machine = networkMachineFor(networkSpec.network, 1);
          return { network: fitCost((d) => nets.get(d)!, () => machine.exports.searchNodes(), boards, searched) };
        })()
      : {}),
  };
  console.error(`bench: ${opts.games} whole games at depth 1...`);
  const game = benchGames(weights, 1, opts.games);
  return { boards: boards.length, weights: weights.name, engine, search, network, cost, game };
}
