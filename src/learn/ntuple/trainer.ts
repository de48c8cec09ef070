/**
 * Training threads over one network: each runs build/learn.wasm on the shared memory and claims games
 * with an atomic add, updating the tables lock-free (as the n-tuple programs train). The calling thread
 * stays free for signals, progress and checkpoints.
 *
 * With one thread the games are played in order, so a run is a pure function of its config and its stops
 * (exact to the bit). With several, the games are the same seeds but their moves interleave with the other
 * threads' updates, so neither the tables nor the games reproduce; what a checkpoint holds is still exactly
 * the games below its number (every claimed game finishes before a thread returns).
 */
import { threadEntry } from '../../util/thread-entry';
import { Worker } from 'node:worker_threads';
import { compiledLearnModule, C, type GameResult, type NetworkMachine } from './machine';

export class Trainer {
  private readonly workers: Worker[];
  private failure: Error | null = null;

  constructor(private readonly machine: NetworkMachine) {
    const entry = threadEntry(__filename, __dirname, 'train-thread');
    const module = compiledLearnModule();
    this.workers = Array.from(
      { length: machine.options.threads },
      (_, thread) => new Worker(entry.file, { workerData: { wasmModule: module, memory: machine.memory, block: machine.block, thread }, execArgv: entry.execArgv }),
    );
    for (const w of this.workers) w.on('error', (e) => (this.failure ??= e));
    for (const w of this.workers) w.unref();
  }

  /** Every thread does `task` until nothing is left to claim. */
  private run(task: 'train' | 'evaluate'): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let left = this.workers.length;
      const onExit = (code: number) => reject(this.failure ?? new Error(`a training thread exited (code ${code})`));
      for (const w of this.workers) {
        w.once('exit', onExit);
        w.once('message', () => {
          w.off('exit', onExit);
          if (--left === 0) resolve();
        });
        w.postMessage(task);
      }
    });
  }

  /** Trains from game `from` up to game `limit` (or a stop); returns the games done (all below that number). */
  async train(from: number, limit: number): Promise<number> {
    const c = this.machine.control;
    Atomics.store(c, C.NEXT, from);
    Atomics.store(c, C.DONE, from);
    Atomics.store(c, C.LIMIT, limit);
    await this.run('train');
    // Threads over-claim past the limit or stop once each; every game below the smaller number is done.
    const done = Math.min(Atomics.load(c, C.NEXT) >>> 0, limit);
    Atomics.store(c, C.NEXT, done);
    return done;
  }

  /** Plays `count` held-out games greedily (seeds evalSeed + 0..count−1). */
  async evaluate(count: number): Promise<GameResult[]> {
    const c = this.machine.control;
    Atomics.store(c, C.EVAL_NEXT, 0);
    Atomics.store(c, C.EVAL_LIMIT, count);
    await this.run('evaluate');
    return Array.from({ length: count }, (_, i) => this.machine.evalGame(i));
  }

  /** Asks every thread to finish its game and claim no other (Ctrl-C). */
  stop(): void {
    Atomics.store(this.machine.control, C.STOP, 1);
  }

  get stopped(): boolean {
    return Atomics.load(this.machine.control, C.STOP) !== 0;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
