/**
 * External players through Redis: the parent never sends a command line (every command Redis receives is
 * watched with MONITOR); two `tune2048 worker`s run the player registered on their own side and tune it
 * to the local run's rows; a worker without the player, or with another version of it, refuses the job
 * with a message the parent shows.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/tuner/config/config';
import { createRun, prepareRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
import { Store } from '../src/store/store';
import { ROOT, runCli, startCli, waitForOutput, type RunningCli } from './helpers/cli';
import { startRedis, type RedisServer } from './helpers/redis-server';
import { dumpRun, tempDb, writeConfig } from './helpers/runs';

const FIXTURE = join(__dirname, 'fixtures', 'players', 'fixture-player.js');
let redis: RedisServer;
let dir: string;
let cBinary: string;
const workers: RunningCli[] = [];

async function startWorker(url: string, players: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningCli> {
  const w = startCli(['worker', '--queue', url, '--concurrency', '1', '--lock-duration', '2000', ...players.flatMap((p) => ['--player', p])], { env: { ...process.env, ...env } });
  workers.push(w);
  await waitForOutput(w, 'stderr', /waiting for runs/);
  return w;
}

const config = () => ({
  seed: 9,
  space: { start: 'defaults' },
  optimizer: { population: 4, generations: 3, elitism: 1, tournament: 2 },
  fitness: { games: 6, player: { kind: 'external', name: 'expectimax-c', cwd: dir, command: [cBinary, '--depth', '1'] } },
  validation: { finalists: 2, games: 6 },
  pool: { batchGames: 2 },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tune2048-players-'));
  cBinary = join(dir, 'expectimax-c');
  execFileSync('cc', ['-O2', '-o', cBinary, join(ROOT, 'examples', 'players', 'c', 'expectimax.c'), '-lm']);
  redis = await startRedis();
});

afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await redis?.stop();
});

describe.sequential('external players on shared Redis', () => {
  it('two workers with the player registered on their side tune it to the local rows; no job carries a command line', async () => {
    const local = tempDb();
    const store = Store.open(local);
    let localId: number;
    try {
      localId = createRun(store, await prepareRun(parseConfig(config())), 'test');
      expect((await new Tuner(store, localId, { workers: 2 }).run(false)).status).toBe('finished');
    } finally {
      store.close();
    }
    // The workers register the player under its name with a command of their own (here: the same binary).
    const a = await startWorker(redis.url, [`expectimax-c=${cBinary} --depth 1`]);
    const b = await startWorker(redis.url, [`expectimax-c=${cBinary} --depth 1`]);
    // MONITOR runs on a connection of its own: the client it was made from is closed with it (left open, it
    // reconnects to the server stopped after this file and prints "[ioredis] Unhandled error event").
    const client = new IORedis(redis.url);
    const monitor = await client.monitor();
    const sent: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => sent.push(args.join(' ')));
    const db = tempDb();
    // Asynchronous, so MONITOR's lines are read while the run plays.
    const r = await startCli(['tune', '-c', writeConfig(config()), '--name', 'test', '--db', db, '--queue', redis.url]).done;
    monitor.disconnect();
    client.disconnect();
    expect(r.code, r.stderr).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(local, localId));
    expect(sent.some((line) => line.includes('"announced"') && line.includes('expectimax-c'))).toBe(true); // the jobs were watched
    expect(sent.filter((line) => line.includes(cBinary))).toEqual([]);
    a.child.kill('SIGINT');
    b.child.kill('SIGINT');
    await Promise.all([a.done, b.done]);
  });

  it('a worker without the player leaves its queue, and the run does not fail: it says which worker to start (the whole command), and one that has the player plays it to the end', async () => {
    const own = await startRedis();
    try {
      const lacking = await startWorker(own.url, [`fixture=${process.execPath} ${FIXTURE} good`]);
      const db = tempDb();
      const url = own.url.replace(/[/.]/g, '\\$&');
      const left = waitForOutput(lacking, 'stderr', /left queue \S+: no player "expectimax-c" is registered with this worker \(it runs fixture\); its batches are left to a worker that can play them \(tune2048 worker --queue \S+ --player expectimax-c=COMMAND\)/);
      const tune = startCli(['tune', '-c', writeConfig(config()), '--db', db, '--queue', own.url], { env: { ...process.env, TUNE2048_QUEUE_NOTICE_MS: '2000' } });
      const told = waitForOutput(tune, 'stderr', new RegExp(`no worker has taken a batch for \\d+ s .*start one on any machine that reaches Redis: tune2048 worker --queue ${url} --player expectimax-c=COMMAND`));
      await left;
      await told;
      await startWorker(own.url, [`expectimax-c=${cBinary} --depth 1`]);
      const r = await tune.done;
      expect(r.code, r.stderr).toBe(0);
      // Handed back without spending an attempt: no batch failed.
      expect(r.stderr).not.toMatch(/failed/);
    } finally {
      await own.stop();
    }
  });

  it('a worker whose program announces another version hands the job back, naming both, and leaves the queue to one with the run\'s program', async () => {
    const own = await startRedis();
    try {
      const other = await startWorker(own.url, [`fixture=${process.execPath} ${FIXTURE} good`], { FIXTURE_VERSION: '2' });
      const fixtureConfig = { ...config(), fitness: { games: 4, player: { kind: 'external', name: 'fixture', command: [process.execPath, FIXTURE, 'good'] } } };
      const left = waitForOutput(other, 'stderr', /left queue \S+: its player fixture now announces version 2 with parameters bias \(hash [0-9a-f]{16}\), not the version 1 it was set up with/);
      const tune = startCli(['tune', '-c', writeConfig(fixtureConfig), '--db', tempDb(), '--queue', own.url]);
      await left;
      await startWorker(own.url, [`fixture=${process.execPath} ${FIXTURE} good`]);
      const r = await tune.done;
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await own.stop();
    }
  });

  it('a bad registration stops the worker at start with one line', () => {
    const r = runCli(['worker', '--queue', redis.url, '--player', 'ghost=/nonexistent/ghost']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('tune2048: player ghost was not found (/nonexistent/ghost)');
    const twice = runCli(['worker', '--queue', redis.url, '--player', `fixture=${process.execPath} ${FIXTURE}`, '--player', `fixture=${process.execPath} ${FIXTURE}`]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/--player fixture is given twice/);
  });
});
