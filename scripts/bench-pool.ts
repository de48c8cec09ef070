/**
 * Worker-pool throughput: games per second through the tuner's pool (nneonneo
 * weights), median of several passes, in one run so ratios are fair on a
 * shared machine. Also the largest resident size of a worker.
 *
 *   npm run bench:pool -- [--games 400] [--batch 25] [--passes 3] [--depth 1]
 *        [--compare-js]   also time the TypeScript search of before (the same games), interleaved
 *   Default: 1 worker against 2 workers (scaling).
 */
import { installProcessGuards } from '../src/cli/process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadWeights } from '../src/heuristic/weights';
import { expectimaxSpec } from '../src/player/spec';
import { createPool } from '../src/runner/farm';
import type { BatchResult, BatchTask } from '../src/runner/protocol';
import { median } from '../src/util/stats';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '400' },
    batch: { type: 'string', default: '25' },
    passes: { type: 'string', default: '3' },
    depth: { type: 'string', default: '1' },
    'compare-js': { type: 'boolean', default: false },
  },
});
const games = Number(values.games);
const batch = Number(values.batch);
const passes = Number(values.passes);
const depth = Number(values.depth);
const weights = loadWeights('nneonneo');
const JS_WORKER = join(__dirname, '..', 'test', 'fixtures', 'workers', 'js-search.ts');

function rssMiB(pid: number): number {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

async function gamesPerSecond(workers: number, seedBase: number, workerPath?: string): Promise<{ rate: number; peakRss: number }> {
  const pool = createPool<BatchTask, BatchResult>({ workers, workerPath });
  const task = (first: number, n: number): BatchTask => ({ spec: expectimaxSpec(weights, { depth, cprob: 1e-4 }), seeds: Array.from({ length: n }, (_, i) => first + i) });
  await Promise.all(Array.from({ length: workers }, (_, w) => pool.run(task(10_000_000 + w * 100, 2)))); // warm-up: start and JIT every worker
  const t0 = performance.now();
  const jobs: Promise<BatchResult>[] = [];
  for (let i = 0; i < games; i += batch) jobs.push(pool.run(task(seedBase + i, Math.min(batch, games - i))));
  await Promise.all(jobs);
  const seconds = (performance.now() - t0) / 1000;
  const peakRss = Math.max(...pool.children().map((c) => rssMiB(c.pid!)));
  await pool.end();
  return { rate: games / seconds, peakRss };
}

(async () => {
  const [labelA, labelB] = values['compare-js'] ? ['TypeScript search, 2 workers', 'WebAssembly search, 2 workers'] : ['1 worker', '2 workers'];
  const a: number[] = [];
  const b: number[] = [];
  let peak = 0;
  for (let p = 0; p < passes; p++) {
    const first = values['compare-js'] ? await gamesPerSecond(2, p * 100_000, JS_WORKER) : await gamesPerSecond(1, p * 100_000);
    const second = await gamesPerSecond(2, p * 100_000);
    a.push(first.rate);
    b.push(second.rate);
    peak = Math.max(peak, second.peakRss);
    console.error(`pass ${p + 1}: ${labelA} ${first.rate.toFixed(2)} games/s, ${labelB} ${second.rate.toFixed(2)} games/s`);
  }
  const ma = median(a);
  const mb = median(b);
  console.log(JSON.stringify({ depth, games, batch, passes, [labelA]: ma, [labelB]: mb, ratio: mb / ma, perPassRatios: b.map((x, i) => x / a[i]), peakWorkerRssMiB: peak }));
})();
