/**
 * The root split of a network's search: a decision's legal root moves shared out among the calling thread
 * and helper threads, each with a learn.wasm instance of its own over the network's one shared memory (the
 * tables are read in place: no copy per thread) and a transposition table and scratch of its own.
 *
 * A network's search already forgets its table at each root move, and its leaf cache holds only exact
 * values (network-search.ts), so a root move's value does not depend on which instance searched it: the
 * values, moves and games are the same for any number of threads. Claiming and waiting are the heuristic root split's (threads.ts).
 */
import { threadEntry } from '../util/thread-entry';
import { Worker } from 'node:worker_threads';
import { instantiateLearn, type LearnExports, type NetworkMachine } from '../learn/ntuple/machine';
import { C, claimTasks, F, MESSAGE_BYTES, runDecision, SEQ_MASK, type SharedBlock } from './threads';

/** The decision's search settings beside the shared block: [stage weights given, w0 … w7, leaf heuristic on, its 8 table addresses, leaf values kept across decisions]. */
const S = { WEIGHTS: 0, W: 1, LEAF: 9, POINTERS: 10, KEEP_LEAVES: 18, LENGTH: 19 } as const;

export interface NetworkBlock extends SharedBlock {
  settings: Float64Array;
}

/** One root move of the decision in `block` on instance `e`, with the decision's settings (one claim, one task). */
export function searchNetworkTask(e: LearnExports, block: NetworkBlock, index: number): void {
  const { control, numbers, settings } = block;
  e.keepLeaves(settings[S.KEEP_LEAVES]);
  e.setNetworkSearch(control[C.DEPTH], numbers[F.CPROB]);
  const weights = settings[S.WEIGHTS];
  if (weights > 0) for (let k = 0; k < weights; k++) e.setStageWeight(k, settings[S.W + k]);
  else e.clearStageWeights();
  if (settings[S.LEAF]) {
    const p = (k: number) => settings[S.POINTERS + k];
    e.useLeafHeuristic(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7));
  } else {
    e.clearLeafHeuristic();
  }
  numbers[F.VALUE + index] = e.searchMove(control[C.LO], control[C.HI], control[C.DIR + index]);
}

/** The helpers of one network machine (machine.searchThreads − 1 of them, started with it). */
export class NetworkSearchThreads {
  readonly block: NetworkBlock;
  private readonly helpers: Worker[] = [];
  private seq = 0;
  /** Root moves the helpers searched (the rest, the caller): tests wait for it to be positive. */
  tasksByHelpers = 0;

  constructor(private readonly machine: NetworkMachine) {
    this.block = {
      control: new Int32Array(new SharedArrayBuffer(C.LENGTH * 4)),
      numbers: new Float64Array(new SharedArrayBuffer(F.LENGTH * 8)),
      message: new Uint8Array(new SharedArrayBuffer(MESSAGE_BYTES)),
      settings: new Float64Array(new SharedArrayBuffer(S.LENGTH * 8)),
    };
    const entry = threadEntry(__filename, __dirname, 'network-search-thread');
    for (let k = 1; k < machine.searchThreads; k++) {
      const helper = new Worker(entry.file, { workerData: { ...machine.searchHelper(k), shared: this.block }, execArgv: entry.execArgv });
      // Helpers only ever wait or search: they must not keep the process alive. One that failed to start takes no task.
      helper.unref();
      helper.on('error', () => {});
      this.helpers.push(helper);
    }
  }

  /** The values of root moves `dirs` of a board (NaN for the others), the caller's instance searching too. */
  values(job: { lo: number; hi: number; dirs: number[]; depth: number; cprob: number; stageWeights: readonly number[] | null }): number[] {
    const { control, numbers, settings } = this.block;
    const seq = (this.seq = (this.seq + 1) & SEQ_MASK);
    const mine = runDecision(this.block, seq, job.dirs.length, () => {
      control[C.LO] = job.lo;
      control[C.HI] = job.hi;
      control[C.DEPTH] = job.depth;
      job.dirs.forEach((dir, i) => (control[C.DIR + i] = dir));
      numbers[F.CPROB] = job.cprob;
      settings[S.WEIGHTS] = job.stageWeights?.length ?? 0;
      job.stageWeights?.forEach((w, k) => (settings[S.W + k] = w));
      const leaf = this.machine.leafPointers;
      settings[S.LEAF] = leaf ? 1 : 0;
      leaf?.forEach((p, k) => (settings[S.POINTERS + k] = p));
      settings[S.KEEP_LEAVES] = this.machine.leavesKept ? 1 : 0;
    }, (s) => claimTasks(this.block, s, (i) => searchNetworkTask(this.machine.exports, this.block, i)));
    this.tasksByHelpers += job.dirs.length - mine;
    const out = [NaN, NaN, NaN, NaN];
    job.dirs.forEach((dir, i) => (out[dir] = numbers[F.VALUE + i]));
    return out;
  }

  close(): Promise<unknown> {
    Atomics.store(this.block.control, C.STOP, 1);
    Atomics.add(this.block.control, C.SEQ, 1);
    Atomics.notify(this.block.control, C.SEQ);
    return Promise.all(this.helpers.map((h) => h.terminate()));
  }
}

/** Starts an instance of the network's memory for helper `thread` (network-search-thread.ts). */
export function helperInstance(data: { module: WebAssembly.Module; memory: WebAssembly.Memory; block: number; thread: number }): LearnExports {
  const e = instantiateLearn(data.module, data.memory);
  e.attach(data.block, data.thread);
  return e;
}
