/**
 * Expectimax over the table engine, after nneonneo/2048-ai's 2048.cpp. The
 * search itself runs in WebAssembly (src/wasm/assembly/search.ts, one module
 * instance per process); this module is its TypeScript face.
 *
 * - Max node: the best legal move's chance value; a board with no legal move
 *   (lost) scores 0, so a positive `alive` bonus rewards survival.
 *   (nneonneo starts its max at 0, which also clamps negative heuristics to 0;
 *   we take the true maximum so tuned weights with negative values stay correct.)
 * - Chance node: the average over every empty cell of 0.9·(a 2 spawns) + 0.1·(a 4).
 * - `depth` counts the chance layers expanded below the root move; a chance node
 *   at that depth, or whose path probability is below `cprob`, is scored by the
 *   heuristic. `auto` = max(3, distinct tiles − 2).
 * - Transposition table: direct-mapped, 32-byte entries (one per half cache
 *   line), keyed by the board, stamped with a per-decision epoch so it never
 *   needs clearing; one table per decision, shared by the root moves (with
 *   `threads` ≥ 1, one per root move: the root split of ./threads.ts). An entry
 *   stored at chance depth d is reused at depth ≥ d (it was searched at least as
 *   deep), as nneonneo does.
 *
 * Any number of players may exist; they share the one instance, which holds
 * the heuristic tables of the player that searched last (switching copies
 * ~0.5–2.5 MB, far less than a game). Play is bit for bit that of the earlier
 * TypeScript search (kept as test/helpers/js-search.ts).
 */
import { Board, countDistinctTiles, formatBoard } from '../engine/board';
import { applyMove, type Direction } from '../engine/moves';
import { buildStagedTables, loadableTables, type HeuristicTables, type StagedTables } from '../heuristic/tables';
import type { Weights } from '../heuristic/weights';
import { MAX_DEPTH, MAX_THREADS } from './limits';
import { searchModule, type SearchModule } from '../wasm/module';
import { createRootSplit } from './threads';
import { searchWithin, type Clock } from './move-budget';

export { MAX_DEPTH, MAX_THREADS };

export type DepthSetting = number | 'auto';

/** A decision's depth on `board`: a fixed depth, or `auto`'s rule, max(3, distinct tiles − 2) (nneonneo's), at most MAX_DEPTH. */
export function depthOf(depth: DepthSetting, board: Board): number {
  return depth === 'auto' ? Math.min(MAX_DEPTH, Math.max(3, countDistinctTiles(board) - 2)) : depth;
}

export interface SearchSettings {
  /** Chance layers below the root move, or 'auto' = max(3, distinct tiles − 2). */
  depth: DepthSetting;
  /** Chance branches whose path probability falls below this are scored by the heuristic. */
  cprob: number;
  /** Transposition table memory cap in MiB (0 disables the table). */
  cacheMB: number;
  /**
   * 0: the root moves share one table (the default search). N ≥ 1: the root split — each root move
   * searched with a table of its own, on N threads (src/player/threads.ts); the same moves for every N.
   */
  threads: number;
  /**
   * A time budget per move in ms (0: none): iterative deepening up to `depth` (./move-budget.ts), the move
   * always the one of the deepest depth finished. Games then depend on the machine's speed.
   */
  msPerMove: number;
}

/** 4 MiB of transposition table: faster than 16 or 64 MiB at every depth measured (1–4, auto), as it stays in L3 (docs/speed.md). */
export const DEFAULT_SEARCH: Readonly<SearchSettings> = Object.freeze({ depth: 2, cprob: 1e-4, cacheMB: 4, threads: 0, msPerMove: 0 });
/** The transposition table's cap: the WebAssembly memory (4 GiB at most) also holds the tables. */
export const MAX_CACHE_MB = 1024;

export interface SearchStats {
  /** Max nodes plus expanded chance nodes. */
  nodes: number;
  /** Heuristic evaluations. */
  leaves: number;
  cacheHits: number;
  /** Moves computed by max nodes (4 per max node, legal or not). */
  movesExecuted: number;
}

