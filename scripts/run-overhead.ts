/**
 * Runs a tuning config into a fresh temporary database and reports how much of
 * the wall time was NOT game play: overhead = 1 − Σ(game ms) / (workers × wall).
 * That share holds planning, IPC, SQLite writes, the optimizer, table building
 * and workers idling at generation barriers.
 *
 *   npx tsx scripts/run-overhead.ts [--config configs/default.json] [--workers 2]
 */
import { installProcessGuards } from '../src/cli/process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Store } from '../src/store/store';
import { loadConfig } from '../src/tuner/config/config';
import { createRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({ options: { config: { type: 'string', default: 'configs/default.json' }, workers: { type: 'string', default: '2' } } });
const workers = Number(values.workers);

(async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'tune2048-overhead-')), 'run.sqlite');
  const store = Store.open(db);
  const runId = createRun(store, loadConfig(values.config as string));
  const t0 = performance.now();
  const outcome = await new Tuner(store, runId, {
    workers,
    onEvent: (e) => {
      if (e.event === 'generation-finished') console.error(`generation ${e.generation}: best ${e.best.toFixed(0)} mean ${e.mean.toFixed(0)} (${e.seconds.toFixed(1)} s)`);
    },
  }).run(false);
  const wallMs = performance.now() - t0;
  const games = store.runGames(runId);
  const row = { games: games.length, ms: games.reduce((s, g) => s + g.ms, 0) };
  const best = store.getCandidate(store.requireRun(runId).bestCandidate ?? -1);
  const start = store.getCandidates(runId, 0).find((c) => c.origin === 'start') ?? { fitness: null };
  store.close();
  console.log(
    JSON.stringify({
      config: values.config,
      status: outcome.status,
      workers,
      wallSeconds: wallMs / 1000,
      games: row.games,
      gameSeconds: row.ms / 1000,
      overhead: 1 - row.ms / (workers * wallMs),
      startFitness: start.fitness,
      bestFitness: best?.fitness,
      bestValidation: best?.validation,
      db,
    }),
  );
})();
