/**
 * The Redis game runner against a real redis-server on loopback and real
 * `tune2048 worker` processes: the same rows and export as the local pool,
 * through a worker killed mid-job, a parent killed and resumed, and Redis
 * itself going away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli, startCli, waitFor, waitForOutput, type RunningCli } from './helpers/cli';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { createRedisRunner, DEAD_MS, QUEUE_PREFIX, REGISTRY_KEY } from '../src/runner/redis';
import { openRunner, playSeeds } from '../src/runner/runner';
import { loadWeights } from '../src/heuristic/weights';
import { expectimaxSpec, playerSpec, type PlayerSpec } from '../src/player/spec';
import { SYNTHETIC_DEFAULTS } from '../src/player/synthetic';
import { BatchFailedError } from '../src/util/errors';
import { NetworkTraining } from '../src/learn/ntuple/training';
import { ONE_STAGE } from '../src/learn/ntuple/shape';
import { createNetworkPlayer, networkPlayerSpec } from '../src/player/network-player';
import { playGame } from '../src/engine/game';
import { freePort, startRedis, type RedisServer } from './helpers/redis-server';
import { dumpRun, gamesIn, SLOW, SMOKE, smokeConfig, tempDb, tuneToEnd, writeConfig } from './helpers/runs';

const FIXTURES = join(__dirname, 'fixtures', 'workers');
let redis: RedisServer;
const started: RunningCli[] = [];

const logs = new Map<RunningCli, string>();

/**
 * A `tune2048 worker` on `url`, one game at a time, handing a dead worker's batch on after `lockMs` (2 s);
 * `gameModule` replaces its games (a fixture).
 */
async function startWorker(url: string, gameModule?: string, lockMs = 2000): Promise<RunningCli> {
  const env = { ...process.env, ...(gameModule ? { TUNE2048_TEST_GAME_MODULE: gameModule } : {}) };
  const w = startCli(['worker', '--queue', url, '--concurrency', '1', '--lock-duration', String(lockMs)], { env });
  started.push(w);
  logs.set(w, '');
  w.child.stderr!.on('data', (d) => logs.set(w, logs.get(w) + String(d)));
  await waitForOutput(w, 'stderr', /waiting for runs/);
  return w;
}

const anyLog = (pattern: RegExp) => [...logs.values()].some((l) => pattern.test(l));

/** Export of a run as JSON, minus what names the database or the time. */
function exported(db: string, run: number) {
  const r = runCli(['export', String(run), '--db', db, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout, (key, value) => (key === 'exportedAt' ? undefined : value));
}

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const w of started) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await redis?.stop();
});

