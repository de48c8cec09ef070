/**
 * The game runner: "play these seeds with this player, give me the results".
 * The tuner, race, compare, sweep and play talk to this interface only; where
 * the games run is the implementation's business:
 * - local (default, embedded): worker-farm processes on this machine (local.ts);
 * - redis: BullMQ jobs on a Redis server, played by `tune2048 worker` on any
 *   number of machines (redis.ts).
 * Either way the results come back to the caller, the only writer of SQLite.
 */
import { availableParallelism } from 'node:os';
import type { PlayerSpec } from '../player/spec';
import type { PlayedGame } from '../engine/game';

export interface GameRunner {
  /** Where the games run, for messages: "2 local workers", "redis://host:6379". */
  readonly description: string;
  /** One batch: the games of `seeds` in their order. Rejects with RunnerStoppedError after drain()/terminate(). */
  playBatch(spec: PlayerSpec, seeds: readonly number[]): Promise<PlayedGame[]>;
  /** Batches running now. */
  inFlight(): number;
  /** Cancels batches not started; running ones finish normally. */
  drain(): void;
  /** Waits for running batches, then releases everything (processes, connections, queues). */
  end(): Promise<void>;
  /** Stops now: pending batches reject with RunnerStoppedError, running ones are abandoned. */
  terminate(): void;
}

/** Local worker processes when nothing says otherwise: one per core. */
export function defaultWorkers(): number {
  return availableParallelism();
}

export interface RunnerOptions {
  /** Local worker processes (ignored with a queue: remote workers bring their own). */
  workers: number;
  /** redis://HOST:PORT[/DB]: play through BullMQ on this Redis instead of local processes. */
  queue?: string;
  /** The queue's name on Redis (one per run, so runs sharing a Redis never mix); a fresh one by default. */
  queueName?: string;
  /** A batch running longer is stopped and retried. */
  callTimeoutMs?: number;
  /** Retries of a failed batch (worker died, hung or lost) before the batch fails. */
  retries?: number;
  /** Tests: the module the local worker processes run (a fixture). */
  workerPath?: string;
  /** A line for the user about the runner itself (a queue no worker serves, a batch re-queued): the CLI prints it on stderr. */
  onNotice?: (line: string) => void;
}

/** The runner the options ask for; the Redis implementation is loaded only when a queue is given. */
export async function openRunner(o: RunnerOptions): Promise<GameRunner> {
  if (o.queue) {
    const { createRedisRunner } = await import('./redis');
    return createRedisRunner({ url: o.queue, queueName: o.queueName, callTimeoutMs: o.callTimeoutMs, retries: o.retries, onNotice: o.onNotice });
  }
  const { createLocalRunner } = await import('./local');
  return createLocalRunner(o);
}

/** Plays `seeds` with one player in batches of `batchGames`; the games come back in seed order. */
export async function playSeeds(
  runner: GameRunner,
  spec: PlayerSpec,
  seeds: readonly number[],
  batchGames: number,
  onBatch?: (games: PlayedGame[]) => void,
): Promise<PlayedGame[]> {
  const parts: Promise<PlayedGame[]>[] = [];
  for (let i = 0; i < seeds.length; i += batchGames) {
    parts.push(
      runner.playBatch(spec, seeds.slice(i, i + batchGames)).then((games) => {
        onBatch?.(games);
        return games;
      }),
    );
  }
  return (await Promise.all(parts)).flat();
}

/** Runs `use` with a runner and always releases it. */
export async function withRunner<T>(o: RunnerOptions, use: (runner: GameRunner) => Promise<T>): Promise<T> {
  const runner = await openRunner(o);
  try {
    return await use(runner);
  } finally {
    await runner.end();
  }
}
