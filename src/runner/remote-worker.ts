/**
 * `tune2048 worker`: plays the batches of every live tune2048 queue on a Redis
 * server, on this machine's cores.
 *
 * The games run in worker-farm processes (farm.ts), never on this event loop,
 * which stays free to renew BullMQ's job locks. Queues are found through the
 * registry the parents keep beating (redis.ts); a queue whose parent stopped
 * beating is left. A job whose game process dies or runs past the job's time
 * limit fails this attempt; BullMQ retries it (on any worker) with backoff. If
 * this process dies, its jobs' locks expire and another worker's stalled-job
 * check hands them on. A batch whose own code fails (bad weights, a bad spec)
 * fails its job at once (UnrecoverableError): a retry would fail alike.
 */
import { hostname } from 'node:os';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { cliName } from '../util/command-hint';
import { BatchFailedError, InputError } from '../util/errors';
import IORedis from 'ioredis';
import { createPool } from './farm';
import type { BatchResult, BatchTask } from './protocol';
import type { Launch } from '../player/spec';
import { parseQueueUrl, pastableQueue } from './queue-url';
import { networkBytesOnRedis, withLocalTables } from './shared-tables';
import { formatBytes } from '../learn/ntuple/machine';
import { freemem } from 'node:os';
import { checkRedis, connectionOptions, LEFT_KEY, QUEUE_PREFIX, REGISTRY_KEY, STALE_MS, type RemoteBatch, type RemoteResult } from './redis';

export interface RemoteWorkerOptions {
  url: string;
  /** Games played at once (worker processes). */
  concurrency: number;
  /** How long a job stays locked to a worker that stopped renewing (died): the hand-on delay. */
  lockDurationMs?: number;
  /** How often the registry of live queues is read. */
  pollMs?: number;
  onLog?: (line: string) => void;
  /** Tests: the module the game processes run. */
  workerPath?: string;
  /**
   * The external players this machine runs, by name (`tune2048 worker --player NAME=COMMAND`): a job names its
   * player and the hash of what it announced, never a command; a job for another player is refused.
   */
  players?: ReadonlyMap<string, Launch>;
  /** Memory this worker may use for networks (`--max-memory`); absent: what the machine has free. */
  maxMemoryBytes?: number;
}

/** What a game process needs beside a network's tables: its search tables, the leaf heuristic, the runtime. */
const PROCESS_OVERHEAD_BYTES = 64 * 2 ** 20;

export interface RemoteWorker {
  /** Jobs finished so far. */
  jobs(): number;
  /** Takes no new jobs, lets running ones finish, then closes everything. */
  stop(): Promise<void>;
  /** Kills the game processes now (their jobs will be handed on after the lock expires). */
  kill(): void;
}

