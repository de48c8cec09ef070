/**
 * Work a command would otherwise do on the main thread in one long synchronous call (a deep search, a
 * benchmark, a corner solve), run in a worker thread instead: the main thread stays free, so Ctrl-C and
 * SIGTERM are handled at once (exit 130) rather than after the call, and a timer can say the work goes on.
 *
 * A module's factory builds an object in the thread (a player: its tables stay there between calls);
 * its methods are called by message and answer promises. Errors keep their class name, so an input
 * error in the thread still exits 2.
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from './thread-entry';
import { InputError, PlayerError } from './errors';

interface Reply {
  id: number;
  result?: unknown;
  error?: { name: string; message: string; stack?: string };
}

/** Rebuilds a thread's error as the class the CLI maps to its exit code. */
function rebuild(error: NonNullable<Reply['error']>): Error {
  const e = error.name === 'InputError' ? new InputError(error.message) : error.name === 'PlayerError' ? new PlayerError(error.message) : new Error(error.message);
  if (error.stack) e.stack = error.stack;
  return e;
}

type Methods<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

export interface OffThread<T> {
  /** The object's methods, each answered by the thread. */
  readonly remote: Methods<T>;
  /** Ends the thread (pending calls fail). */
  close(): Promise<void>;
}

/**
 * `factory` exported by `modulePath` (an absolute path without extension, e.g. `${__dirname}/players`)
 * builds the object in a new thread from `args` (structured-cloneable).
 */
export function offThread<T extends object>(modulePath: string, factory: string, ...args: unknown[]): OffThread<T> {
  const slash = modulePath.lastIndexOf('/');
  const entry = threadEntry(__filename, __dirname, 'off-thread-worker');
  const target = threadEntry(__filename, modulePath.slice(0, slash), modulePath.slice(slash + 1)).file;
  const worker = new Worker(entry.file, { workerData: { target, factory, args }, execArgv: entry.execArgv });
  worker.unref(); // an idle thread never keeps the command alive
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let failure: Error | null = null;
  const failAll = (e: Error) => {
    failure ??= e;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  };
  worker.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error) p.reject(rebuild(reply.error));
    else p.resolve(reply.result);
  });
  worker.on('error', (e) => failAll(e));
  worker.on('exit', (code) => failAll(new Error(`a worker thread exited (code ${code})`)));
  let nextId = 0;
  const remote = new Proxy({} as Methods<T>, {
    get: (_, method) => {
      if (typeof method !== 'string' || method === 'then') return undefined;
      return (...callArgs: unknown[]) =>
        new Promise((resolve, reject) => {
          if (failure) return reject(failure);
          const id = nextId++;
          pending.set(id, { resolve, reject });
          worker.ref(); // a call in flight keeps the command alive until it answers
          worker.postMessage({ id, method, args: callArgs });
        });
    },
  });
  return {
    remote,
    close: async () => {
      await worker.terminate();
    },
  };
}

/** Calls `fn` exported by `modulePath` once in a new thread and ends the thread. */
export async function callOffThread<R>(modulePath: string, fn: string, ...args: unknown[]): Promise<Awaited<R>> {
  const thread = offThread<{ call(): R }>(modulePath, '__call__', fn, args);
  try {
    return (await thread.remote.call()) as Awaited<R>;
  } finally {
    await thread.close();
  }
}