describe.sequential('tuning through Redis with tune2048 worker processes', () => {
  let smokeDb: string;
  let smokeId: number;
  let slowDb: string;
  let slowId: number;
  const slowConfig = { ...SLOW, name: 'slow' };

  beforeAll(async () => {
    smokeDb = tempDb();
    smokeId = (await tuneToEnd(smokeDb, smokeConfig({ name: 'smoke' }), { workers: 2 })).id;
    slowDb = tempDb();
    slowId = (await tuneToEnd(slowDb, smokeConfig(slowConfig), { workers: 2 })).id;
    await startWorker(redis.url);
    await startWorker(redis.url);
  });

  it('two workers: the same rows and the same export as the local pool', async () => {
    const db = tempDb();
    const r = await startCli(['tune', '-c', writeConfig({ ...SMOKE, name: 'smoke' }), '--name', 'test', '--db', db, '--queue', redis.url]).done;
    expect(r.code, r.stderr).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(smokeDb, smokeId));
    expect(exported(db, 1)).toEqual(exported(smokeDb, smokeId));
  });

  it('the synthetic player goes through the queue unchanged: the same rows as the local pool', async () => {
    const synthetic = { ...JSON.parse(readFileSync(join(ROOT, 'configs', 'synthetic-d3.json'), 'utf8')), optimizer: { population: 6, generations: 2, elitism: 1, tournament: 2 }, validation: { finalists: 2, games: 20 } };
    synthetic.fitness.games = 10;
    const local = tempDb();
    const localId = (await tuneToEnd(local, smokeConfig(synthetic), { workers: 2 })).id;
    const db = tempDb();
    const r = await startCli(['tune', '-c', writeConfig(synthetic), '--name', 'test', '--db', db, '--queue', redis.url]).done;
    expect(r.code, r.stderr).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(local, localId));
  });

  it('the model within a budget, raced and confirmed, through the queue: the same rows as the local pool (its budget is in games, so more machines change only the time)', async () => {
    const model = {
      name: 'model',
      seed: 5,
      space: SMOKE.space,
      optimizer: { kind: 'model', population: 5, games: 2 },
      fitness: { budget: 80, cost: 'nodes', maxCost: 60, player: 'synthetic', synthetic: { optimum: { empty: 900, merges: 2000, monotonicity: 30 }, width: 1, cost: { weight: 'merges', nodes: 20, growth: 0.001 } } },
      validation: { finalists: 2, games: 12, race: { rounds: 2, keep: 0.5 }, confirm: 8 },
      pool: { batchGames: 2 },
    };
    const local = tempDb();
    const localId = (await tuneToEnd(local, smokeConfig(model), { workers: 2 })).id;
    const db = tempDb();
    const r = await startCli(['tune', '-c', writeConfig(model), '--name', 'test', '--db', db, '--queue', redis.url]).done;
    expect(r.code, r.stderr).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(local, localId));
  });

  it('lagged proposals (no generation barrier) through the queue with four workers: the same rows as one local worker', async () => {
    const model = {
      name: 'lagged',
      seed: 6,
      space: SMOKE.space,
      optimizer: { kind: 'model', population: 3, games: 2, initial: 5, lag: 4 },
      fitness: { budget: 80, player: 'synthetic', synthetic: { optimum: { empty: 900, merges: 2000, monotonicity: 30 }, width: 1 } },
      validation: { finalists: 2, games: 12 },
      pool: { batchGames: 1 },
    };
    const local = tempDb();
    const localId = (await tuneToEnd(local, smokeConfig(model), { workers: 1 })).id;
    // Two more beside the two this describe started: four workers take the points as they come.
    await startWorker(redis.url);
    await startWorker(redis.url);
    const db = tempDb();
    const r = await startCli(['tune', '-c', writeConfig(model), '--name', 'test', '--db', db, '--queue', redis.url]).done;
    expect(r.code, r.stderr).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(local, localId));
  });

  it('a worker SIGKILLed mid-job: its batch goes to another worker, and the run is the same', async () => {
    const db = tempDb();
    const marker = join(mkdtempSync(join(tmpdir(), 'tune2048-m-')), 'hung');
    // The victim's game process hangs on its first batch and writes the marker: from then it is surely mid-job.
    process.env.TUNE2048_TEST_MARKER = marker; // read by the fixture, inherited by the worker's processes
    const victim = await startWorker(redis.url, join(FIXTURES, 'hang-once.ts'));
    const tune = startCli(['tune', '-c', writeConfig(slowConfig), '--name', 'test', '--db', db, '--queue', redis.url]);
    await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8') !== '');
    victim.child.kill('SIGKILL');
    process.kill(Number(readFileSync(marker, 'utf8')), 'SIGKILL'); // a hung game never looks at its parent
    const r = await tune.done;
    expect(r.code, r.stderr).toBe(0);
    expect(anyLog(/stalled \(its worker stopped answering\)/)).toBe(true);
    // The parent says it too: which batch went back to the queue, and why.
    expect(r.stderr).toMatch(/tune2048: batch b\d+ was re-queued: the worker that held it stopped answering \(its lock expired\); the next free worker plays it/);
    expect(dumpRun(db, 1)).toEqual(dumpRun(slowDb, slowId));
  });

  it('a hung game: the batch is stopped at its time limit and retried, and the run is the same', async () => {
    const db = tempDb();
    const marker = join(mkdtempSync(join(tmpdir(), 'tune2048-m-')), 'hung');
    process.env.TUNE2048_TEST_MARKER = marker;
    // A long lock: on a loaded machine a 2 s lock may lapse before the 3 s limit and hand the batch on as
    // stalled, which is the other test's path, not this one's.
    const hanging = await startWorker(redis.url, join(FIXTURES, 'hang-once.ts'), 60_000);
    const config = { ...slowConfig, pool: { ...slowConfig.pool, batchTimeoutSec: 3 } };
    const r = await startCli(['tune', '-c', writeConfig(config), '--name', 'test', '--db', db, '--queue', redis.url]).done;
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(logs.get(hanging)).toMatch(/failed on this machine: the worker running a batch was killed 1 time\(s\) for running past 3000 ms/);
    expect(r.stderr).toMatch(/tune2048: batch b\d+ failed on a worker \(attempt 1 of 3: .*running past 3000 ms.*\); it is retried/);
    hanging.child.kill('SIGKILL');
    const { run, ...rest } = dumpRun(db, 1);
    const { run: refRun, ...refRest } = dumpRun(slowDb, slowId);
    expect(rest).toEqual(refRest); // the config differs in its time limit only
    expect(run).toMatchObject({ status: 'finished', best_candidate: (refRun as { best_candidate: number }).best_candidate });
  });

  it('a queue no worker serves says so, with the command that serves it (in a log, the password as ****, said so); a worker started by it plays the run', async () => {
    const own = await startRedis({ password: 's3cret' });
    try {
      const db = tempDb();
      const tune = startCli(['tune', '-c', writeConfig(SMOKE), '--db', db, '--queue', own.url], { env: { ...process.env, TUNE2048_QUEUE_NOTICE_MS: '1000' } });
      // A log (not a terminal) gets **** for the password, and says so; the user puts back what they typed.
      const notice = await waitForOutput(tune, 'stderr', /start one on any machine that reaches Redis: tune2048 worker --queue (\S+) \(\*\*\*\* in place of the password given to --queue, not written to logs\)\n/);
      expect(notice[1]).toBe(`'${own.url.replace('s3cret', '****')}'`);
      await startWorker(notice[1].slice(1, -1).replace('****', 's3cret'));
      const r = await tune.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/tune2048: no worker has taken a batch for \d+ s \(0 workers serving this run's queue\); start one/);
    } finally {
      await own.stop();
    }
  });

  it('the parent SIGKILLed mid-run: resume through the queue ends with the same rows', async () => {
    const db = tempDb();
    const tune = startCli(['tune', '-c', writeConfig(slowConfig), '--name', 'test', '--db', db, '--queue', redis.url]);
    await waitFor(() => gamesIn(db) >= 24);
    tune.child.kill('SIGKILL');
    await tune.done;
    const r = await startCli(['resume', '1', '--db', db, '--queue', redis.url]).done;
    expect(r.code, r.stderr).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(slowDb, slowId));
  });

  it('Ctrl-C on a queued run: the resume hint names the queue; resumed without it, the run says it now plays locally, and ends with the same rows', async () => {
    const db = tempDb();
    const tune = startCli(['tune', '-c', writeConfig(slowConfig), '--name', 'test', '--db', db, '--queue', redis.url]);
    await waitFor(() => gamesIn(db) >= 24);
    tune.child.kill('SIGINT');
    const stopped = await tune.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain(`resume it with: tune2048 resume 1 --queue ${redis.url} --db ${db}`);
    const local = await startCli(['resume', '1', '--db', db, '--workers', '2']).done;
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toMatch(new RegExp(`run 1 played on the Redis queue ${redis.url.replace(/[/.]/g, '\\$&')} before; this session plays on 2 local worker process\\(es\\) \\(results are the same either way; add --queue `));
    expect(dumpRun(db, 1)).toEqual(dumpRun(slowDb, slowId));
  });

  it("a killed run's queue, silent for an hour, is deleted by the next parent; a finished run leaves nothing", async () => {
    const redisClient = new IORedis(redis.url);
    try {
      const dead = new Queue('run-dead-1', { connection: redisClient, prefix: QUEUE_PREFIX });
      await dead.add('batch', { spec: null, seeds: [1], timeoutMs: 1000 }, { jobId: 'b1' });
      await redisClient.zadd(REGISTRY_KEY, Date.now() - DEAD_MS - 1000, 'run-dead-1');
      await dead.close();
      const r = await startCli(['tune', '-c', writeConfig({ ...SMOKE, name: 'smoke' }), '--db', tempDb(), '--queue', redis.url]).done;
      expect(r.code, r.stderr).toBe(0);
      expect(await redisClient.zrange(REGISTRY_KEY, 0, -1)).toEqual([]);
      expect(await redisClient.keys(`${QUEUE_PREFIX}:run-dead-1:*`)).toEqual([]);
      expect(await redisClient.keys(`${QUEUE_PREFIX}:*:b[0-9]*`)).toEqual([]); // no job of the finished run either
    } finally {
      redisClient.disconnect();
    }
  });

  it('weights with learned tables play through the queue as locally: the worker fetches the tables from Redis (not from the file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-redis-learned-'));
    const db = tempDb();
    const config = join(dir, 'learn.json');
    writeFileSync(config, JSON.stringify({ format: 'tune2048/learn', name: 'queue', seed: 2, games: 1500, learningRate: 0.25 }));
    expect(runCli(['learn', 'start', '-c', config, '--db', db]).code).toBe(0);
    expect(runCli(['learn', 'export', '1', '--db', db, '--out', join(dir, 'lines.bin'), '--base', 'tuned-d1', '--weight', '2', '--weights-out', join(dir, 'w.json')]).code).toBe(0);
    const hash = JSON.parse(readFileSync(join(dir, 'w.json'), 'utf8')).learned.sha256 as string;
    const cached = join(tmpdir(), 'tune2048-tables', `${hash}.bin`);
    rmSync(cached, { force: true });
    const args = ['play', '-w', join(dir, 'w.json'), '-n', '4', '-d', '1', '--json'];
    const local = JSON.parse(runCli(args).stdout).games;
    const remote = runCli([...args, '--queue', redis.url]);
    expect(remote.code, remote.stderr).toBe(0);
    expect(JSON.parse(remote.stdout).games.map((g: { ms: number }) => ({ ...g, ms: 0 }))).toEqual(local.map((g: { ms: number }) => ({ ...g, ms: 0 })));
    expect(existsSync(cached)).toBe(true); // the worker's own copy, fetched from Redis
  });

  it('an n-tuple network plays through the queue as locally: workers fetch it from Redis in chunks (not from the file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-redis-network-'));
    try {
      const file = join(dir, 'net.bin');
      const training = new NetworkTraining({ shape: { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [4, 5, 8, 9]], stages: ONE_STAGE, promote: true }, threads: 1, seed: 3, learningRate: 0.1, heldOut: { games: 0, seed: 1 } });
      await training.trainTo(300);
      training.save(file);
      await training.close();
      const spec = networkPlayerSpec(file, { depth: 1, cprob: 1e-4 });
      const cached = join(tmpdir(), 'tune2048-tables', `${spec.network.sha256}.network.bin`);
      rmSync(cached, { force: true });
      const seeds = [21, 22, 23, 24, 25, 26];
      const player = createNetworkPlayer(spec);
      const local = seeds.map((s) => playGame(player, s));
      const runner = await createRedisRunner({ url: redis.url, networkChunkBytes: 256 * 1024 }); // 1 MiB of tables: 5 chunks
      try {
        const remote = await playSeeds(runner, spec, seeds, 1);
        expect(remote.map((g) => [g.score, g.moves, g.maxTile])).toEqual(local.map((g) => [g.score, g.moves, g.maxTile]));
      } finally {
        await runner.end();
      }
      expect(existsSync(cached)).toBe(true); // the workers' own copy, fetched from Redis
      expect(anyLog(/fetching network [0-9a-f]{12}…: 1 of 1 MiB/)).toBe(true);
      // A worker without room for the network's copies refuses its batch as final, saying why (before fetching it);
      // alone on a Redis database of its own, so no other worker takes the batch.
      const narrow = `${redis.url}/2`;
      const w = startCli(['worker', '--queue', narrow, '--concurrency', '1', '--max-memory', '1']);
      started.push(w);
      let log = '';
      w.child.stderr!.on('data', (d) => (log += d));
      await waitForOutput(w, 'stderr', /waiting for runs/);
      const limited = await createRedisRunner({ url: narrow });
      try {
        await expect(playSeeds(limited, spec, [1], 1)).rejects.toThrow(/the network [0-9a-f]{12}… needs 65\.0 MiB \(1 game process × 1\.0 MiB of tables and 64\.0 MiB beside them\); this worker has 1\.0 MiB \(--max-memory\)/);
      } finally {
        await limited.end().catch(() => {});
      }
      expect(log).toMatch(/refused a batch: on \S+: the network/);
      expect(log).not.toMatch(/fetching network/);
      w.child.kill('SIGKILL');
      // A file changed after it was named: the parent refuses before any job, naming it.
      const wrong = { ...spec, network: { ...spec.network, sha256: 'f'.repeat(64) } };
      const refusing = await createRedisRunner({ url: redis.url });
      try {
        await expect(playSeeds(refusing, wrong, [1], 1)).rejects.toThrow(/network file ".*net\.bin" changed since it was named/);
      } finally {
        refusing.terminate();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compare through the queue gives the local numbers, the search\'s cost (nodes a game) included', () => {
    const args = ['compare', 'nneonneo', 'flat', '-n', '6', '-d', '1', '--json'];
    const local = JSON.parse(runCli(args).stdout);
    expect(local.contenders[0].games.every((g: { nodes?: number }) => g.nodes! > 0)).toBe(true);
    const remote = runCli([...args, '--queue', redis.url]);
    expect(remote.code, remote.stderr).toBe(0);
    const strip = (c: { contenders: { games: { ms: number }[]; summary: { msPerMove: number }; timing: { msPerMove: number } | null }[] }) =>
      c.contenders.map((x) => ({ ...x, games: x.games.map((g) => ({ ...g, ms: 0 })), summary: { ...x.summary, msPerMove: 0 }, timing: x.timing && { ...x.timing, msPerMove: 0 } }));
    expect(strip(JSON.parse(remote.stdout))).toEqual(strip(local));
  });
});