export async function startRemoteWorker(o: RemoteWorkerOptions): Promise<RemoteWorker> {
  const url = parseQueueUrl(o.url);
  await checkRedis(url);
  const log = o.onLog ?? (() => {});
  const host = hostname();
  const lockDuration = o.lockDurationMs ?? 30_000;
  const pool = createPool<BatchTask, BatchResult>({ workers: o.concurrency, retries: 0, workerPath: o.workerPath });
  const registry = new IORedis(connectionOptions(url));
  // The queue as a printed worker command writes it (the password as **** in a log).
  const pasted = pastableQueue(url);
  let redisDown = false;
  registry.on('error', (e: Error) => {
    if (!redisDown) log(`Redis at ${url.display} unreachable (${e.message}); retrying`);
    redisDown = true;
  });
  registry.on('ready', () => {
    if (redisDown) log(`Redis at ${url.display} is back`);
    redisDown = false;
  });
  const serving = new Map<string, Worker<RemoteBatch, RemoteResult>>();
  /** A worker's program that is not the run's: refused by the player's own check (play.ts) in these words. */
  const ANOTHER_PROGRAM = /^player \S+ now announces version/;
  const HAND_BACK_MS = 1000;
  /** Queues whose batches need an external player this worker does not run: left to the workers that do. */
  const unable = new Set<string>();
  let finished = 0;
  let stopping = false;

  /** Networks this worker found room for (checked once: its game processes then hold them, and free memory looks smaller). */
  const roomFor = new Set<string>();
  /**
   * Refuses a network job, as final, when the worker's game processes (one copy of the tables each) would not
   * fit: before the download, and before a process runs out of memory mid-batch.
   */
  async function checkNetworkRoom(hash: string): Promise<void> {
    if (roomFor.has(hash)) return;
    const bytes = await networkBytesOnRedis(registry, hash);
    if (bytes === null) return; // withLocalTables names the missing network
    const need = o.concurrency * (bytes + PROCESS_OVERHEAD_BYTES);
    const free = freemem();
    const room = Math.min(free, o.maxMemoryBytes ?? Infinity);
    if (need > room) {
      const why = `on ${host}: the network ${hash.slice(0, 12)}… needs ${formatBytes(need)} (${o.concurrency} game process${o.concurrency > 1 ? 'es' : ''} × ${formatBytes(bytes)} of tables and ${formatBytes(PROCESS_OVERHEAD_BYTES)} beside them); this worker has ${formatBytes(room)}${o.maxMemoryBytes !== undefined && o.maxMemoryBytes <= free ? ' (--max-memory)' : ' free'}: give it fewer --concurrency, or run it on a machine with more memory`;
      log(`refused a batch: ${why}`);
      throw new UnrecoverableError(why);
    }
    roomFor.add(hash);
  }

  const processor = async (job: Job<RemoteBatch, RemoteResult>, token?: string): Promise<RemoteResult> => {
    if (job.data.spec.kind === 'network') await checkNetworkRoom(job.data.spec.network.sha256);
    const external = job.data.spec.kind === 'external' ? job.data.spec : null;
    const launch = external ? o.players?.get(external.external.name) : undefined;
    if (external && !launch) {
      const known = [...(o.players?.keys() ?? [])];
      return handBack(job, token, `no player "${external.external.name}" is registered with this worker (${known.length ? `it runs ${known.join(', ')}` : 'it runs none'})`, external.external.name);
    }
    // This machine's own registered program, named by its announcement (a job's file hash is the parent's copy's: another machine may build or install it otherwise).
    const spec = external ? { ...external, external: { ...external.external, launch, program: undefined } } : await withLocalTables(registry, job.data.spec).catch((e: unknown) => {
      throw e instanceof InputError ? new UnrecoverableError(e.message) : e;
    });
    const r = await pool.run({ spec, seeds: job.data.seeds }, { timeoutMs: job.data.timeoutMs }).catch((e: unknown) => {
      // This machine's program is another than the run's (another version, or files changed): no fault of the
      // job; another worker's may be the right one.
      if (external && e instanceof BatchFailedError && ANOTHER_PROGRAM.test(e.message)) return handBack(job, token, e.message.replace(/^player \S+ /, `its player ${external.external.name} `), external.external.name);
      // Bad weights or a bad spec fail on every machine: fail the job now instead of retrying it. So does a
      // player program's fault (this machine's program: the parent says which machine).
      if (e instanceof BatchFailedError) throw new UnrecoverableError(/^player /.test(e.message) ? `on ${host}: ${e.message}` : e.message);
      throw e;
    });
    finished++;
    return { host, pid: r.pid, games: r.games };
  };

  /**
   * A job this worker cannot play as the run asks — its external player is not registered here, or this
   * machine's program is another than the run's — is no fault of the job: the worker leaves the queue (it
   * serves it no more while that run lives) and hands the job back, delayed a moment, without spending an
   * attempt, for a worker that can. One worker without the player does not sink the run (issue 79); with no
   * worker that can, the parent says which to start.
   */
  async function handBack(job: Job<RemoteBatch, RemoteResult>, token: string | undefined, why: string, player: string): Promise<never> {
    const queueName = job.queueName;
    if (!unable.has(queueName)) {
      unable.add(queueName);
      log(`left queue ${queueName}: ${why}; its batches are left to a worker that can play them (${cliName()} worker --queue ${pasted.word} --player ${player}=COMMAND${pasted.note})`);
      const worker = serving.get(queueName);
      serving.delete(queueName);
      // Not awaited: close() waits for the jobs it holds, this one among them.
      void worker?.close().catch(() => {});
    }
    // Said to the parent too (its notice when no worker takes the run's batches): the reason lives in this worker's log otherwise.
    await registry.hset(`${LEFT_KEY}${queueName}`, host, why).catch(() => {});
    await registry.expire(`${LEFT_KEY}${queueName}`, 86_400).catch(() => {});
    await job.moveToDelayed(Date.now() + HAND_BACK_MS, token);
    throw new DelayedError();
  }

  async function refresh(): Promise<void> {
    const live = new Set(await registry.zrangebyscore(REGISTRY_KEY, Date.now() - STALE_MS, '+inf'));
    for (const name of live) {
      if (serving.has(name) || stopping || unable.has(name)) continue;
      const worker = new Worker<RemoteBatch, RemoteResult>(name, processor, {
        connection: connectionOptions(url),
        prefix: QUEUE_PREFIX,
        concurrency: o.concurrency,
        lockDuration,
        stalledInterval: lockDuration,
        maxStalledCount: 10,
      });
      // Lost connections are retried by ioredis; a job completed after its queue was emptied is simply dropped.
      worker.on('error', () => {});
      worker.on('stalled', (jobId) => log(`batch ${jobId} of queue ${name} stalled (its worker stopped answering); it goes to the next free worker`));
      worker.on('failed', (job, e) => log(`batch ${job?.id ?? '?'} of queue ${name} failed on this machine: ${e.message}`));
      serving.set(name, worker);
      log(`serving queue ${name}`);
    }
    // A queue left for want of its player is served again once its run has ended (a later run may reuse the name).
    for (const name of unable) if (!live.has(name)) unable.delete(name);
    for (const [name, worker] of serving) {
      if (live.has(name)) continue;
      serving.delete(name);
      log(`queue ${name} ended`);
      await worker.close(true); // its parent is gone or done: results nobody waits for
    }
  }

  let timer: NodeJS.Timeout | null = null;
  const poll = async () => {
    try {
      await refresh();
    } catch {
      // Redis unreachable: logged by the error handler; try again at the next poll.
    }
    if (!stopping) timer = setTimeout(poll, o.pollMs ?? 1000);
  };
  await poll();
  log(`worker on ${host}: ${o.concurrency} game process(es), Redis ${url.display}; waiting for runs (Ctrl-C to stop)`);

  return {
    jobs: () => finished,
    stop: async () => {
      stopping = true;
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...serving.values()].map((w) => w.close()));
      await pool.end();
      registry.disconnect();
    },
    kill: () => {
      stopping = true;
      if (timer) clearTimeout(timer);
      pool.terminate();
      registry.disconnect();
    },
  };
}
