/**
 * A training thread (src/learn/ntuple/trainer.ts): its own instance of build/learn.wasm over the shared
 * memory, which trains or evaluates when asked until no game is left to claim.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { instantiateLearn } from './machine';

const { module, memory, block, thread } = workerData as { module: WebAssembly.Module; memory: WebAssembly.Memory; block: number; thread: number };
const wasm = instantiateLearn(module, memory);
wasm.attach(block, thread);

parentPort!.on('message', (task: 'train' | 'evaluate') => {
  if (task === 'train') wasm.train();
  else wasm.evaluate();
  parentPort!.postMessage('done');
});
