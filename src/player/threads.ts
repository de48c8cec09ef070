/**
 * Root-parallel expectimax (seeds 000 and 002 split the root's moves over threads): a decision's legal
 * root moves are shared out among the calling thread and helper threads, each with a WebAssembly
 * instance of its own.
 *
 * Every root move is searched with a transposition table of its own (the module's searchMove), so a
 * move's value does not depend on which thread searched it or what it searched before: the values, and
 * the move, are the same for any number of threads, including one. The default search shares one table
 * between a decision's root moves; which entries a root move finds there depends on the moves searched
 * before it, so no split can reproduce it, hence a mode of its own ("root split").
 *
 * A decision stays a synchronous call: the calling thread searches too, then waits with Atomics.wait
 * (allowed on Node's main thread). Helpers block on a shared word between decisions; a task is claimed
 * with a compare-and-swap on a word that also holds the decision's number, so a slow helper can never
 * take a task of the next decision.
 */
import { threadEntry } from '../util/thread-entry';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Board } from '../engine/board';
import { applyMove, type Direction } from '../engine/moves';
import { loadableTables, type HeuristicTables, type LoadableTables } from '../heuristic/tables';
import { compiledSearchModule, type SearchModule } from '../wasm/module';
import type { SearchStats } from './expectimax';

// Control words (Int32Array over a SharedArrayBuffer).
export const C = {
  SEQ: 0, // the decision's number; helpers wait on it
  CLAIM: 1, // (SEQ & SEQ_MASK) << 3 | index of the next unclaimed task
  DONE: 2, // tasks finished (or failed) of the current decision
  TASKS: 3,
  TABLES: 4, // id of the weight set's tables
  BITS: 5, // transposition table: log2 of its entries (the same size everywhere: it changes values)
  DEPTH: 6,
  LO: 7,
  HI: 8,
  DIR: 9, // 9..12: the root move of each task
  FAILED: 13, // 1 when a task failed; the message is in the message buffer
  STOP: 14,
  LENGTH: 16,
} as const;
// Numbers (Float64Array over a SharedArrayBuffer): the cutoff, then per task its value and counters.
export const F = { CPROB: 0, VALUE: 1, STATS: 5, LENGTH: 21 } as const;
export const SEQ_MASK = 0x0fffffff;
export const MESSAGE_BYTES = 1024;
/** Weight sets whose tables a helper keeps (the last ones sent): a process that makes many players holds no more. */
export const KEEP_TABLES = 8;

/** What the helpers share with the calling thread. */
export interface SharedBlock {
  control: Int32Array;
  numbers: Float64Array;
  message: Uint8Array;
}

/** A weight set's tables, in shared memory so helpers read them without a copy per decision. */
export interface SharedTables extends LoadableTables {
  id: number;
}


/**
 * Claims and runs tasks of decision `seq` until none is left: the one loop of helpers and the calling
 * thread (of the heuristic's root split and of a network's); returns how many it ran. `task(index)` searches
 * root move control[C.DIR + index] and writes its value; a task that throws fails the decision with its message.
 */
export function claimTasks(block: SharedBlock, seq: number, task: (index: number) => void): number {
  const { control } = block;
  const tag = seq & SEQ_MASK;
  let done = 0;
  for (;;) {
    const claim = Atomics.load(control, C.CLAIM);
    if (claim >>> 3 !== tag) return done; // a newer decision: this one's tasks are all taken
    const index = claim & 7;
    if (index >= Atomics.load(control, C.TASKS)) return done;
    if (Atomics.compareExchange(control, C.CLAIM, claim, claim + 1) !== claim) continue;
    done++;
    // Ours: the decision cannot end (nor its settings change) before we count this task done.
    try {
      task(index);
    } catch (err) {
      if (Atomics.compareExchange(control, C.FAILED, 0, 1) === 0) {
        const text = new TextEncoder().encode(String((err as Error).message ?? err)).subarray(0, MESSAGE_BYTES - 1);
        block.message.fill(0).set(text);
      }
    }
    Atomics.add(control, C.DONE, 1);
    Atomics.notify(control, C.DONE);
  }
}

/**
 * The heuristic search's tasks: `prepare` makes `wasm` ready for the decision's tables and table size
 * (called once per claim).
 */
