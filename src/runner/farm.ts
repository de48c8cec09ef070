/**
 * A small typed Promise adapter over worker-farm: child processes, one call at
 * a time per worker, bounded retries. The local game runner (local.ts) and the
 * remote worker (remote-worker.ts) both play their batches on one.
 *
 * worker-farm's own behaviour, and what this adds:
 * - a worker that dies mid-call: worker-farm re-queues the call, up to
 *   `retries` times, then fails it with ProcessTerminatedError;
 * - time limits are ours, not worker-farm's: its `maxCallTime` neither
 *   re-queues a timed-out call nor clears the timer of a call it re-queued
 *   after a worker death (which kept a finished tuner alive for up to the
 *   whole limit). Every child loads child.ts, which announces the start of
 *   each call; from then the call has `callTimeoutMs`, after which its worker
 *   is killed and worker-farm re-queues the call like any other death;
 * - the queue lives here, not in worker-farm (which only ever holds the calls
 *   in flight), so `drain()` can cancel what has not started while what is
 *   running finishes, and `terminate()` can stop everything at once;
 * - no worker outlives this process: every live child is SIGKILLed on exit
 *   (a crash, process.exit after a signal or a closed pipe), and a child
 *   whose parent vanished (kill -9) notices it by itself (parent.ts).
 * Error classes are not exported by worker-farm: errors are told apart by `type`.
 * A call whose worker died or hung past its retries rejects with RunnerError, one whose own code threw
 * with BatchFailedError (at once: a retry would fail alike), a cancelled one with RunnerStoppedError
 * (src/util/errors.ts).
 */
import { pathToFileURL } from 'node:url';
import workerFarm from 'worker-farm';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { compiledTwin } from '../util/thread-entry';
import { BatchFailedError, BatchTimeoutError, RunnerError, RunnerStoppedError } from '../util/errors';

export interface PoolOptions {
  workers?: number;
  /** The worker module; it must export the method named below. */
  workerPath?: string;
  method?: string;
  callTimeoutMs?: number;
  retries?: number;
}


/** Running from TypeScript sources (tests, tsx): workers need tsx too, unless they run dist/'s compiled twins (thread-entry.ts). */
const FROM_SOURCE = __filename.endsWith('.ts');
const moduleFile = (name: string) => (FROM_SOURCE ? (compiledTwin(__dirname, name) ?? join(__dirname, `${name}.ts`)) : join(__dirname, `${name}.js`));
export const DEFAULT_WORKER = moduleFile('play-batch');
const CHILD_MODULE = moduleFile('child');

/** Every worker process of every pool of this process, killed when it exits. */
const allChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of allChildren) child.kill('SIGKILL');
});

export interface WorkerPool<TTask, TResult> {
  readonly size: number;
  /** `timeoutMs` overrides the pool's call limit for this call (remote jobs carry their own). */
  run(task: TTask, options?: { timeoutMs?: number }): Promise<TResult>;
  /** Calls running now. */
  inFlight(): number;
  /** Live worker processes (for tests and diagnostics). */
  children(): ChildProcess[];
  /** Cancels queued calls (they reject with RunnerStoppedError); running calls finish normally. */
  drain(): void;
  /** Waits for running calls, then stops the workers. */
  end(): Promise<void>;
  /** Kills the workers now; every pending call rejects with RunnerStoppedError. */
  terminate(): void;
}

type FarmCallback = (error: (Error & { type?: string }) | null, result?: unknown) => void;

interface Job<TTask, TResult> {
  token: number;
  task: TTask;
  resolve: (r: TResult) => void;
  reject: (e: Error) => void;
  /** Its time limit once started. */
  limitMs: number;
  /** Times its worker was killed for running past the limit. */
  timeouts: number;
  timer: NodeJS.Timeout | null;
}

let nextToken = 1;