describe('bad queues', () => {
  it('Redis down at the start: one line, exit 4, no database created', async () => {
    const db = tempDb();
    const port = await freePort();
    const r = runCli(['tune', '-c', writeConfig(SMOKE), '--db', db, '--queue', `redis://127.0.0.1:${port}`]);
    expect(r.code).toBe(4);
    expect(r.stderr.trim()).toMatch(new RegExp(`^tune2048: cannot reach Redis at redis://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(db)).toBe(false);
    const w = runCli(['worker', '--queue', `redis://127.0.0.1:${port}`]);
    expect(w.code).toBe(4);
    expect(w.stderr).toMatch(/cannot reach Redis/);
  });

  it('a malformed queue URL, on the command line or in a config: exit 2 naming it', () => {
    const r = runCli(['compare', 'nneonneo', 'flat', '--queue', 'http://localhost:6379']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--queue must be a Redis URL like redis\[s\]:\/\/\[USER:PASSWORD@\]HOST/);
    const c = runCli(['tune', '-c', writeConfig({ ...SMOKE, pool: { queue: 'redis://localhost:6379/x' } }), '--db', tempDb()]);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/pool\.queue.*database after the host must be a number/);
  });

  it('Redis lost mid-run: the run fails with a clear error, keeps its games, and resumes to the same rows', async () => {
    const own = await startRedis();
    const reference = tempDb();
    const refId = (await tuneToEnd(reference, smokeConfig({ ...SLOW, name: 'slow' }), { workers: 2 })).id;
    const db = tempDb();
    try {
      await startWorker(own.url);
      const tune = startCli(['tune', '-c', writeConfig({ ...SLOW, name: 'slow' }), '--name', 'test', '--db', db, '--queue', own.url], { env: { ...process.env, TUNE2048_REDIS_LOST_AFTER_MS: '3000' } });
      await waitFor(() => gamesIn(db) >= 24);
      await own.stop();
      const r = await tune.done;
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/run 1 failed: lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+ for 3 s; finished games are stored, resume with: tune2048 resume 1 --queue redis:\/\/127\.0\.0\.1:\d+ --db /);
      const kept = gamesIn(db);
      expect(kept).toBeGreaterThanOrEqual(24);
      const back = await startRedis(own.port); // the worker reconnects by itself
      try {
        const resumed = await startCli(['resume', '1', '--db', db, '--queue', back.url]).done;
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(dumpRun(db, 1)).toEqual(dumpRun(reference, refId));
      } finally {
        await back.stop();
      }
    } finally {
      await own.stop();
    }
  });
});

