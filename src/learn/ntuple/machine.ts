/**
 * An n-tuple network in WebAssembly memory (build/learn.wasm, src/wasm/assembly/learn.ts): the layout of
 * one shared memory that every training thread's instance attaches to, and typed access to its parts. The
 * calling thread holds an instance too (greedy moves, values, tests), with a scratch slot of its own.
 */
import { readFileSync } from 'node:fs';
import { freemem } from 'node:os';
import { resolve } from 'node:path';
import { ROW_COUNT, ROW_LEFT, ROW_RIGHT, SCORE_LEFT } from '../../engine/tables';
import { InputError } from '../../util/errors';
import { adviseHugePages, type HugePages } from '../../wasm/huge-pages';
import { MAX_TUPLES, networkEntries, stageOfRank, tableEntries, tupleRuns, type NetworkShape } from './shape';

export const LEARN_WASM_PATH = resolve(__dirname, '..', '..', '..', 'build', 'learn.wasm');

export interface LearnExports {
  heapBase(): number;
  attach(block: number, thread: number): void;
  train(): void;
  evaluate(): void;
  value(lo: number, hi: number): number;
  greedyMove(lo: number, hi: number): number;
  lastValue(): number;
  tdStep(lo: number, hi: number, target: number, step: number): void;
  /** The search (src/wasm/assembly/network-search.ts): depth limit and cprob, then one root move's value (NaN when illegal). */
  setNetworkSearch(depth: number, cprob: number): void;
  keepLeaves(on: number): void;
  leafValuesComputed(): number;
  /** Stage weights on the leaves' values (network-search.ts); cleared, the leaves are the network's values. */
  setStageWeight(stage: number, weight: number): void;
  clearStageWeights(): void;
  /** Heuristic tables added at the leaves (row tables 0-3, column tables 0-3); cleared, none. */
  useLeafHeuristic(r0: number, r1: number, r2: number, r3: number, c0: number, c1: number, c2: number, c3: number): void;
  clearLeafHeuristic(): void;
  searchMove(lo: number, hi: number, dir: number): number;
  searchNodes(): number;
}

// The block's words (src/wasm/assembly/learn.ts W_* and F_*), in the layout BLOCK_LAYOUT (raise it there and here with any change).
const BLOCK_LAYOUT = 6;
/** Each searching instance has 2^LEAF_BITS leaf-cache entries of 16 bytes after its transposition table (network-search.ts LEAF_BITS). */
const LEAF_BITS = 14;
const W = { CONTROL: 0, SCRATCH: 1, ROW_MOVES: 2, STAGE_OF_RANK: 6, TUPLES: 7, STAGES: 8, RUNS: 9, TABLE_PTRS: 10, RING: 11, EVAL: 12, STARTS: 13, START_COUNT: 14, PROMOTE: 15, SCRATCH_BYTES: 16, STAGE_STRIDE: 17, SEARCH_TABLE: 18, SEARCH_BITS: 19, SEARCH_THREAD: 20, COHERENCE: 21, PAIR_SHIFT: 22, PATHS: 23, RESTARTS: 24, RESTART_MIN: 25, RESTART_MAX: 26 } as const;
const F_BASE = 128;
const F = { TRAIN_SEED: 0, EVAL_SEED: 1, STEP: 2, SHARE: 3, LAMBDA: 4, RESTART_AT: 5 } as const;
const BLOCK_BYTES = 256;
/** Control words as an Int32Array (C_* of learn.ts; MOVES is a u64 at words 4–5). */
export const C = { NEXT: 0, LIMIT: 1, STOP: 2, DONE: 3, MOVES_LO: 4, MOVES_HI: 5, EVAL_NEXT: 6, EVAL_LIMIT: 7 } as const;
export const RING = 4096;
const RUN_WORDS = 20;
/** An episode's path per training thread (learn.ts PATH_CAP moves of 16 bytes): TD(λ) and restarts. */
const PATH_CAP = 2 ** 18;
const PATH_BYTES = PATH_CAP * 16;
/** Per thread: 9 slots of the addresses of one value's reads (src/wasm/assembly/ntuple.ts SLOTS). */
const SCRATCH_BYTES = 9 * MAX_TUPLES * 8 * 4;
const PAGE = 65536;
/** WebAssembly's 32-bit memory: 65,536 pages of 64 KiB. */
const MAX_PAGES = 65536;

