import { Command } from 'commander';
import { loadWeights } from '../../heuristic/weights';
import { defaultWorkers } from '../../pool/pool';
import { compareWeights, Sweep } from '../../solver/compare';
import { Store } from '../../store/store';
import type { GameSummary } from '../../solver/summary';
import { InputError } from '../errors';
import { percent, table } from '../format';
import { parseCprob, parseDepthOption, parseIntegerOption, parseListOption, parseSeed } from '../options';
import { createProgress } from '../progress';

interface StoreOptions {
  db?: string;
  run?: number;
}

function checkStoreOptions(opts: StoreOptions): void {
  if (opts.run !== undefined && opts.db === undefined) throw new InputError('--run needs --db (the database that holds the run)');
}

/** With --db, keeps a comparison or sweep (tied to --run, if given) for the run's report. */
function storeResult(opts: StoreOptions, result: unknown): void {
  if (!opts.db) return;
  const store = Store.open(opts.db);
  try {
    const id = store.insertComparison(opts.run ?? null, result);
    console.error(`stored as comparison ${id} in ${opts.db}${opts.run ? ` (run ${opts.run})` : ''}`);
  } finally {
    store.close();
  }
}

function pValue(p: number): string {
  return p < 1e-6 ? '< 1e-6' : p.toPrecision(2);
}

export function compareCommand(): Command {
  return new Command('compare')
    .description('paired comparison: every weight set plays the same seeds; means with 95% CIs and a Wilcoxon signed-rank test per pair')
    .argument('<weights...>', 'weights files or preset names (two or more)')
    .option('-n, --games <n>', 'games per contender (the same seeds for all)', parseIntegerOption('--games', 2, 1_000_000), 200)
    .option('-d, --depth <d>', 'chance layers below the root move, or "auto"', parseDepthOption, 1 as number | 'auto')
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('-s, --seed <s>', 'seed of the first game; game i uses seed s+i (use seeds not used in tuning)', parseSeed, 1_000_000)
    .option('--workers <n>', 'worker processes (default: CPU count)', parseIntegerOption('--workers', 1, 256))
    .option('--db <file>', 'also store the comparison in this database (see --run)')
    .option('--run <id>', "tie the stored comparison to a run, so the run's report shows it", parseIntegerOption('--run', 1))
    .option('--json', 'one JSON object on stdout (per-game scores included)')
    .action(async (specs: string[], opts: { games: number; depth: number | 'auto'; cprob: number; seed: number; workers?: number; db?: string; run?: number; json?: boolean }) => {
      checkStoreOptions(opts);
      if (specs.length < 2) throw new InputError('compare needs two or more weight sets (files or presets)');
      const contenders = specs.map((spec) => {
        const weights = loadWeights(spec);
        return { label: weights.name ?? spec, weights };
      });
      const progress = createProgress('games', contenders.length * opts.games);
      const result = await compareWeights(contenders, {
        games: opts.games,
        seed: opts.seed,
        depth: opts.depth,
        cprob: opts.cprob,
        workers: opts.workers ?? defaultWorkers(),
        onProgress: (done) => progress.update(done),
      });
      progress.stop();
      storeResult(opts, result);
      if (opts.json) {
        console.log(JSON.stringify(result));
        return;
      }
      console.log(`${opts.games} paired games per contender, seeds ${opts.seed}..${opts.seed + opts.games - 1}, depth ${opts.depth}, cprob ${opts.cprob}`);
      const rows = [['weights', 'mean (95% CI)', 'median', 'stdev', '2048', '4096', '8192', '16384', '32768', 'moves/game', 'ms/move']];
      for (const c of result.contenders) {
        const s = c.summary;
        rows.push([
          c.label,
          `${s.meanScore.toFixed(0)} (${c.meanCI95.low.toFixed(0)}–${c.meanCI95.high.toFixed(0)})`,
          s.medianScore.toFixed(0),
          s.stdevScore.toFixed(0),
          ...['2048', '4096', '8192', '16384', '32768'].map((t) => percent(s.reach[t])),
          s.movesPerGame.toFixed(0),
          s.msPerMove.toFixed(4),
        ]);
      }
      console.log(table(rows));
      console.log('');
      const pairRows = [['pair', 'mean difference (95% bootstrap CI)', 'relative', 'Wilcoxon z', 'p']];
      for (const p of result.pairs) {
        pairRows.push([
          `${p.a} − ${p.b}`,
          `${p.meanDiff.toFixed(0)} (${p.ci95.low.toFixed(0)}–${p.ci95.high.toFixed(0)})`,
          `${(100 * p.relative).toFixed(1)}%`,
          p.wilcoxon.z.toFixed(2),
          pValue(p.wilcoxon.p),
        ]);
      }
      console.log(table(pairRows));
    });
}

export function sweepCommand(): Command {
  return new Command('sweep')
    .description('score, tile rates and ms per move of one weight set against search depth (the same seeds at every depth)')
    .argument('<weights>', 'weights file or preset name')
    .option('--depths <list>', 'depths to play', parseListOption('--depths', parseDepthOption), [1, 2, 3] as (number | 'auto')[])
    .option('-n, --games <n>', 'games per depth', parseIntegerOption('--games', 1, 1_000_000), 100)
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('-s, --seed <s>', 'seed of the first game; game i uses seed s+i', parseSeed, 1_000_000)
    .option('--workers <n>', 'worker processes (default: CPU count)', parseIntegerOption('--workers', 1, 256))
    .option('--db <file>', 'also store the sweep in this database (see --run)')
    .option('--run <id>', "tie the stored sweep to a run, so the run's report shows it", parseIntegerOption('--run', 1))
    .option('--json', 'one JSON object on stdout')
    .action(async (spec: string, opts: { depths: (number | 'auto')[]; games: number; cprob: number; seed: number; workers?: number; db?: string; run?: number; json?: boolean }) => {
      checkStoreOptions(opts);
      const weights = loadWeights(spec);
      const label = weights.name ?? spec;
      const rows: { depth: number | 'auto'; summary: GameSummary }[] = [];
      for (const depth of opts.depths) {
        const progress = createProgress(`depth ${depth}`, opts.games);
        const r = await compareWeights([{ label, weights }], {
          games: opts.games,
          seed: opts.seed,
          depth,
          cprob: opts.cprob,
          workers: opts.workers ?? defaultWorkers(),
          onProgress: (done) => progress.update(done),
        });
        progress.stop();
        rows.push({ depth, summary: r.contenders[0].summary });
      }
      const sweep: Sweep = { kind: 'sweep', weights: label, games: opts.games, seed: opts.seed, cprob: opts.cprob, depths: rows };
      storeResult(opts, sweep);
      if (opts.json) {
        console.log(JSON.stringify(sweep));
        return;
      }
      const out = [['depth', 'mean', 'median', 'max', '2048', '4096', '8192', '16384', '32768', 'moves/game', 'ms/move']];
      for (const { depth, summary: s } of rows) {
        out.push([String(depth), s.meanScore.toFixed(0), s.medianScore.toFixed(0), String(s.maxScore), ...['2048', '4096', '8192', '16384', '32768'].map((t) => percent(s.reach[t])), s.movesPerGame.toFixed(0), s.msPerMove.toFixed(4)]);
      }
      console.log(`${label}: ${opts.games} games per depth, seeds ${opts.seed}..${opts.seed + opts.games - 1}`);
      console.log(table(out));
    });
}
