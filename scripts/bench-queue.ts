/**
 * The Redis game runner against the local pool, same machine, same run:
 * games per second with two game processes either way (local: a 2-worker
 * pool; Redis: one `tune2048 worker --concurrency 2` on a redis-server on
 * loopback), passes interleaved, medians. Then the per-job overhead: jobs of
 * one depth-0 game played one at a time, Redis round trip minus local.
 *
 *   npm run bench:queue -- [--depths 1,2] [--games 200] [--batch 5] [--passes 3] [--jobs 200]
 */
import { installProcessGuards } from '../src/cli/process';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadWeights } from '../src/heuristic/weights';
import { openRunner, playSeeds, type GameRunner } from '../src/runner/runner';
import { expectimaxSpec } from '../src/player/spec';
import { median } from '../src/util/stats';
import { startRedis } from '../test/helpers/redis-server';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({
  options: {
    depths: { type: 'string', default: '1,2' },
    games: { type: 'string', default: '200' },
    batch: { type: 'string', default: '5' },
    passes: { type: 'string', default: '3' },
    jobs: { type: 'string', default: '200' },
  },
});
const depths = values.depths.split(',').map(Number);
const games = Number(values.games);
const batch = Number(values.batch);
const passes = Number(values.passes);
const jobs = Number(values.jobs);
const weights = loadWeights('nneonneo');

async function rate(runner: GameRunner, depth: number, seedBase: number): Promise<number> {
  const spec = expectimaxSpec(weights, { depth, cprob: 1e-4 });
  await playSeeds(runner, spec, [1, 2, 3, 4], 1); // warm-up: every game process started and compiled
  const seeds = Array.from({ length: games }, (_, i) => seedBase + i);
  const t0 = performance.now();
  await playSeeds(runner, spec, seeds, batch);
  return games / ((performance.now() - t0) / 1000);
}

/** Mean ms of one job of one depth-0 game, played one after the other (latency, not throughput). */
async function roundTrip(runner: GameRunner): Promise<number> {
  const spec = expectimaxSpec(weights, { depth: 0, cprob: 1e-4 });
  await runner.playBatch(spec, [1]);
  const t0 = performance.now();
  for (let i = 0; i < jobs; i++) await runner.playBatch(spec, [1000 + (i % 10)]);
  return (performance.now() - t0) / jobs;
}

(async () => {
  const redis = await startRedis();
  const worker = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'src', 'cli', 'main.ts'), 'worker', '--queue', redis.url, '--concurrency', '2'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve) => worker.stderr!.on('data', (d) => /waiting for runs/.test(String(d)) && resolve()));
  const local = await openRunner({ workers: 2 });
  const remote = await openRunner({ workers: 2, queue: redis.url });
  try {
    const results: Record<string, unknown> = {};
    for (const depth of depths) {
      const l: number[] = [];
      const r: number[] = [];
      for (let p = 0; p < passes; p++) {
        const seedBase = 100_000 * (p + 1);
        // Interleaved, alternating which goes first, so drift on a shared machine hits both alike.
        if (p % 2 === 0) {
          l.push(await rate(local, depth, seedBase));
          r.push(await rate(remote, depth, seedBase));
        } else {
          r.push(await rate(remote, depth, seedBase));
          l.push(await rate(local, depth, seedBase));
        }
        console.error(`depth ${depth} pass ${p + 1}: local ${l[p].toFixed(2)} games/s, Redis ${r[p].toFixed(2)} games/s`);
      }
      results[`depth${depth}`] = { local: median(l), redis: median(r), ratio: median(r) / median(l), perPassRatios: r.map((x, i) => x / l[i]) };
    }
    const lt: number[] = [];
    const rt: number[] = [];
    for (let p = 0; p < passes; p++) {
      lt.push(await roundTrip(local));
      rt.push(await roundTrip(remote));
    }
    results.jobOverheadMs = { local: median(lt), redis: median(rt), extraPerJob: median(rt) - median(lt) };
    console.log(JSON.stringify({ games, batch, passes, jobs, ...results }));
  } finally {
    await Promise.allSettled([local.end(), remote.end()]);
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    await redis.stop();
  }
})();
