/**
 * Worker-pool scaling: games per second with 1 and with 2 workers on the same
 * batches (nneonneo weights, depth 1), median of several passes, in one run so
 * the ratio is fair on a shared machine.
 *
 *   npx tsx scripts/bench-pool.ts [--games 400] [--batch 25] [--passes 3]
 */
import { parseArgs } from 'node:util';
import { loadWeights } from '../src/heuristic/weights';
import { createPool } from '../src/pool/pool';
import type { BatchResult, BatchTask } from '../src/pool/protocol';
import { median } from '../src/util/stats';

const { values } = parseArgs({ options: { games: { type: 'string', default: '400' }, batch: { type: 'string', default: '25' }, passes: { type: 'string', default: '3' } } });
const games = Number(values.games);
const batch = Number(values.batch);
const passes = Number(values.passes);
const weights = loadWeights('nneonneo');

async function gamesPerSecond(workers: number, seedBase: number): Promise<number> {
  const pool = createPool<BatchTask, BatchResult>({ workers });
  const task = (first: number, n: number): BatchTask => ({ weights, search: { depth: 1, cprob: 1e-4 }, seeds: Array.from({ length: n }, (_, i) => first + i) });
  await Promise.all(Array.from({ length: workers }, (_, w) => pool.run(task(10_000_000 + w * 100, 4)))); // warm-up: start and JIT every worker
  const t0 = performance.now();
  const jobs: Promise<BatchResult>[] = [];
  for (let i = 0; i < games; i += batch) jobs.push(pool.run(task(seedBase + i, Math.min(batch, games - i))));
  await Promise.all(jobs);
  const seconds = (performance.now() - t0) / 1000;
  await pool.end();
  return games / seconds;
}

(async () => {
  const one: number[] = [];
  const two: number[] = [];
  for (let p = 0; p < passes; p++) {
    one.push(await gamesPerSecond(1, p * 100_000));
    two.push(await gamesPerSecond(2, p * 100_000));
    console.error(`pass ${p + 1}: 1 worker ${one[p].toFixed(1)} games/s, 2 workers ${two[p].toFixed(1)} games/s`);
  }
  const m1 = median(one);
  const m2 = median(two);
  console.log(JSON.stringify({ games, batch, passes, oneWorker: m1, twoWorkers: m2, speedup: m2 / m1, perPassSpeedups: two.map((t, i) => t / one[i]) }));
})();
