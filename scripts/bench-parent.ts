/**
 * What one parent can feed (issue 21, part 4): a real tuning run (the Tuner, its SQLite writes, the Redis
 * queue) of the synthetic player, whose games sleep `--game-ms` without using the CPU, played by
 * `tune2048 worker` processes on this machine with many game slots in all. Each slot then stands for a
 * core of a remote machine: the games/s the run reaches against the slots × 1000/game-ms it could reach
 * says whether the parent (queueing, completion events, one SQLite transaction per batch) keeps up.
 *
 *   npm run bench:parent -- [--slots 16,64,128] [--workers-per 16] [--game-ms 200] [--batch 1] [--games 3000]
 *
 * Runs the built CLI (dist/) for the workers: `npm run bench:parent` builds it first.
 */
import { installProcessGuards } from '../src/cli/process';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Store } from '../src/store/store';
import { loadConfig, parseConfig } from '../src/tuner/config/config';
import { createRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
import { startRedis } from '../test/helpers/redis-server';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({
  options: {
    slots: { type: 'string', default: '16,64,128' },
    'workers-per': { type: 'string', default: '16' },
    'game-ms': { type: 'string', default: '200' },
    batch: { type: 'string', default: '1' },
    games: { type: 'string', default: '3000' },
  },
});
const slotCounts = values.slots.split(',').map(Number);
const perWorker = Number(values['workers-per']);
const gameMs = Number(values['game-ms']);
const batch = Number(values.batch);
const games = Number(values.games);
const MAIN = join(__dirname, '..', 'dist', 'cli', 'main.js');

/** Starts `tune2048 worker` processes with `slots` game slots in all; resolves once each waits for runs. */
async function startWorkers(url: string, slots: number): Promise<ChildProcess[]> {
  const workers: ChildProcess[] = [];
  for (let left = slots; left > 0; left -= perWorker) {
    const w = spawn(process.execPath, [MAIN, 'worker', '--queue', url, '--concurrency', String(Math.min(perWorker, left))], { stdio: ['ignore', 'ignore', 'pipe'] });
    workers.push(w);
    await new Promise<void>((resolve) => w.stderr!.on('data', (d) => /waiting for runs/.test(String(d)) && resolve()));
  }
  return workers;
}

(async () => {
  const redis = await startRedis();
  const base = loadConfig(join(__dirname, '..', 'configs', 'synthetic-d3.json'));
  const rows: unknown[] = [];
  try {
    for (const slots of slotCounts) {
      const workers = await startWorkers(redis.url, slots);
      try {
        // One generation of `population` candidates × `perCandidate` games, then a small validation.
        const perCandidate = Math.max(10, Math.ceil(games / 1000));
        const population = Math.max(2, Math.round(games / perCandidate));
        const config = parseConfig({
          ...base,
          optimizer: { ...base.optimizer, population, generations: 1, elitism: 1 },
          fitness: { ...base.fitness, games: perCandidate, synthetic: { ...base.fitness.synthetic, gameMs } },
          validation: { finalists: 1, games: 1 },
          pool: { batchGames: batch, retries: 0 },
        });
        const db = join(mkdtempSync(join(tmpdir(), 'tune2048-parent-')), 'run.sqlite');
        const store = Store.open(db);
        const id = createRun(store, config, 'bench-parent');
        let first: number | null = null;
        let firstDone = 0;
        let last = 0;
        let played = 0;
        const outcome = await new Tuner(store, id, {
          workers: 1,
          queue: redis.url,
          onProgress: (p) => {
            if (p.phase !== 'fitness') return;
            const now = performance.now();
            if (p.done > 0 && first === null) {
              first = now; // from the first stored batch: workers warm
              firstDone = p.done;
            }
            played = p.done;
            last = now;
          },
        }).run(false);
        store.close();
        const seconds = (last - (first ?? last)) / 1000;
        const rate = seconds > 0 ? (played - firstDone) / seconds : NaN;
        const ideal = (slots * 1000) / gameMs;
        const row = { slots, gameMs, batch, games: played, seconds, gamesPerSecond: rate, batchesPerSecond: rate / batch, ideal, share: rate / ideal, status: outcome.status };
        rows.push(row);
        console.error(`${slots} slots, games of ${gameMs} ms, batches of ${batch}: ${rate.toFixed(0)} games/s (${(100 * row.share).toFixed(0)} % of ${ideal.toFixed(0)}), ${(rate / batch).toFixed(0)} batches/s`);
      } finally {
        for (const w of workers) w.kill('SIGTERM');
        await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))));
      }
    }
    console.log(JSON.stringify(rows));
  } finally {
    await redis.stop();
  }
})();
