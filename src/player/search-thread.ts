/**
 * A helper thread of the root-split search (src/player/threads.ts): its own WebAssembly instance, the
 * weight sets' tables as the calling thread shared them, and a loop that sleeps until the next decision
 * and searches the root moves it manages to claim.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { instantiateSearch } from '../wasm/module';
import { C, KEEP_TABLES, runTasks, SPIN_MS, waitWhile, type SharedBlock, type SharedTables } from './threads';

// Not `module`: compiled to CommonJS, a top-level `module` would clash with the wrapper's own.
const { wasmModule, block, port } = workerData as { wasmModule: WebAssembly.Module; block: SharedBlock; port: MessagePort };
const wasm = instantiateSearch(wasmModule);
const received = new Map<number, SharedTables>();
let tablesId = -1;
let bits = -1;

/** Makes the instance hold the decision's tables and table size (both only change with the weight set). */
function prepare(): void {
  const id = block.control[C.TABLES];
  if (id !== tablesId) {
    // The caller posts a set's tables before its first decision with them, so they are already queued.
    while (!received.has(id)) {
      const m = receiveMessageOnPort(port);
      if (!m) throw new Error(`search thread: the tables of weight set ${id} never arrived`);
      const tables = m.message as SharedTables;
      received.set(tables.id, tables);
      // Forget the oldest, as the caller does (a Map iterates in insertion order).
      if (received.size > KEEP_TABLES) received.delete(received.keys().next().value!);
    }
    const tables = received.get(id)!;
    wasm.loadHeuristic(tables);
    tablesId = id;
  }
  const b = block.control[C.BITS];
  if (b !== bits) {
    wasm.exports.setCache(b);
    bits = b;
  }
}

let seen = 0;
for (;;) {
  waitWhile(block.control, C.SEQ, seen, SPIN_MS.helper);
  seen = Atomics.load(block.control, C.SEQ);
  if (Atomics.load(block.control, C.STOP)) break;
  runTasks(block, seen, wasm, prepare, true);
}
