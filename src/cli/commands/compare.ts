import { Command } from 'commander';
import { loadWeights } from '../../heuristic/weights';
import { defaultWorkers } from '../../pool/pool';
import { compareWeights } from '../../solver/compare';
import { InputError } from '../errors';
import { percent, table } from '../format';
import { parseCprob, parseDepthOption, parseIntegerOption, parseSeed, parseWorkers } from '../options';
import { createProgress } from '../progress';
import { checkStoreTarget, storeResult } from '../stored-results';

function pValue(p: number): string {
  return p < 1e-6 ? '< 1e-6' : p.toPrecision(2);
}

export function command(): Command {
  return new Command('compare')
    .description('paired comparison: every weight set plays the same seeds; means with 95% CIs and a Wilcoxon signed-rank test per pair')
    .argument('<weights...>', 'weights files or preset names (two or more)')
    .option('-n, --games <n>', 'games per contender (the same seeds for all)', parseIntegerOption('--games', 2, 1_000_000), 200)
    .option('-d, --depth <d>', 'chance layers below the root move, or "auto"', parseDepthOption, 1 as number | 'auto')
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('-s, --seed <s>', 'seed of the first game; game i uses seed s+i (use seeds not used in tuning)', parseSeed, 1_000_000)
    .option('--workers <n>', 'worker processes (default: CPU count)', parseWorkers)
    .option('--db <file>', 'also store the comparison in this database (see --run)')
    .option('--run <id>', "tie the stored comparison to a run, so the run's report shows it", parseIntegerOption('--run', 1))
    .option('--json', 'one JSON object on stdout (per-game scores included)')
    .action(async (specs: string[], opts: { games: number; depth: number | 'auto'; cprob: number; seed: number; workers?: number; db?: string; run?: number; json?: boolean }) => {
      if (specs.length < 2) throw new InputError('compare needs two or more weight sets (files or presets)');
      checkStoreTarget(opts);
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

