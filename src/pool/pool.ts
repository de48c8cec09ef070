/**
 * A small typed Promise adapter over worker-farm: child processes, one call at
 * a time per worker, bounded retries.
 *
 * worker-farm's own behaviour, and what this adds:
 * - a worker that dies mid-call: worker-farm re-queues the call, up to
 *   `retries` times, then fails it with ProcessTerminatedError;
 * - a call that runs past `callTimeoutMs`: worker-farm kills the worker and
 *   fails the call with TimeoutError WITHOUT re-queueing it; we re-submit it
 *   ourselves, up to `retries` times;
 * - the queue lives here, not in worker-farm (which only ever holds the calls
 *   in flight), so `drain()` can cancel what has not started while what is
 *   running finishes, and `terminate()` can stop everything at once.
 * Error classes are not exported by worker-farm: errors are told apart by `type`.
 */
import workerFarm from 'worker-farm';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';

export interface PoolOptions {
  workers?: number;
  /** The worker module; it must export the method named below. */
  workerPath?: string;
  method?: string;
  callTimeoutMs?: number;
  retries?: number;
}

export class PoolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolError';
  }
}

/** The pool was terminated while the call was pending. */
export class PoolTerminatedError extends PoolError {
  constructor() {
    super('worker pool terminated');
    this.name = 'PoolTerminatedError';
  }
}

export function defaultWorkers(): number {
  return availableParallelism();
}

/** Running from TypeScript sources (tests, tsx): workers need tsx too. */
const FROM_SOURCE = __filename.endsWith('.ts');
export const DEFAULT_WORKER = join(__dirname, FROM_SOURCE ? 'worker.ts' : 'worker.js');

export interface WorkerPool<TTask, TResult> {
  readonly size: number;
  run(task: TTask): Promise<TResult>;
  /** Calls running now. */
  inFlight(): number;
  /** Live worker processes (for tests and diagnostics). */
  children(): ChildProcess[];
  /** Cancels queued calls (they reject with PoolTerminatedError); running calls finish normally. */
  drain(): void;
  /** Waits for running calls, then stops the workers. */
  end(): Promise<void>;
  /** Kills the workers now; every pending call rejects with PoolTerminatedError. */
  terminate(): void;
}

type FarmCallback = (error: (Error & { type?: string }) | null, result?: unknown) => void;

interface Job<TTask, TResult> {
  task: TTask;
  resolve: (r: TResult) => void;
  reject: (e: Error) => void;
  timeouts: number;
}

export function createPool<TTask, TResult>(options: PoolOptions = {}): WorkerPool<TTask, TResult> {
  const size = options.workers ?? defaultWorkers();
  const workerPath = options.workerPath ?? DEFAULT_WORKER;
  const method = options.method ?? 'playBatch';
  const retries = options.retries ?? 2;
  const execArgv = workerPath.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const live = new Set<ChildProcess>();
  let killed = false;
  const farmOptions = {
    maxConcurrentWorkers: size,
    maxConcurrentCallsPerWorker: 1,
    maxCallTime: options.callTimeoutMs ?? Infinity,
    maxRetries: retries,
    autoStart: true,
    workerOptions: { execArgv },
    onChild: (child: ChildProcess) => {
      // After terminate(), worker-farm still restarts workers for the calls it re-queues: end them at once.
      if (killed) child.kill('SIGKILL');
      live.add(child);
      child.once('exit', () => live.delete(child));
    },
  };
  // The bundled typings do not know onChild; the option exists (worker-farm 1.7 lib/farm.js).
  type Farm = Record<string, (task: TTask, cb: FarmCallback) => void>;
  const farm = workerFarm(farmOptions as Parameters<typeof workerFarm>[0], workerPath, [method]) as unknown as Farm;

  const queue: Job<TTask, TResult>[] = [];
  const running = new Set<Job<TTask, TResult>>();
  let closed = false;
  let idle: (() => void) | null = null;

  function settle(job: Job<TTask, TResult>, error: Error | null, result?: TResult): void {
    if (!running.delete(job)) return; // already rejected by terminate()
    if (error) job.reject(error);
    else job.resolve(result as TResult);
    pump();
  }

  function dispatch(job: Job<TTask, TResult>): void {
    running.add(job);
    farm[method](job.task, (error, result) => {
      if (!running.has(job)) return;
      if (!error) return settle(job, null, result as TResult);
      if (error.type === 'TimeoutError' && job.timeouts < retries) {
        job.timeouts++;
        running.delete(job);
        return dispatch(job);
      }
      if (error.type === 'TimeoutError') return settle(job, new PoolError(`a batch timed out ${job.timeouts + 1} times (limit ${options.callTimeoutMs} ms); giving up`));
      if (error.type === 'ProcessTerminatedError') return settle(job, new PoolError(`a worker died ${retries + 1} times running the same batch; giving up`));
      settle(job, new PoolError(`worker error: ${error.message}`));
    });
  }

  function pump(): void {
    while (!closed && running.size < size && queue.length > 0) dispatch(queue.shift()!);
    if (running.size === 0 && idle) idle();
  }

  function drain(): void {
    closed = true;
    for (const job of queue.splice(0)) job.reject(new PoolTerminatedError());
  }

  return {
    size,
    run: (task) =>
      new Promise<TResult>((resolve, reject) => {
        if (closed) return reject(new PoolTerminatedError());
        queue.push({ task, resolve, reject, timeouts: 0 });
        pump();
      }),
    inFlight: () => running.size,
    children: () => [...live],
    drain,
    end: async () => {
      drain();
      if (running.size > 0) await new Promise<void>((resolve) => (idle = resolve));
      await new Promise<void>((resolve) => workerFarm.end(farm as never, () => resolve()));
    },
    terminate: () => {
      drain();
      killed = true;
      for (const job of [...running]) {
        running.delete(job);
        job.reject(new PoolTerminatedError());
      }
      workerFarm.end(farm as never);
      for (const child of live) child.kill('SIGKILL');
      if (idle) idle();
    },
  };
}
