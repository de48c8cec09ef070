/**
 * A training thread (src/learn/ntuple/trainer.ts): its own instance of build/learn.wasm over the shared
 * memory, which trains or evaluates when asked until no game is left to claim.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { instantiateLearn } from './machine';

// Not `module`: compiled to CommonJS, a top-level `module` would clash with the wrapper's own.
const { wasmModule, memory, block, thread } = workerData as { wasmModule: WebAssembly.Module; memory: WebAssembly.Memory; block: number; thread: number };
const wasm = instantiateLearn(wasmModule, memory);
wasm.attach(block, thread);

parentPort!.on('message', (task: 'train' | 'evaluate') => {
  if (task === 'train') wasm.train();
  else wasm.evaluate();
  parentPort!.postMessage('done');
});
