/** The default game runner: worker-farm processes on this machine (farm.ts), nothing to start. */
import type { PlayerSpec } from '../player/spec';
import { createPool, type WorkerPool } from './farm';
import type { BatchResult, BatchTask } from './protocol';
import type { GameRunner, RunnerOptions } from './runner';

export interface LocalRunner extends GameRunner {
  /** The worker pool underneath (tests kill its processes). */
  readonly pool: WorkerPool<BatchTask, BatchResult>;
}

export function createLocalRunner(o: Pick<RunnerOptions, 'workers' | 'callTimeoutMs' | 'retries' | 'workerPath'>): LocalRunner {
  const pool = createPool<BatchTask, BatchResult>({ workers: o.workers, callTimeoutMs: o.callTimeoutMs, retries: o.retries, workerPath: o.workerPath });
  return {
    description: `${pool.size} local worker${pool.size === 1 ? '' : 's'}`,
    pool,
    playBatch: async (spec: PlayerSpec, seeds: readonly number[]) => (await pool.run({ spec, seeds: [...seeds] })).games,
    inFlight: () => pool.inFlight(),
    drain: () => pool.drain(),
    end: () => pool.end(),
    terminate: () => pool.terminate(),
  };
}
