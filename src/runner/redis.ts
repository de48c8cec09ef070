/**
 * The Redis game runner: each batch is a BullMQ job on a queue of its own run;
 * `tune2048 worker` processes on any machine take the jobs and the results come
 * back here (the parent stays the only writer of SQLite).
 *
 * What BullMQ gives and what this adds:
 * - a job is locked by the worker that took it; a worker that dies leaves a
 *   stalled job that another worker's stalled-job check hands on; a failed
 *   attempt is retried with exponential backoff (`retries`);
 * - a job carries its own time limit: the worker kills a game process that
 *   runs past it (a hung worker would otherwise keep renewing its lock);
 * - one queue per run (`queueName`); at the start of a session the queue is
 *   emptied, so late results of an earlier, killed session of the run are
 *   never waited for (resume re-plans the missing games from SQLite);
 * - a registry of live queues (`tune2048:queues`, heartbeats) so workers find
 *   the runs to serve and stop serving runs whose parent is gone;
 * - Redis unreachable at the start → UnavailableError; lost for longer than
 *   `lostAfterMs` during the run → every pending batch fails with one clear
 *   error (finished batches are stored by then; resume continues).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Queue, QueueEvents } from 'bullmq';
import IORedis, { type RedisOptions } from 'ioredis';
import type { PlayerSpec } from '../player/spec';
import { needsTables, tablePublisher } from './shared-tables';
import { cliName } from '../util/command-hint';
import { BatchFailedError, RunnerError, RunnerStoppedError, UnavailableError } from '../util/errors';
import type { PlayedGame } from '../engine/game';
import { parseQueueUrl, pastableQueue, type QueueUrl } from './queue-url';
import type { GameRunner } from './runner';

/** BullMQ key prefix of every tune2048 queue. */
export const QUEUE_PREFIX = 'tune2048';
/** Sorted set: queue name → time (ms) of its parent's last heartbeat. */
export const REGISTRY_KEY = 'tune2048:queues';
/** Hash per queue: worker host → why it left that queue (a player it lacks, another version of it). */
export const LEFT_KEY = 'tune2048:left:';
export const HEARTBEAT_MS = 2000;
/** A queue whose parent has not beaten for this long is not served. */
export const STALE_MS = 15_000;
/** A queue whose parent has been silent this long is deleted by the next parent that starts (a run killed and never resumed). */
export const DEAD_MS = 3_600_000;

/** What a job holds: one batch and its time limit. */
export interface RemoteBatch {
  spec: PlayerSpec;
  seeds: number[];
  timeoutMs: number;
}

/** What a worker returns for it. */
export interface RemoteResult {
  host: string;
  pid: number;
  games: PlayedGame[];
}

export function connectionOptions(url: QueueUrl): RedisOptions {
  return {
    host: url.host,
    port: url.port,
    db: url.db,
    ...(url.username ? { username: url.username } : {}),
    ...(url.password ? { password: url.password } : {}),
    ...(url.tls ? { tls: url.tls.caFile ? { ca: readFileSync(url.tls.caFile) } : {} } : {}),
    maxRetriesPerRequest: null, // BullMQ's blocking connections require it
    connectTimeout: 5000,
    retryStrategy: (times) => Math.min(200 * times, 2000),
  };
}

/** Connects once, without retrying, and checks that the server answers; else UnavailableError. */
export async function checkRedis(url: QueueUrl): Promise<void> {
  const probe = new IORedis({ ...connectionOptions(url), lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 3000 });
  let cause: Error | null = null; // the socket's own error (ECONNREFUSED…), more telling than connect()'s
  probe.on('error', (e: Error) => (cause ??= e));
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    throw new UnavailableError(`cannot reach Redis at ${url.display}: ${(cause ?? (e as Error)).message || String(e)}`);
  } finally {
    probe.disconnect();
  }
}

/** Deletes the queues of parents silent for DEAD_MS (killed, never resumed): their jobs would otherwise stay in Redis. */
async function removeDeadQueues(connection: IORedis): Promise<void> {
  for (const dead of await connection.zrangebyscore(REGISTRY_KEY, '-inf', Date.now() - DEAD_MS)) {
    if ((await connection.zrem(REGISTRY_KEY, dead)) !== 1) continue; // another parent is on it
    const q = new Queue(dead, { connection, prefix: QUEUE_PREFIX });
    await q.obliterate({ force: true }).finally(() => q.close());
  }
}

