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
 * - `terminate()` kills the workers and rejects every pending call, so a
 *   caller never waits on a promise that cannot settle.
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
  /** Live worker processes (for tests and diagnostics). */
  children(): ChildProcess[];
  /** Lets running calls finish, then stops the workers. */
  end(): Promise<void>;
  /** Kills the workers now; pending calls reject with PoolTerminatedError. */
  terminate(): void;
}

type FarmCallback = (error: (Error & { type?: string }) | null, result?: unknown) => void;

export function createPool<TTask, TResult>(options: PoolOptions = {}): WorkerPool<TTask, TResult> {
  const size = options.workers ?? defaultWorkers();
  const workerPath = options.workerPath ?? DEFAULT_WORKER;
  const method = options.method ?? 'playBatch';
  const retries = options.retries ?? 2;
  const execArgv = workerPath.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const live = new Set<ChildProcess>();
  const farmOptions = {
    maxConcurrentWorkers: size,
    maxConcurrentCallsPerWorker: 1,
    maxCallTime: options.callTimeoutMs ?? Infinity,
    maxRetries: retries,
    autoStart: true,
    workerOptions: { execArgv },
    onChild: (child: ChildProcess) => {
      live.add(child);
      child.once('exit', () => live.delete(child));
    },
  };
  // The bundled typings do not know onChild; the option exists (worker-farm 1.7 lib/farm.js).
  type Farm = Record<string, (task: TTask, cb: FarmCallback) => void>;
  const farm = workerFarm(farmOptions as Parameters<typeof workerFarm>[0], workerPath, [method]) as unknown as Farm;

  const pending = new Set<(e: Error) => void>();
  let terminated = false;

  function run(task: TTask): Promise<TResult> {
    if (terminated) return Promise.reject(new PoolTerminatedError());
    return new Promise<TResult>((resolve, reject) => {
      let timeouts = 0;
      const fail = (e: Error) => {
        pending.delete(fail);
        reject(e);
      };
      pending.add(fail);
      const attempt = () => {
        farm[method](task, (error, result) => {
          if (!pending.has(fail)) return; // terminated meanwhile
          if (!error) {
            pending.delete(fail);
            resolve(result as TResult);
          } else if (error.type === 'TimeoutError' && timeouts < retries) {
            timeouts++;
            attempt();
          } else if (error.type === 'TimeoutError') {
            fail(new PoolError(`a batch timed out ${timeouts + 1} times (limit ${options.callTimeoutMs} ms); giving up`));
          } else if (error.type === 'ProcessTerminatedError') {
            fail(new PoolError(`a worker died ${retries + 1} times running the same batch; giving up`));
          } else {
            fail(new PoolError(`worker error: ${error.message}`));
          }
        });
      };
      attempt();
    });
  }

  return {
    size,
    run,
    children: () => [...live],
    end: () =>
      new Promise<void>((resolve) => {
        terminated = true;
        workerFarm.end(farm as never, () => resolve());
      }),
    terminate: () => {
      if (terminated && pending.size === 0) return;
      terminated = true;
      for (const fail of [...pending]) fail(new PoolTerminatedError());
      workerFarm.end(farm as never);
      for (const child of live) child.kill('SIGKILL');
    },
  };
}
