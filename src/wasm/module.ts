/**
 * Loads the search's WebAssembly module (built from src/wasm/assembly by
 * `npm run build` into build/search.wasm) once per process and gives typed
 * access to its exports and memory.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROW_COUNT, ROW_LEFT, ROW_RIGHT } from '../engine/tables';
import type { LoadableTables } from '../heuristic/tables';

/** build/ of this package (two levels above both src/wasm and dist/wasm). */
export const WASM_PATH = resolve(__dirname, '..', '..', 'build', 'search.wasm');

export interface SearchExports {
  memory: WebAssembly.Memory;
  init(): void;
  rowLeftPtr(): number;
  rowRightPtr(): number;
  lineTablePtr(): number;
  rowTablesPtr(): number;
  columnTablesPtr(): number;
  rootValuesPtr(): number;
  useHeuristic(rowsDiffer: number, columnsDiffer: number): void;
  setCache(bits: number): void;
  setSearch(depthLimit: number, cprob: number): void;
  searchRoot(lo: number, hi: number): number;
  searchMove(lo: number, hi: number, dir: number): number;
  minimaxMove(lo: number, hi: number, dir: number, depth: number, pruning: number): number;
  minimaxNodes(): number;
  heuristic(lo: number, hi: number): number;
  resetStats(): void;
  statNodes(): number;
  statLeaves(): number;
  statCacheHits(): number;
  statMovesExecuted(): number;
  boardsPtr(count: number): number;
  benchMoves(boards: number, count: number, passes: number): bigint;
}

export interface SearchModule {
  exports: SearchExports;
  /**
   * Writes a weight set's tables into the instance: rowTables one per row when rows differ (a matrix,
   * line-position terms), columnTables one per column when columns differ; null: each is the lineTable.
   */
  loadHeuristic(tables: LoadableTables): void;
  /** The value of each root move of the last search (NaN when illegal). */
  rootValues(): Float64Array;
}

let loaded: SearchModule | null = null;

function readModule(): Buffer {
  try {
    return readFileSync(WASM_PATH);
  } catch {
    throw new Error(`the search module "${WASM_PATH}" is missing; build it with: npm run build`);
  }
}

let compiled: WebAssembly.Module | null = null;

/** build/search.wasm compiled, once per process (Node); search threads get it to make their own instance. */
export function compiledSearchModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(readModule() as Uint8Array<ArrayBuffer>));
}

/** The process's instance (its main thread's), from build/search.wasm the first time (Node). */
export function searchModule(): SearchModule {
  return (loaded ??= instantiateSearch(compiledSearchModule()));
}

/** Browsers: the module from bytes the page fetched (before the first search). */
export function loadSearchModule(bytes: Uint8Array): SearchModule {
  return (loaded ??= instantiateSearch(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>)));
}

/** A new instance with its own memory: the process's, or a search thread's (src/player/threads.ts). */
export function instantiateSearch(module: WebAssembly.Module): SearchModule {
  const instance = new WebAssembly.Instance(module, {
    env: {
      abort: (_message: number, _file: number, line: number, column: number) => {
        throw new Error(`the search module stopped (out of memory or a bug) at search.ts:${line}:${column}`);
      },
    },
  });
  const exports = instance.exports as unknown as SearchExports;
  exports.init();
  // The memory may grow at any call (a larger cache): make views just before use.
  const f64 = (ptr: number, length: number) => new Float64Array(exports.memory.buffer, ptr, length);
  new Uint16Array(exports.memory.buffer, exports.rowLeftPtr(), ROW_COUNT).set(ROW_LEFT);
  new Uint16Array(exports.memory.buffer, exports.rowRightPtr(), ROW_COUNT).set(ROW_RIGHT);
  return {
    exports,
    loadHeuristic({ lineTable, rowTables, columnTables }) {
      f64(exports.lineTablePtr(), ROW_COUNT).set(lineTable);
      rowTables?.forEach((t, i) => f64(exports.rowTablesPtr() + i * ROW_COUNT * 8, ROW_COUNT).set(t));
      columnTables?.forEach((t, i) => f64(exports.columnTablesPtr() + i * ROW_COUNT * 8, ROW_COUNT).set(t));
      exports.useHeuristic(rowTables ? 1 : 0, columnTables ? 1 : 0);
    },
    rootValues: () => f64(exports.rootValuesPtr(), 4),
  };
}