export interface MachineOptions {
  threads: number;
  /** Training game g is played on seed trainSeed + g; held-out game i on evalSeed + i. */
  trainSeed: number;
  evalSeed: number;
  /** The TD step per unit of error on an entry (the learning rate over the value's reads). */
  step: number;
  /** Held-out games one evaluation may play at most. */
  evalCapacity: number;
  /** Late starts (u64 boards as [lo, hi]) and the share of training games that start from one. */
  starts?: { boards: readonly { lo: number; hi: number }[]; share: number };
  /** The main instance's search table: 2^bits entries of 32 bytes (absent or < 4: the search has none). */
  searchCacheBits?: number;
  /** Searching instances: the main one and the root split's helpers (threads ≥ 2), each with a table and scratch of its own (default 1). */
  searchThreads?: number;
  /** Room for heuristic terms at the search's leaves (9 tables of 65,536 f64, 4.5 MiB): setLeafHeuristic. */
  leafHeuristic?: boolean;
  /** Temporal coherence learning: two float32 accumulators per entry (E, A side by side), the tables' memory twice more. */
  coherence?: boolean;
  /** TD(λ): each episode learned backward from its end with this λ (absent: online TD(0)). */
  lambda?: number;
  /** Restarts: each episode after a game's first from a board at `at` of the one before, while it made more than `minMoves` moves, at most `maxInRow` in a row. */
  restarts?: RestartRule;
  /** Another build of learn.wasm (benchmarks that compare two builds in one process); default build/learn.wasm. */
  module?: WebAssembly.Module;
  /** Ask for huge pages for the memory (default true; benchmarks turn it off to measure what they give). */
  hugePages?: boolean;
}

export interface RestartRule {
  at: number;
  minMoves: number;
  maxInRow?: number;
}

let compiled: WebAssembly.Module | null = null;

export function compiledLearnModule(): WebAssembly.Module {
  if (!compiled) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(LEARN_WASM_PATH);
    } catch {
      throw new Error(`the learning module "${LEARN_WASM_PATH}" is missing; build it with: npm run build`);
    }
    compiled = new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  }
  return compiled;
}

export function instantiateLearn(module: WebAssembly.Module, memory: WebAssembly.Memory): LearnExports {
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports;
  // A program and a learning module built from different sources would read each other's words wrongly: a
  // network learned or searched with them would be silently wrong, so they refuse to run together.
  const layout = (exports.BLOCK_LAYOUT as { value?: number } | undefined)?.value;
  // The path's length is part of the layout too: a module writing longer paths would run into the next thread's.
  if (layout !== BLOCK_LAYOUT || (exports.PATH_CAP as { value?: number } | undefined)?.value !== PATH_CAP || (exports.LEAF_BITS as { value?: number } | undefined)?.value !== LEAF_BITS) {
    throw new Error(`the learning module "${LEARN_WASM_PATH}" was built from other sources than this program (block layout ${layout ?? 'unknown'}, this program's ${BLOCK_LAYOUT}); build both with: npm run build`);
  }
  return exports as unknown as LearnExports;
}

const align = (x: number, to: number) => Math.ceil(x / to) * to;

/** Bytes the tables of a shape take (what a table file holds, without its header). */
export function networkBytes(shape: NetworkShape): number {
  return networkEntries(shape) * 4;
}

