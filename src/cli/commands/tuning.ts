/** tune, resume, runs, show, export: thin wrappers over the tuner and the store. */
import { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildRunReport } from '../../report/report';
import { loadConfig } from '../../tuner/config';
import { createRun, readStoredConfig, Tuner, TuneEvent } from '../../tuner/controller';
import { exportBestWeights } from '../../tuner/export';
import { createOptimizer } from '../../tuner/optimizers';
import { defaultWorkers } from '../../pool/pool';
import { DEFAULT_DB, RunBusyError, Store } from '../../store/store';
import { EXIT_BUSY, EXIT_FAILURE, EXIT_INTERRUPTED } from '../errors';
import { table } from '../format';
import { parseIntegerOption } from '../options';
import { createProgress, Progress } from '../progress';

const parseWorkers = parseIntegerOption('--workers', 1, 256);
const parseRunId = parseIntegerOption('<run>', 1);

function fmt(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits);
}

/** Runs (or resumes) a tune in the foreground with progress, events and Ctrl-C handling. */
async function driveRun(store: Store, runId: number, resumed: boolean, workers: number, json: boolean): Promise<void> {
  const run = store.requireRun(runId);
  const { config } = readStoredConfig(run.config);
  let progress: Progress | null = null;
  let progressKey = '';
  const onEvent = (e: TuneEvent) => {
    if (json) {
      console.log(JSON.stringify(e));
      return;
    }
    if (e.event === 'generation-finished') {
      progress?.stop();
      progress = null;
      progressKey = '';
      console.log(
        `generation ${e.generation}: best ${fmt(e.best)}  mean ${fmt(e.mean)}  stdev ${fmt(e.stdev)}  sigma ${fmt(e.stepSize, 3)}  games ${e.games}  ${e.seconds.toFixed(1)} s`,
      );
    } else if (e.event === 'validation-finished') {
      progress?.stop();
      progress = null;
      for (const f of e.finalists) console.log(`finalist candidate ${f.candidate}: fitness ${fmt(f.fitness)}  validation ${fmt(f.validation)}`);
    }
  };
  const tuner = new Tuner(store, runId, {
    workers,
    onEvent,
    onProgress: (p) => {
      const key = `${p.phase}:${p.generation}`;
      if (key !== progressKey) {
        progress?.stop();
        const label = p.phase === 'fitness' ? `gen ${p.generation + 1}/${config.optimizer.generations}` : 'validation';
        progress = createProgress(label, p.total, `${label} [{bar}] {value}/{total} games | best so far {best} | ETA {eta_formatted}`, { best: fmt(p.bestSoFar) });
        progressKey = key;
      }
      progress?.update(p.done, { best: fmt(p.bestSoFar) });
    },
  });
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT_INTERRUPTED); // a second Ctrl-C: leave now (SQLite keeps what was committed)
    tuner.stop();
    console.error(`\ntune2048: stopping: waiting for ${tuner.inFlight()} running batch(es) to finish and be stored (Ctrl-C again to quit at once)`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const outcome = await tuner.run(resumed);
    (progress as Progress | null)?.stop();
    if (outcome.status === 'stopped') {
      console.error(`tune2048: run ${runId} stopped; resume it with: tune2048 resume ${runId}${store.path === DEFAULT_DB ? '' : ` --db ${store.path}`}`);
      process.exitCode = EXIT_INTERRUPTED;
    } else if (outcome.status === 'failed') {
      console.error(`tune2048: run ${runId} failed: ${outcome.error}; finished games are stored, resume with: tune2048 resume ${runId}`);
      process.exitCode = EXIT_FAILURE;
    } else if (!json) {
      console.log(`run ${runId} finished: best candidate ${outcome.bestCandidate}; export it with: tune2048 export ${runId}`);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function withStore<T>(path: string, create: boolean, fn: (store: Store) => Promise<T> | T): Promise<T> {
  const store = Store.open(path, { create });
  return Promise.resolve()
    .then(() => fn(store))
    .catch((e) => {
      if (e instanceof RunBusyError) {
        console.error(`tune2048: ${e.message}`);
        process.exitCode = EXIT_BUSY;
        return undefined as T;
      }
      throw e;
    })
    .finally(() => store.close());
}

export function tuneCommand(): Command {
  return new Command('tune')
    .description('start a tuning run from a config; prints the run id first')
    .requiredOption('-c, --config <file>', 'run config (JSON), e.g. configs/quick.json')
    .option('--name <name>', 'name of the run (default: the config name)')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--workers <n>', 'worker processes (default: the config, else CPU count)', parseWorkers)
    .option('--json', 'one JSON event per line on stdout')
    .action(async (opts: { config: string; name?: string; db: string; workers?: number; json?: boolean }) => {
      const config = loadConfig(opts.config);
      await withStore(opts.db, true, async (store) => {
        const runId = createRun(store, config, opts.name);
        if (!opts.json) console.log(`run ${runId}`);
        await driveRun(store, runId, false, opts.workers ?? config.workers ?? defaultWorkers(), !!opts.json);
      });
    });
}

export function resumeCommand(): Command {
  return new Command('resume')
    .description('continue a run from what the database holds (only missing games are played)')
    .argument('<run>', 'run id', parseRunId)
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--workers <n>', 'worker processes (default: the config, else CPU count)', parseWorkers)
    .option('--json', 'one JSON event per line on stdout')
    .action(async (runId: number, opts: { db: string; workers?: number; json?: boolean }) => {
      await withStore(opts.db, false, async (store) => {
        const run = store.requireRun(runId);
        const { config } = readStoredConfig(run.config);
        if (run.status === 'finished') {
          console.error(`tune2048: run ${runId} is already finished; nothing to do`);
          return;
        }
        await driveRun(store, runId, true, opts.workers ?? config.workers ?? defaultWorkers(), !!opts.json);
      });
    });
}

export function runsCommand(): Command {
  return new Command('runs')
    .description('list the runs in the database')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--json', 'a JSON array on stdout')
    .action(async (opts: { db: string; json?: boolean }) => {
      await withStore(opts.db, false, (store) => {
        const runs = store.listRuns().map((r) => {
          const { config } = readStoredConfig(r.config);
          return { id: r.id, name: r.name, status: r.status, generation: r.generations, generations: config.optimizer.generations, bestFitness: r.best_fitness, gamesPlayed: r.games_played, bestCandidate: r.best_candidate, error: r.error };
        });
        if (opts.json) {
          console.log(JSON.stringify(runs));
          return;
        }
        if (runs.length === 0) {
          console.log('no runs');
          return;
        }
        const rows = [['id', 'name', 'status', 'generation', 'best fitness', 'games']];
        for (const r of runs) rows.push([String(r.id), r.name, r.status, `${r.generation}/${r.generations}`, fmt(r.bestFitness), String(r.gamesPlayed)]);
        console.log(table(rows));
      });
    });
}

export function showCommand(): Command {
  return new Command('show')
    .description('per generation: best, mean, spread, mutation scale, games, time')
    .argument('<run>', 'run id', parseRunId)
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--json', 'one JSON object on stdout')
    .action(async (runId: number, opts: { db: string; json?: boolean }) => {
      await withStore(opts.db, false, (store) => {
        const run = store.requireRun(runId);
        const optimizer = createOptimizer(readStoredConfig(run.config).config);
        const generations = store.listGenerations(runId).map((g) => ({
          generation: g.idx,
          status: g.status,
          best: g.best_fitness,
          mean: g.mean_fitness,
          stdev: g.stdev_fitness,
          stepSize: optimizer.summary(JSON.parse(g.state)).stepSize,
          games: g.games,
          seconds: g.finished_at ? (g.finished_at - g.started_at) / 1000 : null,
        }));
        const best = run.best_candidate ? store.getCandidate(run.best_candidate) : undefined;
        if (opts.json) {
          console.log(JSON.stringify({ run: { id: run.id, name: run.name, status: run.status, seed: run.seed, configHash: run.config_hash, error: run.error }, generations, best: best ? { candidate: best.id, generation: best.generation, fitness: best.fitness, validation: best.validation, params: JSON.parse(best.params) } : null }));
          return;
        }
        console.log(`run ${run.id} "${run.name}": ${run.status}${run.error ? ` (${run.error})` : ''}`);
        const rows = [['gen', 'best', 'mean', 'stdev', 'sigma', 'games', 'seconds']];
        for (const g of generations) rows.push([String(g.generation), fmt(g.best), fmt(g.mean), fmt(g.stdev), fmt(g.stepSize, 3), String(g.games), fmt(g.seconds)]);
        console.log(table(rows));
        if (best) console.log(`best: candidate ${best.id} (generation ${best.generation}), fitness ${fmt(best.fitness)}, validation ${fmt(best.validation)}\n${JSON.stringify(JSON.parse(best.params))}`);
      });
    });
}

export function exportCommand(): Command {
  return new Command('export')
    .description('write the best weights of a finished run (the solver reads them with --weights)')
    .argument('<run>', 'run id', parseRunId)
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('-o, --out <file>', 'output file (default: stdout)')
    .action(async (runId: number, opts: { db: string; out?: string }) => {
      await withStore(opts.db, false, (store) => {
        const text = JSON.stringify(exportBestWeights(store, runId), null, 2) + '\n';
        if (opts.out) {
          writeFileSync(opts.out, text);
          console.error(`wrote ${opts.out}`);
        } else {
          process.stdout.write(text);
        }
      });
    });
}


export function reportCommand(): Command {
  return new Command('report')
    .description('write a self-contained offline HTML report of a run (charts as inline SVG) and print its path')
    .argument('<run>', 'run id', parseRunId)
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('-o, --out <file>', 'output file (default: reports/run-<id>.html)')
    .action(async (runId: number, opts: { db: string; out?: string }) => {
      await withStore(opts.db, false, (store) => {
        const html = buildRunReport(store, runId);
        const out = opts.out ?? join('reports', `run-${runId}.html`);
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, html);
        console.log(out);
      });
    });
}