export function createPool<TTask, TResult>(options: PoolOptions = {}): WorkerPool<TTask, TResult> {
  const size = options.workers ?? availableParallelism();
  const workerPath = options.workerPath ?? DEFAULT_WORKER;
  const method = options.method ?? 'playBatch';
  const retries = options.retries ?? 2;
  const callTimeoutMs = options.callTimeoutMs ?? Infinity;
  // tsx by its file, not its name: the command may run from a folder where no node_modules holds it.
  const execArgv = CHILD_MODULE.endsWith('.ts') || workerPath.endsWith('.ts') ? ['--import', pathToFileURL(require.resolve('tsx')).href] : [];
  const live = new Set<ChildProcess>();
  const byToken = new Map<number, Job<TTask, TResult>>();
  let killed = false;

  function onStart(child: ChildProcess, token: number): void {
    const job = byToken.get(token);
    if (!job || job.limitMs === Infinity) return;
    if (job.timer) clearTimeout(job.timer);
    job.timer = setTimeout(() => {
      job.timer = null;
      job.timeouts++;
      child.kill('SIGKILL'); // worker-farm re-queues the call (or fails it when retries are used up)
    }, job.limitMs);
  }

  const farmOptions = {
    maxConcurrentWorkers: size,
    maxConcurrentCallsPerWorker: 1,
    maxCallTime: Infinity,
    maxRetries: retries,
    autoStart: true,
    workerOptions: { execArgv, env: { ...process.env, TUNE2048_WORKER_MODULE: workerPath, TUNE2048_WORKER_METHOD: method, TUNE2048_PARENT_PID: String(process.pid) } },
    onChild: (child: ChildProcess) => {
      // After terminate(), worker-farm still restarts workers for the calls it re-queues: end them at once.
      if (killed) child.kill('SIGKILL');
      live.add(child);
      allChildren.add(child);
      child.on('message', (m: { owner?: string; event?: string; token?: number }) => {
        if (m?.owner === 'tune2048' && m.event === 'start' && typeof m.token === 'number') onStart(child, m.token);
      });
      child.once('exit', () => {
        live.delete(child);
        allChildren.delete(child);
      });
    },
  };
  // The bundled typings do not know onChild; the option exists (worker-farm 1.7 lib/farm.js).
  type Farm = Record<string, (task: TTask, token: number, cb: FarmCallback) => void>;
  const farm = workerFarm(farmOptions as Parameters<typeof workerFarm>[0], CHILD_MODULE, ['run']) as unknown as Farm;

  const queue: Job<TTask, TResult>[] = [];
  const running = new Set<Job<TTask, TResult>>();
  let closed = false;
  let idle: (() => void) | null = null;

  function forget(job: Job<TTask, TResult>): void {
    running.delete(job);
    byToken.delete(job.token);
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
  }

  function settle(job: Job<TTask, TResult>, error: Error | null, result?: TResult): void {
    if (!running.has(job)) return; // already rejected by terminate()
    forget(job);
    if (error) job.reject(error);
    else job.resolve(result as TResult);
    pump();
  }

  function dispatch(job: Job<TTask, TResult>): void {
    running.add(job);
    byToken.set(job.token, job);
    farm.run(job.task, job.token, (error, result) => {
      if (!running.has(job)) return;
      if (!error) return settle(job, null, result as TResult);
      if (error.type === 'ProcessTerminatedError') {
        if (job.timeouts === 0) return settle(job, new RunnerError(`the worker running a batch died, ${retries + 1} times; giving up`));
        const message = `the worker running a batch was killed ${job.timeouts} time(s) for running past ${job.limitMs} ms or died, ${retries + 1} times; giving up`;
        return settle(job, new BatchTimeoutError(message, job.limitMs));
      }
      // The batch's own code threw: deterministic, so a retry would fail alike.
      // A player program's fault already names the player and what it did.
      settle(job, new BatchFailedError(error.type === 'PlayerError' ? error.message : `worker error: ${error.message}`));
    });
  }

  function pump(): void {
    while (!closed && running.size < size && queue.length > 0) dispatch(queue.shift()!);
    if (running.size === 0 && idle) idle();
  }

  function drain(): void {
    closed = true;
    for (const job of queue.splice(0)) job.reject(new RunnerStoppedError());
  }

  return {
    size,
    run: (task, runOptions) =>
      new Promise<TResult>((resolve, reject) => {
        if (closed) return reject(new RunnerStoppedError());
        queue.push({ token: nextToken++, task, resolve, reject, limitMs: runOptions?.timeoutMs ?? callTimeoutMs, timeouts: 0, timer: null });
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
        forget(job);
        job.reject(new RunnerStoppedError());
      }
      workerFarm.end(farm as never);
      for (const child of live) child.kill('SIGKILL');
      if (idle) idle();
    },
  };
}
