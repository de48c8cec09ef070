/**
 * A helper thread of a network's root split (network-threads.ts): a learn.wasm instance of its own over the
 * network's shared memory, sleeping until the next decision and searching the root moves it claims.
 */
import { workerData } from 'node:worker_threads';
import { helperInstance, searchNetworkTask, type NetworkBlock } from './network-threads';
import { C, claimTasks, SPIN_MS, waitWhile } from './threads';

const { shared, ...instance } = workerData as { shared: NetworkBlock; module: WebAssembly.Module; memory: WebAssembly.Memory; block: number; thread: number };
const e = helperInstance(instance);

let seen = 0;
for (;;) {
  waitWhile(shared.control, C.SEQ, seen, SPIN_MS.helper);
  seen = Atomics.load(shared.control, C.SEQ);
  if (Atomics.load(shared.control, C.STOP)) break;
  claimTasks(shared, seen, (i) => searchNetworkTask(e, shared, i));
}
