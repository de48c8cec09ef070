/** The thread of src/util/off-thread.ts: builds the object, then answers its method calls in order. */
import { parentPort, workerData } from 'node:worker_threads';

const { target, factory, args } = workerData as { target: string; factory: string; args: unknown[] };

async function build(): Promise<Record<string, (...a: unknown[]) => unknown>> {
  const mod = require(target) as Record<string, (...a: unknown[]) => unknown>;
  if (factory === '__call__') {
    // One plain function call: `args` is [its name, its arguments].
    const [fn, fnArgs] = args as [string, unknown[]];
    return { call: () => mod[fn](...fnArgs) };
  }
  return (await mod[factory](...args)) as Record<string, (...a: unknown[]) => unknown>;
}

const made = build();
// A factory that throws (a bad setting) answers the first call with its error; it must not end the thread first as an unhandled rejection.
made.catch(() => {});
parentPort!.on('message', async ({ id, method, args: callArgs }: { id: number; method: string; args: unknown[] }) => {
  try {
    const object = await made;
    parentPort!.postMessage({ id, result: await object[method](...callArgs) });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    parentPort!.postMessage({ id, error: { name: err.name, message: err.message, stack: err.stack } });
  }
});