export interface MoveEvaluation {
  move: Direction;
  legal: boolean;
  /** The board after the move, before the spawn. */
  board: Board;
  /** Merge score earned by the move. */
  score: number;
  /** Expectimax value (null when illegal). */
  value: number | null;
}

export interface ExpectimaxPlayer {
  readonly settings: Readonly<SearchSettings>;
  /** The best legal move, or -1 when the game is over. Ties go to the earlier of up, down, left, right. */
  chooseMove(board: Board): Direction | -1;
  evaluateMoves(board: Board): MoveEvaluation[];
  /** chooseMove's search, also giving the value of each root move it saw (NaN when illegal): what the viewer shows. */
  decide(board: Board): { move: Direction | -1; values: number[] };
  /** The static heuristic value of a board. */
  heuristic(board: Board): number;
  /** The depth limit the search uses for this board. */
  depthFor(board: Board): number;
  stats(): SearchStats;
  resetStats(): void;
  /** Nodes expanded so far (stats().nodes): the Player interface's cost counter. */
  searchNodes(): number;
  /** The depths its decisions searched so far (the Player interface's depth counter). */
  searchDepths(): number;
}

export function validateSearchSettings(s: SearchSettings): void {
  if (s.depth !== 'auto' && (!Number.isInteger(s.depth) || s.depth < 0 || s.depth > MAX_DEPTH)) {
    throw new Error(`depth must be an integer from 0 to ${MAX_DEPTH} or "auto", got ${s.depth}`);
  }
  if (!(s.cprob >= 0 && s.cprob < 1)) throw new Error(`cprob must be a number in [0, 1), got ${s.cprob}`);
  if (!(s.cacheMB >= 0 && s.cacheMB <= MAX_CACHE_MB)) throw new Error(`cache size must be 0..${MAX_CACHE_MB} MiB, got ${s.cacheMB}`);
  if (!Number.isInteger(s.threads) || s.threads < 0 || s.threads > MAX_THREADS) throw new Error(`threads must be an integer from 0 (no split) to ${MAX_THREADS}, got ${s.threads}`);
  if (!(s.msPerMove >= 0 && Number.isFinite(s.msPerMove))) throw new Error(`the time per move must be a number of ms ≥ 0, got ${s.msPerMove}`);
}

const TT_BYTES_PER_ENTRY = 32;

/** log2 of the entries of the largest power-of-two table within the cap (below 4: no table). */
export function cacheBits(cacheMB: number): number {
  let bits = 0;
  while (bits < 30 && 2 ** (bits + 1) * TT_BYTES_PER_ENTRY <= cacheMB * 1024 * 1024) bits++;
  return cacheMB > 0 ? bits : 0;
}

/**
 * Which player's tables and cache size the instance holds now, and whose counters it is counting:
 * `base` is that player's own stats object, `flush` adds the instance's counters to it.
 */
let active: { tables: HeuristicTables; bits: number; base: SearchStats; flush: () => void } | null = null;

/** The WebAssembly expectimax player: one that can also lend its heuristic to the module's other searches. */
export interface WasmExpectimaxPlayer extends ExpectimaxPlayer {
  /** The module instance, now holding this player's heuristic tables for `board`'s stage (for minimax over the same heuristic). */
  loaded(board: Board): SearchModule;
}

/** A weight set's tables for every stage, whichever form it came in. */
function stagedTables(heuristic: Weights | HeuristicTables | StagedTables): StagedTables {
  if ('stageOf' in heuristic) return heuristic;
  if ('lineTable' in heuristic) return { weights: heuristic.weights, stages: [heuristic], stageOf: () => 0 };
  return buildStagedTables(heuristic);
}

/**
 * The expectimax player of a weight set (its tables are built here) or of tables already built. With
 * stages, each decision searches with the tables of the stage of the board to move on (so a search's
 * tables change only when the stage does).
 */