export interface RedisRunnerOptions {
  url: string;
  queueName?: string;
  callTimeoutMs?: number;
  retries?: number;
  /** Pending batches fail when Redis stays unreachable this long. */
  lostAfterMs?: number;
  /** Jobs on the queue at once; further batches wait here until one finishes (default 1,000). */
  maxQueued?: number;
  /** The size of a network's chunks on Redis (tests: small, so a small network travels in several). */
  networkChunkBytes?: number;
  /** What the user should know while batches wait: no worker takes them, one was re-queued (and why). */
  onNotice?: (line: string) => void;
  /** Batches waiting this long with none taken make a notice (default 15 s). */
  noticeAfterMs?: number;
}

/**
 * Jobs a parent keeps on the queue at once, and the length its events stream is trimmed to. A job makes
 * ~4 events (added, waiting, active, completed): BullMQ trims the stream to 10,000 by default, so a parent
 * that queued thousands of batches at once lost the completions of the first ones before it read them
 * and waited for them forever (measured: 6,000 one-game batches, scripts/bench-parent.ts). With at most
 * 1,000 jobs queued, ~4,000 events are unread at most, well inside the 100,000 kept.
 */
export const MAX_QUEUED_JOBS = 1000;
const EVENTS_MAX_LEN = 100_000;

interface Pending {
  resolve: (games: PlayedGame[]) => void;
  reject: (e: Error) => void;
}

/**
 * The failures a remote worker made final (UnrecoverableError): its batch's own code failed ("worker error: …"),
 * or the worker refused or lost its external player ("on HOST: …", said by remote-worker.ts).
 */
const FINAL_FAILURE = /^(?:worker error: |on ([^:\s]+): )/;

/** The spec as a job carries it: an external player without the command that starts it here. */
function withoutLaunch(spec: PlayerSpec): PlayerSpec {
  if (spec.kind !== 'external') return spec;
  const { launch: _launch, ...external } = spec.external;
  return { ...spec, external };
}