describe('a batch whose own code fails', () => {
  // A spec no worker can play (minimax at depth auto): the worker's code throws, the same on any machine.
  const badSpec = { kind: 'minimax', weights: loadWeights('nneonneo'), search: { depth: 'auto', cprob: 1e-4 } } as unknown as PlayerSpec;

  it('fails at once through Redis, as locally: never retried', async () => {
    const own = await startRedis();
    try {
      const worker = await startWorker(own.url);
      const runner = await openRunner({ workers: 1, queue: own.url, retries: 2 });
      try {
        const failure = await runner.playBatch(badSpec, [1, 2]).then(() => null, (e: unknown) => e);
        expect(failure).toBeInstanceOf(BatchFailedError);
        expect((failure as Error).message).toMatch(/^a remote batch failed: worker error: minimax needs a fixed --depth/);
      } finally {
        await runner.end();
      }
      // With retries: 2, a retried job fails 3 times before the parent hears of it; an unrecoverable one, once.
      await waitFor(() => /failed on this machine/.test(logs.get(worker)!));
      expect(logs.get(worker)!.match(/failed on this machine/g)).toHaveLength(1);
    } finally {
      await own.stop();
    }
  });

  it('fails at once on the local pool (no retry, no worker restarted)', async () => {
    const runner = await openRunner({ workers: 1, retries: 2 });
    try {
      const failure = await runner.playBatch(badSpec, [1, 2]).then(() => null, (e: unknown) => e);
      expect(failure).toBeInstanceOf(BatchFailedError);
      expect((failure as Error).message).toMatch(/^worker error: minimax needs a fixed --depth/);
      expect(await runner.playBatch(expectimaxSpec(loadWeights('nneonneo'), { depth: 0, cprob: 1e-4 }), [1])).toHaveLength(1);
    } finally {
      await runner.end();
    }
  });
});