export function createExpectimaxPlayer(heuristic: Weights | HeuristicTables | StagedTables, options: Partial<SearchSettings> = {}, clock?: Clock): WasmExpectimaxPlayer {
  const staged = stagedTables(heuristic);
  const loadable = new Map(staged.stages.map((t) => [t, loadableTables(t)]));
  const settings: SearchSettings = { ...DEFAULT_SEARCH, ...options };
  validateSearchSettings(settings);
  const wasm: SearchModule = searchModule();
  const bits = cacheBits(settings.cacheMB);
  const base: SearchStats = { nodes: 0, leaves: 0, cacheHits: 0, movesExecuted: 0 };
  const flush = () => {
    const e = wasm.exports;
    base.nodes += e.statNodes();
    base.leaves += e.statLeaves();
    base.cacheHits += e.statCacheHits();
    base.movesExecuted += e.statMovesExecuted();
  };

  /** The tables of the stage `board` is in. */
  const tablesFor = (board: Board): HeuristicTables => staged.stages[staged.stageOf(board)];

  /** Makes the instance ours: `tables` (a stage's) and our cache size; the counters of the previous owner go to it. */
  function activate(tables: HeuristicTables): void {
    if (active?.base === base) {
      if (active.tables !== tables) {
        wasm.loadHeuristic(loadable.get(tables)!);
        active.tables = tables;
      }
      return;
    }
    active?.flush();
    if (active?.tables !== tables) wasm.loadHeuristic(loadable.get(tables)!);
    if (active?.bits !== bits) wasm.exports.setCache(bits);
    wasm.exports.resetStats();
    active = { tables, bits, base, flush };
  }

  const depthFor = (board: Board): number => depthOf(settings.depth, board);

  const split = settings.threads >= 1 ? createRootSplit(wasm, bits, settings.threads, base) : null;

  /** The best move at `depth`; the root values are then in rootValues(). */
  function searchAt(board: Board, tables: HeuristicTables, depth: number): number {
    wasm.exports.setSearch(depth, settings.cprob);
    try {
      return split ? split.search(board, depth, settings.cprob, tables) : wasm.exports.searchRoot(board.lo, board.hi);
    } catch (e) {
      throw new Error(`the search failed on board ${formatBoard(board)} (depth ${depth}, cprob ${settings.cprob}, cache ${settings.cacheMB} MiB): ${(e as Error).message}`);
    }
  }

  let depthsSearched = 0;
  /** The best move at the depth limit, or within the time per move as deep as it allows. */
  function search(board: Board): number {
    const tables = tablesFor(board);
    activate(tables);
    let move = -1;
    const searched = searchWithin(depthFor(board), settings.msPerMove, (d) => (move = searchAt(board, tables, d)), clock);
    if (move >= 0) depthsSearched += searched;
    return move;
  }
  const rootValues = () => (split ? split.values : wasm.rootValues());
  function stats(): SearchStats {
    if (active?.base === base) {
      const e = wasm.exports;
      return { nodes: base.nodes + e.statNodes(), leaves: base.leaves + e.statLeaves(), cacheHits: base.cacheHits + e.statCacheHits(), movesExecuted: base.movesExecuted + e.statMovesExecuted() };
    }
    return { ...base };
  }

  return {
    settings: Object.freeze({ ...settings }),
    chooseMove: (board) => search(board) as Direction | -1,
    decide(board) {
      const move = search(board) as Direction | -1;
      return { move, values: Array.from(rootValues()) };
    },
    evaluateMoves(board) {
      search(board);
      const values = rootValues();
      return ([0, 1, 2, 3] as Direction[]).map((dir) => {
        const after = applyMove(board, dir);
        return { move: dir, legal: after.legal, board: after.board, score: after.score, value: after.legal ? values[dir] : null };
      });
    },
    heuristic(board) {
      activate(tablesFor(board));
      return wasm.exports.heuristic(board.lo | 0, board.hi | 0);
    },
    depthFor,
    // The caller's module's count: a root split's helpers count their own (tuning never splits).
    searchNodes: () => stats().nodes,
    searchDepths: () => depthsSearched,
    loaded(board) {
      activate(tablesFor(board));
      return wasm;
    },
    stats,
    resetStats() {
      base.nodes = base.leaves = base.cacheHits = base.movesExecuted = 0;
      if (active?.base === base) wasm.exports.resetStats();
    },
  };
}