export function runTasks(block: SharedBlock, seq: number, wasm: SearchModule, prepare: () => void, countStats: boolean): number {
  const { control, numbers } = block;
  return claimTasks(block, seq, (index) => {
    prepare();
    const e = wasm.exports;
    if (countStats) e.resetStats();
    e.setSearch(control[C.DEPTH], numbers[F.CPROB]);
    numbers[F.VALUE + index] = e.searchMove(control[C.LO], control[C.HI], control[C.DIR + index]);
    // The calling thread's counters go to its player as usual: its tasks report none here.
    const s = F.STATS + 4 * index;
    numbers[s] = countStats ? e.statNodes() : 0;
    numbers[s + 1] = countStats ? e.statLeaves() : 0;
    numbers[s + 2] = countStats ? e.statCacheHits() : 0;
    numbers[s + 3] = countStats ? e.statMovesExecuted() : 0;
  });
}

/**
 * One decision of a root split: closes claiming (a helper still on the last decision then fails its
 * compare-and-swap instead of taking a task while this one's settings are written), writes the settings
 * (`write`), opens `tasks` tasks and wakes the helpers, runs the caller's share (`callerRuns`, returning how
 * many it ran), waits for the rest and throws a failed task's message. Returns the tasks the caller ran.
 */
export function runDecision(block: SharedBlock, seq: number, tasks: number, write: () => void, callerRuns: (seq: number) => number): number {
  const { control } = block;
  Atomics.store(control, C.CLAIM, (seq << 3) | 7);
  write();
  control[C.TASKS] = tasks;
  control[C.FAILED] = 0;
  Atomics.store(control, C.DONE, 0);
  Atomics.store(control, C.CLAIM, seq << 3);
  Atomics.store(control, C.SEQ, seq);
  Atomics.notify(control, C.SEQ);
  const mine = callerRuns(seq);
  for (let done = Atomics.load(control, C.DONE); done < tasks; done = Atomics.load(control, C.DONE)) waitWhile(control, C.DONE, done, SPIN_MS.caller);
  if (control[C.FAILED]) {
    const end = block.message.indexOf(0);
    throw new Error(new TextDecoder().decode(block.message.slice(0, end < 0 ? undefined : end)));
  }
  return mine;
}

/**
 * Waits until control[index] is no longer `value`: spinning first, then sleeping. A game's decisions come
 * back to back, and waking a sleeping thread can cost tens of microseconds (more in a VM), a large part
 * of a depth-2 or depth-3 decision; a short spin catches the next decision (or the last root move) awake.
 */
export function waitWhile(control: Int32Array, index: number, value: number, spinMs: number): void {
  const until = performance.now() + spinMs;
  for (let i = 0; Atomics.load(control, index) === value; i++) {
    if ((i & 63) === 63 && performance.now() > until) {
      Atomics.wait(control, index, value);
      return;
    }
  }
}

/** How long helpers stay awake after a decision, and the caller before sleeping on the last root moves. */
export const SPIN_MS = (() => {
  // (This module is also bundled for the browser, which never splits but has no `process`.)
  const ms = Number((typeof process === 'undefined' ? undefined : process.env.TUNE2048_SPIN_MS) ?? 0.5);
  return { helper: ms, caller: ms };
})();

/** The helpers of one thread count, for the whole process (a search with N threads uses N − 1 helpers and the caller). */
export class SearchThreads {
  readonly block: SharedBlock;
  private readonly helpers: Worker[] = [];
  private readonly ports: MessagePort[] = [];
  /** Ids of the tables the helpers hold, oldest first (they keep the last KEEP_TABLES sent, as we do here). */
  private readonly sent: number[] = [];
  private seq = 0;
  /** Root moves the helpers searched (the rest, the caller): tests wait for it to be positive. */
  tasksByHelpers = 0;

  constructor(readonly threads: number) {
    this.block = {
      control: new Int32Array(new SharedArrayBuffer(C.LENGTH * 4)),
      numbers: new Float64Array(new SharedArrayBuffer(F.LENGTH * 8)),
      message: new Uint8Array(new SharedArrayBuffer(MESSAGE_BYTES)),
    };
    const module = compiledSearchModule();
    const entry = threadEntry(__filename, __dirname, 'search-thread');
    for (let i = 1; i < threads; i++) {
      const { port1, port2 } = new MessageChannel();
      const helper = new Worker(entry.file, { workerData: { wasmModule: module, block: this.block, port: port2 }, transferList: [port2], execArgv: entry.execArgv });
      // Helpers only ever wait or search: they must not keep the process alive.
      helper.unref();
      port1.unref();
      // A helper that failed to start takes no task, so the caller searches alone (slower, same moves).
      helper.on('error', () => {});
      this.helpers.push(helper);
      this.ports.push(port1);
    }
  }

  /** Gives the helpers a weight set's tables (once while they keep them; they read them with receiveMessageOnPort). */
  share(tables: SharedTables): void {
    if (this.sent.includes(tables.id)) return;
    for (const port of this.ports) port.postMessage(tables);
    this.sent.push(tables.id);
    if (this.sent.length > KEEP_TABLES) this.sent.shift();
  }