export function formatBytes(n: number): string {
  return n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(2)} GiB` : `${(n / 2 ** 20).toFixed(1)} MiB`;
}

export class NetworkMachine {
  readonly memory: WebAssembly.Memory;
  readonly block: number;
  readonly control: Int32Array;
  /** The main thread's instance (scratch slot `threads`). */
  readonly exports: LearnExports;
  private readonly tablePtr: number[];
  /** The leaf heuristic's 9 tables (line, rows 0-3, columns 0-3), 0 without room for them. */
  private readonly heuristicPtr: number;
  /** The leaf heuristic's 8 table addresses as useLeafHeuristic took them (null: none on): the root split's helpers take the same. */
  leafPointers: number[] | null = null;
  /** Whether the search keeps its leaf values across decisions (keepLeaves: the tables will not change again); the root split's helpers do as the machine does. */
  leavesKept = false;
  /** Which heuristic the leaf tables hold (a key of the caller's), null when none is on. */
  private leafHeuristicKey: string | null = null;
  private readonly ringPtr: number;
  private readonly evalPtr: number;
  /** Where the accumulator pairs start (temporal coherence), 0 without. */
  private readonly pairsAt: number;
  /** Whether the memory asked for huge pages and got the advice (src/wasm/huge-pages.ts). */
  readonly hugePages: HugePages;

  constructor(
    readonly shape: NetworkShape,
    readonly options: MachineOptions,
  ) {
    const module = options.module ?? compiledLearnModule();
    const starts = options.starts?.boards ?? [];
    // The layout: block, control, scratch, row table, shape, results, starts, then the tables (64-byte aligned).
    let at = 1024;
    const place = (bytes: number, alignment = 64) => {
      const p = align(at, alignment);
      at = p + bytes;
      return p;
    };
    const block = place(BLOCK_BYTES);
    const control = place(64);
    const searchThreads = this.searchThreads;
    const scratch = place(SCRATCH_BYTES * (options.threads + searchThreads));
    const rowMoves = place(ROW_COUNT * 8);
    const stageOf = place(16);
    const runs = place(shape.tuples.length * RUN_WORDS * 4);
    const tablePtrs = place(shape.tuples.length * shape.stages.length * 4);
    const ring = place(RING * 16);
    const evalResults = place(Math.max(1, options.evalCapacity) * 16);
    const startsAt = place(Math.max(1, starts.length) * 8);
    // Paths for the training threads and the calling thread's instance, only when an episode must be kept.
    const paths = options.lambda !== undefined || options.restarts ? place(PATH_BYTES * (options.threads + 1)) : 0;
    const searchBits = options.searchCacheBits ?? 0;
    // Per searching instance: its transposition table (32-byte entries), then its leaf cache (16-byte entries).
    const searchTable = searchBits >= 4 ? place((2 ** searchBits * 32 + 2 ** LEAF_BITS * 16) * searchThreads) : 0;
    this.heuristicPtr = options.leafHeuristic ? place(9 * ROW_COUNT * 8) : 0;
    this.tablePtr = [];
    for (let s = 0; s < shape.stages.length; s++) for (const cells of shape.tuples) this.tablePtr.push(place(tableEntries(cells) * 4));
    // The accumulator pairs mirror the tables at twice their size (every table's size is a multiple of 64 bytes, so
    // the tables are contiguous): the pair of the entry at a is at 2·a + pairShift.
    this.pairsAt = options.coherence ? place(2 * (at - this.tablePtr[0])) : 0;
    const pairShift = (this.pairsAt - 2 * this.tablePtr[0]) >>> 0;
    const bytes = align(at, PAGE);
    if (bytes / PAGE > MAX_PAGES) {
      throw new InputError(`a network of ${shape.tuples.length} tuples in ${shape.stages.length} stages needs ${formatBytes(bytes)}; WebAssembly memory holds at most 4 GiB: use fewer or shorter tuples, or fewer stages`);
    }
    // Refuse before the allocation would fail (or push the machine into swap), saying how much it needs.
    if (bytes > freemem() + 256 * 2 ** 20) throw new InputError(`the network needs ${formatBytes(bytes)} of memory and this machine has ${formatBytes(freemem())} free`);
    this.memory = new WebAssembly.Memory({ initial: bytes / PAGE, maximum: bytes / PAGE, shared: true });
    // Before anything is written: the tables' pages come as 2 MiB ones (a read then rarely misses the TLB).
    this.hugePages = options.hugePages === false ? { advised: false, reason: 'not asked for' } : adviseHugePages(this.memory, bytes);
    const buffer = this.memory.buffer;
    const u32 = new Uint32Array(buffer);
    const i32 = new Int32Array(buffer);
    const f64 = new Float64Array(buffer);
    const word = (k: number, v: number) => (u32[(block >> 2) + k] = v);
    word(W.CONTROL, control);
    word(W.SCRATCH, scratch);
    word(W.SCRATCH_BYTES, SCRATCH_BYTES);
    word(W.ROW_MOVES, rowMoves);
    word(W.STAGE_OF_RANK, stageOf);
    word(W.TUPLES, shape.tuples.length);
    word(W.STAGES, shape.stages.length);
    word(W.PROMOTE, shape.promote ? 1 : 0);
    word(W.RUNS, runs);
    word(W.TABLE_PTRS, tablePtrs);
    word(W.RING, ring);
    word(W.EVAL, evalResults);
    word(W.STARTS, startsAt);
    word(W.START_COUNT, starts.length);
    word(W.SEARCH_TABLE, searchTable);
    word(W.SEARCH_BITS, searchBits);
    word(W.SEARCH_THREAD, options.threads);
    word(W.COHERENCE, options.coherence ? 1 : 0);
    word(W.PAIR_SHIFT, pairShift);
    word(W.PATHS, paths);
    word(W.RESTARTS, options.restarts ? 1 : 0);
    word(W.RESTART_MIN, options.restarts?.minMoves ?? 0);
    word(W.RESTART_MAX, options.restarts?.maxInRow ?? 0);
    f64[(block + F_BASE) / 8 + F.TRAIN_SEED] = options.trainSeed;
    f64[(block + F_BASE) / 8 + F.EVAL_SEED] = options.evalSeed;
    f64[(block + F_BASE) / 8 + F.STEP] = options.step;
    f64[(block + F_BASE) / 8 + F.SHARE] = options.starts?.share ?? 0;
    f64[(block + F_BASE) / 8 + F.LAMBDA] = options.lambda ?? -1; // below 0: online TD(0)
    f64[(block + F_BASE) / 8 + F.RESTART_AT] = options.restarts?.at ?? 0.5;
    // The row table (network-moves.ts): per row a u64 of its slide left (bits 0–15), right (16–31) and reward (32–63).
    const rows = new Uint32Array(buffer, rowMoves, 2 * ROW_COUNT);
    for (let r = 0; r < ROW_COUNT; r++) {
      rows[2 * r] = ROW_LEFT[r] | (ROW_RIGHT[r] << 16);
      rows[2 * r + 1] = SCORE_LEFT[r];
    }
    new Uint8Array(buffer, stageOf, 16).set(stageOfRank(shape));
    shape.tuples.forEach((cells, t) => {
      const rs = tupleRuns(cells);
      const base = (runs >> 2) + t * RUN_WORDS;
      u32[base] = rs.length;
      rs.forEach((r, k) => {
        u32[base + 1 + 3 * k] = r.shift;
        u32[base + 2 + 3 * k] = r.mask;
        u32[base + 3 + 3 * k] = r.to;
      });
    });
    this.tablePtr.forEach((p, k) => (u32[(tablePtrs >> 2) + k] = p));
    // One tuple's tables sit a stage's bytes apart (promotion reads the stage below at that distance).
    word(W.STAGE_STRIDE, shape.stages.length > 1 ? this.tablePtr[shape.tuples.length] - this.tablePtr[0] : 0);
    starts.forEach((b, k) => {
      i32[(startsAt >> 2) + 2 * k] = b.lo;
      i32[(startsAt >> 2) + 2 * k + 1] = b.hi;
    });
    this.block = block;
    this.control = new Int32Array(buffer, control, 16);
    this.ringPtr = ring;
    this.evalPtr = evalResults;
    this.exports = instantiateLearn(module, this.memory);
    this.exports.attach(block, options.threads);
  }

  /**
   * From now on the tables do not change (a network loaded to play): the search keeps the network's leaf
   * values from one decision to the next, found again where the game went on. Exact either way (a leaf's
   * value is a function of its board and the tables); only a machine that trains must not.
   */
  keepLeaves(): void {
    this.leavesKept = true;
    this.exports.keepLeaves(1);
  }

  /** Search instances this machine has room for (the main one and its helpers). */
  get searchThreads(): number {
    return this.options.searchThreads ?? 1;
  }

  /** What helper k (1 … searchThreads − 1) of the root split needs to make its own instance on this memory: attach(block, thread). */
  searchHelper(k: number): { module: WebAssembly.Module; memory: WebAssembly.Memory; block: number; thread: number } {
    if (!(k >= 1 && k < this.searchThreads)) throw new Error(`search helper ${k}: this machine has room for ${this.searchThreads - 1}`);
    return { module: compiledLearnModule(), memory: this.memory, block: this.block, thread: this.options.threads + k };
  }

  /**
   * Heuristic terms added to every leaf of the search (row tables 0-3 and column tables 0-3, each null for the
   * line table), or none (null). Written only when `key` differs from the tables already there.
   */
  setLeafHeuristic(key: string | null, tables: { lineTable: Float64Array; rowTables: Float64Array[] | null; columnTables: Float64Array[] | null } | null): void {
    if (key === this.leafHeuristicKey) return;
    if (key === null || !tables) {
      this.exports.clearLeafHeuristic();
      this.leafHeuristicKey = null;
      this.leafPointers = null;
      return;
    }
    if (!this.heuristicPtr) throw new Error('this network machine has no room for a leaf heuristic (MachineOptions.leafHeuristic)');
    const at = (k: number) => this.heuristicPtr + k * ROW_COUNT * 8;
    const f64 = (k: number) => new Float64Array(this.memory.buffer, at(k), ROW_COUNT);
    f64(0).set(tables.lineTable);
    tables.rowTables?.forEach((t, i) => f64(1 + i).set(t));
    tables.columnTables?.forEach((t, c) => f64(5 + c).set(t));
    const row = (i: number) => (tables.rowTables ? at(1 + i) : at(0));
    const column = (c: number) => (tables.columnTables ? at(5 + c) : at(0));
    this.leafPointers = [row(0), row(1), row(2), row(3), column(0), column(1), column(2), column(3)];
    this.exports.useLeafHeuristic(...(this.leafPointers as [number, number, number, number, number, number, number, number]));
    this.leafHeuristicKey = key;
  }

  /** The table of (stage, tuple), a view into the memory. */
  table(stage: number, tuple: number): Float32Array {
    const cells = this.shape.tuples[tuple];
    return new Float32Array(this.memory.buffer, this.tablePtr[stage * this.shape.tuples.length + tuple], tableEntries(cells));
  }

  /** Every table in file order (stage by stage, tuple by tuple). */
  tables(): Float32Array[] {
    const out: Float32Array[] = [];
    for (let s = 0; s < this.shape.stages.length; s++) for (let t = 0; t < this.shape.tuples.length; t++) out.push(this.table(s, t));
    return out;
  }

  /** The temporal coherence accumulators in file order: per table, its entries' (E, A) pairs (views into the memory). */
  accumulators(): Float32Array[] {
    if (!this.pairsAt) throw new Error('this network machine learns without temporal coherence (MachineOptions.coherence)');
    const first = this.tablePtr[0];
    return this.tables().map((t) => new Float32Array(this.memory.buffer, this.pairsAt + 2 * (t.byteOffset - first), 2 * t.length));
  }

  /** Training game g's result as the ring holds it (valid while g is among the last RING games finished). */
  trainingGame(g: number): GameResult {
    return readResult(this.memory.buffer, this.ringPtr + (g % RING) * 16);
  }

  evalGame(i: number): GameResult {
    return readResult(this.memory.buffer, this.evalPtr + i * 16);
  }

  movesDone(): number {
    return (this.control[C.MOVES_LO] >>> 0) + (this.control[C.MOVES_HI] >>> 0) * 2 ** 32;
  }

  /** The TD step of the games trained from the next train call on (the threads read it as a call begins). */
  setStep(step: number): void {
    new Float64Array(this.memory.buffer)[(this.block + F_BASE) / 8 + F.STEP] = step;
  }
}

export interface GameResult {
  score: number;
  moves: number;
  maxRank: number;
  /** A training game's episodes: 1 + its restarts (held-out games: 0). */
  episodes: number;
}

function readResult(buffer: ArrayBufferLike, at: number): GameResult {
  const u = new Uint32Array(buffer, at, 4);
  return { score: u[0], moves: u[1], maxRank: u[2], episodes: u[3] };
}