describe('many batches at once', () => {
  it('thousands of batches at once: the parent keeps at most its window on the queue (so the trimmed events stream loses no completion), and every batch comes back', async () => {
    const own = await startRedis();
    try {
      await startWorker(own.url);
      const synthetic = JSON.parse(readFileSync(join(ROOT, 'configs', 'synthetic-d3.json'), 'utf8')).fitness.synthetic;
      const spec = playerSpec('synthetic', loadWeights('nneonneo'), { depth: 3, cprob: 1e-4 }, { ...SYNTHETIC_DEFAULTS, ...synthetic });
      const seeds = Array.from({ length: 3000 }, (_, i) => 5000 + i);
      const remote = await createRedisRunner({ url: own.url, queueName: 'window-test', maxQueued: 200 });
      // Watch the queue while it plays: never more jobs on it than the window (a bound, whenever it is looked at).
      // Its own connection, closed with it (BullMQ leaves a connection it was given open: one left reconnecting to the
      // stopped server printed "[ioredis] Unhandled error event" into the passing suite's output).
      const watcherConnection = new IORedis(own.url, { maxRetriesPerRequest: null });
      const watcher = new Queue('window-test', { connection: watcherConnection, prefix: QUEUE_PREFIX });
      let most = 0;
      let watching = true;
      const watch = (async () => {
        while (watching) {
          const counts = await watcher.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused');
          most = Math.max(most, Object.values(counts).reduce((a, b) => a + b, 0));
        }
      })();
      const viaRedis = await playSeeds(remote, spec, seeds, 1).finally(async () => {
        watching = false;
        await watch;
        await remote.end();
        await watcher.close();
        watcherConnection.disconnect();
      });
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(200);
      const local = await openRunner({ workers: 2 });
      const viaLocal = await playSeeds(local, spec, seeds, 100).finally(() => local.end());
      expect(viaRedis).toEqual(viaLocal);
    } finally {
      await own.stop();
    }
  });

  it('a small window: every batch is played once and in place, and a drain cancels the batches still held', async () => {
    const own = await startRedis();
    try {
      await startWorker(own.url);
      const spec = expectimaxSpec(loadWeights('nneonneo'), { depth: 0, cprob: 1e-4 });
      const runner = await createRedisRunner({ url: own.url, maxQueued: 2 });
      const seeds = Array.from({ length: 12 }, (_, i) => 100 + i);
      const games = await playSeeds(runner, spec, seeds, 1);
      expect(games.map((g) => g.seed)).toEqual(seeds);
      // Twelve batches, two on the queue: a drain at once leaves at most those two to finish.
      const later = seeds.map((s) => runner.playBatch(spec, [s]).then(() => 'played', (e: Error) => e.name));
      runner.drain();
      const outcomes = await Promise.all(later);
      expect(outcomes.filter((x) => x === 'RunnerStoppedError').length).toBeGreaterThanOrEqual(seeds.length - 2);
      await runner.end();
    } finally {
      await own.stop();
    }
  });
});