  /**
   * Searches root moves `dirs` of a board, the caller taking part through `searchHere` (its own instance,
   * already holding the tables); the values land in numbers[F.VALUE + i].
   */
  decide(job: { lo: number; hi: number; dirs: number[]; depth: number; cprob: number; tables: number; bits: number }, wasm: SearchModule): void {
    const { control, numbers } = this.block;
    const seq = (this.seq = (this.seq + 1) & SEQ_MASK);
    const mine = runDecision(this.block, seq, job.dirs.length, () => {
      control[C.LO] = job.lo;
      control[C.HI] = job.hi;
      control[C.DEPTH] = job.depth;
      control[C.TABLES] = job.tables;
      control[C.BITS] = job.bits;
      job.dirs.forEach((dir, i) => (control[C.DIR + i] = dir));
      numbers[F.CPROB] = job.cprob;
    }, (s) => runTasks(this.block, s, wasm, () => {}, false));
    this.tasksByHelpers += job.dirs.length - mine;
  }

  close(): Promise<unknown> {
    Atomics.store(this.block.control, C.STOP, 1);
    Atomics.add(this.block.control, C.SEQ, 1);
    Atomics.notify(this.block.control, C.SEQ);
    return Promise.all(this.helpers.map((h) => h.terminate()));
  }
}

const pools = new Map<number, SearchThreads>();

/** The process's helpers for a thread count (started on first use). */
export function searchThreads(threads: number): SearchThreads {
  let pool = pools.get(threads);
  if (!pool) pools.set(threads, (pool = new SearchThreads(threads)));
  return pool;
}

/** Stops every helper (tests; a process may also just exit: helpers never keep it alive). */
export async function closeSearchThreads(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

let nextTablesId = 1;
/** A fresh id for a weight set's shared tables. */
export function newTablesId(): number {
  return nextTablesId++;
}

/** A player's root split: the best move of a board, and the value of each root move it saw. */
export interface RootSplit {
  /** The last decision's root values (NaN when illegal). */
  readonly values: Float64Array;
  /** The best move (ties to the earlier of up, down, left, right), or -1; the caller's instance holds `tables` (the board's stage's) and the settings. */
  search(board: Board, depth: number, cprob: number, tables: HeuristicTables): number;
}

export function createRootSplit(wasm: SearchModule, bits: number, threads: number, stats: SearchStats): RootSplit {
  const values = new Float64Array(4);
  const pool = threads > 1 ? searchThreads(threads) : null;
  // Per stage's tables, shared once.
  const shared = new Map<HeuristicTables, SharedTables>();
  const dirs: number[] = [];
  return {
    values,
    search(board, depth, cprob, tables) {
      const lo = board.lo | 0;
      const hi = board.hi | 0;
      dirs.length = 0;
      for (let dir = 0; dir < 4; dir++) if (applyMove(board, dir as Direction).legal) dirs.push(dir);
      values.fill(NaN);
      if (!pool || dirs.length < 2) {
        for (const dir of dirs) values[dir] = wasm.exports.searchMove(lo, hi, dir);
      } else {
        const mine = shared.get(tables) ?? shared.set(tables, shareTables(tables)).get(tables)!;
        pool.share(mine);
        pool.decide({ lo, hi, dirs, depth, cprob, tables: mine.id, bits }, wasm);
        const n = pool.block.numbers;
        dirs.forEach((dir, i) => {
          values[dir] = n[F.VALUE + i];
          const s = F.STATS + 4 * i;
          stats.nodes += n[s];
          stats.leaves += n[s + 1];
          stats.cacheHits += n[s + 2];
          stats.movesExecuted += n[s + 3];
        });
      }
      let best = -Infinity;
      let move = -1;
      for (let dir = 0; dir < 4; dir++) {
        if (values[dir] > best) {
          best = values[dir];
          move = dir;
        }
      }
      return move;
    },
  };
}

/** A copy of a weight set's tables in shared memory (~0.5 MB, 2.5 MB with a matrix, 4.5 MB with line-position terms; once per player and stage). */
function shareTables(tables: HeuristicTables): SharedTables {
  const copy = (t: Float64Array) => {
    const s = new Float64Array(new SharedArrayBuffer(t.byteLength));
    s.set(t);
    return s;
  };
  const t = loadableTables(tables);
  return { id: newTablesId(), lineTable: copy(t.lineTable), rowTables: t.rowTables?.map(copy) ?? null, columnTables: t.columnTables?.map(copy) ?? null };
}