export async function createRedisRunner(o: RedisRunnerOptions): Promise<GameRunner> {
  const url = parseQueueUrl(o.url);
  await checkRedis(url);
  const name = o.queueName ?? `adhoc-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const connection = new IORedis(connectionOptions(url));
  const eventsConnection = new IORedis(connectionOptions(url));
  const queue = new Queue<RemoteBatch, RemoteResult>(name, { connection, prefix: QUEUE_PREFIX, streams: { events: { maxLen: EVENTS_MAX_LEN } } });
  const events = new QueueEvents(name, { connection: eventsConnection, prefix: QUEUE_PREFIX });
  const pending = new Map<string, Pending>();
  const active = new Set<string>();
  const publishTables = tablePublisher(connection, o.networkChunkBytes);
  const maxQueued = o.maxQueued ?? MAX_QUEUED_JOBS;
  /** Jobs added to the queue and not yet finished; and batches waiting here for a place among them. */
  const queued = new Set<string>();
  const held: { jobId: string; data: RemoteBatch }[] = [];
  let nextJob = 1;
  let closed = false;
  let drained = false;
  let failure: RunnerError | null = null;
  let lostTimer: NodeJS.Timeout | null = null;
  const tasks = new Set<Promise<unknown>>(); // background Redis calls end() waits for
  const track = (p: Promise<unknown>) => {
    const t = p.catch(() => {}).finally(() => tasks.delete(t));
    tasks.add(t);
  };

  // end() waits for the batches still pending (the running ones after a drain).
  let idle: (() => void) | null = null;
  const settle = (id: string): Pending | undefined => {
    const p = pending.get(id);
    pending.delete(id);
    if (queued.delete(id)) submitHeld();
    if (pending.size === 0) idle?.();
    return p;
  };

  function submit(jobId: string, data: RemoteBatch): void {
    queued.add(jobId);
    track(
      queue
        .add('batch', data, {
          jobId,
          attempts: (o.retries ?? 2) + 1,
          backoff: { type: 'exponential', delay: 500 },
          removeOnComplete: true,
          removeOnFail: true,
        })
        .catch((e: Error) => settle(jobId)?.reject(new RunnerError(`could not queue a batch on Redis at ${url.display}: ${e.message}`))),
    );
  }

  /** Queues held batches while there is room (never after a drain, a failure or the end). */
  function submitHeld(): void {
    while (held.length > 0 && queued.size < maxQueued && !drained && !closed && !failure) {
      const next = held.shift()!;
      if (pending.has(next.jobId)) submit(next.jobId, next.data);
    }
  }

  function failAll(error: RunnerError): void {
    failure ??= error;
    for (const id of [...pending.keys()]) settle(id)?.reject(error);
  }

  // Redis gone for good (not a blip): fail what is pending, so the caller stops with a clear message.
  const lostAfterMs = o.lostAfterMs ?? (Number(process.env.TUNE2048_REDIS_LOST_AFTER_MS) || 10_000); // the env: tests only
  for (const c of [connection, eventsConnection]) {
    c.on('error', () => {}); // ioredis reconnects by itself; the timer below decides when it is hopeless
    c.on('close', () => {
      if (lostTimer || closed) return;
      lostTimer = setTimeout(() => failAll(new RunnerError(`lost the connection to Redis at ${url.display} for ${lostAfterMs / 1000} s`)), lostAfterMs);
      lostTimer.unref();
    });
    c.on('ready', () => {
      if (connection.status === 'ready' && eventsConnection.status === 'ready' && lostTimer) {
        clearTimeout(lostTimer);
        lostTimer = null;
      }
    });
  }
  events.on('error', () => {});
  queue.on('error', () => {});

  events.on('active', ({ jobId }) => active.add(jobId));
  events.on('completed', ({ jobId, returnvalue }) => {
    active.delete(jobId);
    const p = settle(jobId);
    if (!p) return; // an earlier session's job, or one given up
    const result = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as RemoteResult;
    p.resolve(result.games);
  });
  events.on('failed', ({ jobId, failedReason }) => {
    active.delete(jobId);
    // A worker error is final at its first attempt (UnrecoverableError); a dead or hung process, after every retry.
    const final = FINAL_FAILURE.exec(failedReason);
    settle(jobId)?.reject(final ? new BatchFailedError(final[1] ? `a remote batch failed on ${final[1]}: ${failedReason.slice(final[0].length)}` : `a remote batch failed: ${failedReason}`) : new RunnerError(`a remote batch failed ${(o.retries ?? 2) + 1} times; giving up: ${failedReason}`));
  });

  try {
    await events.waitUntilReady();
    // Jobs of an earlier session of this run: nobody waits for them; resume plays what SQLite lacks.
    await queue.obliterate({ force: true });
    await connection.zadd(REGISTRY_KEY, Date.now(), name);
    await removeDeadQueues(connection);
  } catch (e) {
    await Promise.allSettled([queue.close(), events.close()]);
    throw new UnavailableError(`Redis at ${url.display}: ${(e as Error).message}`);
  }
  const heartbeat = setInterval(() => track(connection.zadd(REGISTRY_KEY, Date.now(), name)), HEARTBEAT_MS);
  heartbeat.unref();

  // A queue no worker serves is silent otherwise (a progress bar at 0, an ETA that never comes): say so, with the command that serves it.
  const notice = o.onNotice ?? (() => {});
  const noticeAfterMs = o.noticeAfterMs ?? (Number(process.env.TUNE2048_QUEUE_NOTICE_MS) || 15_000); // the env: tests only
  let lastTaken = Date.now();
  let saidIdle = false;
  /** The external players this runner's batches need: a worker must be started with each (its --player). */
  const externalNames = new Set<string>();
  const taken = () => {
    lastTaken = Date.now();
    saidIdle = false;
  };
  events.on('active', taken);
  events.on('completed', taken);
  events.on('stalled', ({ jobId }) => {
    active.delete(jobId); // no worker holds it now: the next free one takes it (or the notice says none serves)
    if (pending.has(jobId)) notice(`batch ${jobId} was re-queued: the worker that held it stopped answering (its lock expired); the next free worker plays it`);
  });
  events.on('delayed', ({ jobId }) => {
    // A failed attempt waits out its backoff before it is retried: say why it failed. No worker holds it now
    // (a queue that no worker able to play it serves is then said, as one no worker serves at all).
    active.delete(jobId);
    if (!pending.has(jobId)) return;
    track(
      queue.getJob(jobId).then((job) => {
        if (job && job.attemptsMade > 0) notice(`batch ${jobId} failed on a worker (attempt ${job.attemptsMade} of ${(o.retries ?? 2) + 1}: ${job.failedReason ?? 'no reason given'}); it is retried`);
      }),
    );
  });
  // The queue as the notice's worker command writes it (the password as **** in a log).
  const pasted = pastableQueue(url);
  const watchdog = setInterval(() => {
    if (closed || failure || drained || pending.size === 0 || active.size > 0 || saidIdle || Date.now() - lastTaken < noticeAfterMs) return;
    saidIdle = true;
    track(
      Promise.all([queue.getWorkersCount(), connection.hgetall(`${LEFT_KEY}${name}`).catch(() => ({}) as Record<string, string>)]).then(([workers, left]) =>
        notice(`${Object.entries(left).map(([host, why]) => `a worker on ${host} left this run's queue: ${why}; `).join('')}no worker has taken a batch for ${Math.round((Date.now() - lastTaken) / 1000)} s (${workers} worker${workers === 1 ? '' : 's'} serving this run's queue); start one on any machine that reaches Redis: ${cliName()} worker --queue ${pasted.word}${[...externalNames].map((n) => ` --player ${n}=COMMAND`).join('')}${externalNames.size ? ' (COMMAND: how that machine starts the player)' : ''}${pasted.note}`),
      ),
    );
  }, Math.min(1000, noticeAfterMs / 2));
  watchdog.unref();

  function drain(): void {
    if (drained || failure) return;
    drained = true;
    // Batches never queued are cancelled here; jobs still waiting are removed and their batches
    // cancelled; a job a worker holds finishes.
    for (const { jobId } of held.splice(0)) settle(jobId)?.reject(new RunnerStoppedError());
    for (const id of [...queued]) {
      track(
        queue.remove(id).then((removed) => {
          if (removed === 1) settle(id)?.reject(new RunnerStoppedError());
        }),
      );
    }
  }

  let releasing: Promise<void> | null = null;
  const release = () => (releasing ??= releaseNow());
  async function releaseNow(): Promise<void> {
    closed = true;
    clearInterval(heartbeat);
    clearInterval(watchdog);
    if (lostTimer) clearTimeout(lostTimer);
    if (failure) {
      // Redis is gone: commands would wait for it forever. Drop the connections; a later session cleans up.
      connection.disconnect();
      eventsConnection.disconnect();
    } else {
      await Promise.allSettled([...tasks]);
      await Promise.allSettled([connection.zrem(REGISTRY_KEY, name), connection.del(`${LEFT_KEY}${name}`), queue.obliterate({ force: true })]);
    }
    await Promise.allSettled([events.close(), queue.close()]);
    connection.disconnect();
    eventsConnection.disconnect();
  }

  return {
    description: `Redis queue ${name} at ${url.display}`,
    playBatch: (spec, seeds) =>
      new Promise<PlayedGame[]>((resolve, reject) => {
        if (failure) return reject(failure);
        if (drained || closed) return reject(new RunnerStoppedError());
        const jobId = `b${nextJob++}`; // BullMQ refuses integer-like custom ids
        pending.set(jobId, { resolve, reject });
        if (spec.kind === 'external') externalNames.add(spec.external.name);
        // A job never carries a command line: an external player travels as its name, version, hash and values; each worker starts its own registered program.
        const data: RemoteBatch = { spec: withoutLaunch(spec), seeds: [...seeds], timeoutMs: o.callTimeoutMs ?? 600_000 };
        const enqueue = () => {
          if (queued.size < maxQueued) submit(jobId, data);
          else held.push({ jobId, data });
        };
        if (!needsTables(spec)) return enqueue();
        // Learned tables and networks go to Redis before the first job that needs them; a drain meanwhile cancels the batch.
        publishTables(spec).then(
          () => {
            if (!pending.has(jobId)) return;
            if (drained || closed) settle(jobId)?.reject(new RunnerStoppedError());
            else enqueue();
          },
          (e: unknown) => settle(jobId)?.reject(e as Error),
        );
      }),
    inFlight: () => [...pending.keys()].filter((id) => active.has(id)).length,
    drain,
    end: async () => {
      drain();
      if (pending.size > 0) await new Promise<void>((resolve) => (idle = resolve));
      await release();
    },
    terminate: () => {
      drained = true;
      held.length = 0;
      for (const id of [...pending.keys()]) settle(id)?.reject(new RunnerStoppedError());
      void release();
    },
  };
}
