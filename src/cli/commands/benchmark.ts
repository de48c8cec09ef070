import { Command } from 'commander';
import { defaultWorkers } from '../../runner/runner';
import { lineChart } from '../../report/svg';
import { Store } from '../../store/store';
import { configOrigin, loadConfig } from '../../tuner/config/config';
import { prepareRun } from '../../tuner/run/run-problem';
import { DEFAULT_CONTENDERS, OPTIMIZER_KINDS, parseContender, runBenchmark, benchmarkConfig, BenchmarkControl, summarizeFrontBenchmark, summarizeBenchmark, syntheticTrueFront } from '../../tuner/benchmark/optimizer-benchmark';
import { hasFront } from '../../tuner/objective/fitness';
import { cliName, shellWord } from '../../util/command-hint';
import { median } from '../../util/stats';
import { EXIT_INTERRUPTED } from '../exit-codes';
import { InputError, StopRequestedError } from '../../util/errors';
import { handleInterrupts } from '../interrupt';
import { parseIntegerOption, parseListOption, parseWorkers } from '../options';
import { checkOutputPath, writeOutputFile } from '../output';
import { createProgress } from '../progress';
import { checkQueue, queueOption } from '../runner-options';
import { HOLDOUT_MAX } from '../../tuner/run/seeds';


export function command(): Command {
  return new Command('benchmark')
    .description('optimizers (GA, CMA-ES, random, regression, surrogate, model; NSGA-II on a two-objective problem) on one problem at equal budgets of games; validated fitness against games played, or the validated fronts\' hypervolume')
    .requiredOption('-c, --config <file>', 'the tuning problem (space, fitness), a file or a shipped config\'s name; its optimizer section is used for its own kind')
    .option('--optimizers <list>', `contenders: ${OPTIMIZER_KINDS.join(', ')}, each optionally with "+racing" (e.g. ga,ga+racing); default ${DEFAULT_CONTENDERS.join(',')}, or nsga2,random for a problem with fitness.cost`, parseListOption('--optimizers', (k) => {
      if (!parseContender(k)) throw new InputError(`--optimizers: unknown contender "${k}" (known: ${OPTIMIZER_KINDS.join(', ')}, each optionally followed by +racing)`);
      return k;
    }))
    .option('--network <file>', "a network config's network (e.g. front-network): this file instead of the one the config names")
    .option('--seeds <list>', 'run seeds per contender', parseListOption('--seeds', parseIntegerOption('--seeds', 0, 2 ** 32 - 1)), [1, 2, 3])
    .option('--budget <games>', 'fitness games per run', parseIntegerOption('--budget', 1), 12000)
    .option('--checkpoints <n>', 'checkpoints per run', parseIntegerOption('--checkpoints', 1, 100), 6)
    .option('--holdout <games>', 'held-out games per checkpoint (the same seeds for everyone)', parseIntegerOption('--holdout', 1, HOLDOUT_MAX), 300)
    .option('--db <file>', 'SQLite database for the benchmark runs (named race.sqlite, as before the command was renamed)', 'db/race.sqlite')
    .option('--workers <n>', 'worker processes', parseWorkers)
    .addOption(queueOption())
    .option('--svg <file>', 'write the figure (SVG) here')
    .option('--force', 'overwrite --svg when it exists')
    .option('--json', 'one JSON object on stdout')
    .action(async (opts: { config: string; network?: string; optimizers?: string[]; seeds: number[]; budget: number; checkpoints: number; holdout: number; db: string; workers?: number; queue?: string; svg?: string; json?: boolean; force?: boolean }) => {
      const problem = loadConfig(opts.config, { network: opts.network });
      const fronts = hasFront(problem);
      const optimizers = opts.optimizers ?? (fronts ? ['nsga2', 'random'] : [...DEFAULT_CONTENDERS]);
      // Every contender's config is checked before anything is created.
      for (const kind of optimizers) benchmarkConfig(problem, kind, opts.seeds[0], opts.budget);
      if (fronts && opts.svg) throw new InputError('--svg draws the held-out curve of one objective; this problem has two (fitness.cost): its fronts are compared by hypervolume in the table');
      const { config: _problem, ...prepared } = await prepareRun(problem, configOrigin(opts.config));
      if (opts.svg) checkOutputPath(opts.svg, { option: '--svg', force: opts.force });
      await checkQueue(opts.queue ?? problem.pool.queue);
      const store = Store.open(opts.db);
      const progress = createProgress('benchmark', 1, 'benchmark [{bar}] {value}/{total} games (fitness, then holdout) | elapsed {duration_formatted} | ETA {eta_formatted}');
      // Ctrl-C stops the benchmark as it stops a tune: what finished is stored, and the same command goes on from there.
      const again = `${cliName()} ${process.argv.slice(2).map(shellWord).join(' ')}`;
      const control = new BenchmarkControl();
      const interrupts = handleInterrupts(control, {
        stopping: 'stopping the benchmark',
        stoppedAtOnce: () => {
          progress.stop();
          return `benchmark stopped at once; go on with: ${again}`;
        },
      });
      try {
        const runs = await runBenchmark(store, {
          control,
          problem,
          prepared,
          kinds: optimizers,
          seeds: opts.seeds,
          budget: opts.budget,
          checkpoints: opts.checkpoints,
          holdoutGames: opts.holdout,
          workers: opts.workers ?? problem.workers ?? defaultWorkers(),
          queue: opts.queue,
          onLog: (l) => console.error(`\n${l}`),
          onProgress: (done, total) => {
            progress.setTotal(total);
            progress.update(done);
          },
        });
        progress.stop();
        if (fronts) {
          const summary = summarizeFrontBenchmark(runs, syntheticTrueFront(problem) ?? undefined);
          if (opts.json) {
            console.log(JSON.stringify({ budget: opts.budget, seeds: opts.seeds, summary, runs }));
            return;
          }
          const range = (x: { median: number; min: number; max: number }, f: (v: number) => string) => `${f(x.median)} (${f(x.min)}–${f(x.max)})`;
          const truth = summary.every((x) => x.trueShare);
          console.log(`| optimizer | runs | front hypervolume, held-out: median (min–max) |${truth ? ' true hypervolume over the true front\'s |' : ''} validated points | seconds per run |`);
          console.log(`|---|---|---|${truth ? '---|' : ''}---|---|`);
          for (const x of summary) console.log(`| ${x.kind} | ${x.runs} | ${range(x.hypervolume, (v) => v.toFixed(0))} |${truth ? ` ${range(x.trueShare!, (v) => v.toFixed(3))} |` : ''} ${range(x.points, String)} | ${x.seconds.toFixed(0)} |`);
          console.log('\n(hypervolume: the area the front dominates in (strength, −ln(1 + positions searched per move)) above strength 0 and the largest cost of any front here; larger is better)');
          return;
        }
        const summary = summarizeBenchmark(runs);
        if (opts.svg) {
          const truth = summary.every((s) => s.truthCurve);
          const svg = lineChart(
            summary.map((s) => {
              const curve = truth ? s.truthCurve! : s.curve;
              return { name: s.kind, points: curve.map((c) => [c.games, c.mean] as const), band: curve.map((c) => [c.games, c.min, c.max] as const) };
            }),
            {
              title: truth
                ? `True mean of the recommendation on the synthetic landscape (mean, min–max of ${opts.seeds.length} seeds)`
                : `Held-out ${problem.fitness.objective} of the recommendation (mean, min–max of ${opts.seeds.length} seeds)`,
              xLabel: 'fitness games played',
              yLabel: problem.fitness.objective,
            },
          );
          writeOutputFile(opts.svg, svg, { option: '--svg', force: opts.force });
          console.error(`wrote ${opts.svg}`);
        }
        if (opts.json) {
          console.log(JSON.stringify({ budget: opts.budget, holdout: opts.holdout, seeds: opts.seeds, summary, runs }));
          return;
        }
        console.log(`| optimizer | runs | held-out at end: mean (min–max) | validated best (run's own validation) | seconds per run |`);
        console.log(`|---|---|---|---|---|`);
        for (const s of summary) {
          console.log(`| ${s.kind} | ${s.runs} | ${s.finalMean.toFixed(0)} (${s.finalMin.toFixed(0)}–${s.finalMax.toFixed(0)}) | ${s.validatedMean.toFixed(0)} | ${s.seconds.toFixed(0)} |`);
        }
        console.log('');
        console.log(`| games played | ${summary.map((s) => s.kind).join(' | ')} |`);
        console.log(`|---|${summary.map(() => '---').join('|')}|`);
        const rows = Math.max(...summary.map((s) => s.curve.length));
        for (let i = 0; i < rows; i++) {
          const g = summary.find((s) => s.curve[i])?.curve[i].games ?? 0;
          console.log(`| ~${g.toFixed(0)} | ${summary.map((s) => (s.curve[i] ? `${s.curve[i].mean.toFixed(0)} (${s.curve[i].min.toFixed(0)}–${s.curve[i].max.toFixed(0)})` : '-')).join(' | ')} |`);
        }
        if (summary.every((s) => s.within2)) {
          // The synthetic player knows the truth: the landscape's mean at each recommendation, no holdout noise.
          const peak = problem.fitness.synthetic!.peak;
          console.log('');
          console.log(`| optimizer | true mean at the end: mean (min–max) | runs within 2 % of the peak (${(0.98 * peak).toFixed(0)}) to the end | games after which they stayed: median (each) |`);
          console.log('|---|---|---|---|');
          for (const s of summary) {
            const end = s.truthCurve![s.truthCurve!.length - 1];
            const held = s.within2!.filter((g): g is number => g !== null);
            const each = s.within2!.map((g) => (g === null ? 'never' : String(g))).join(', ');
            console.log(`| ${s.kind} | ${end.mean.toFixed(0)} (${end.min.toFixed(0)}–${end.max.toFixed(0)}) | ${held.length} of ${s.runs} | ${held.length > s.runs / 2 ? median(s.within2!.map((g) => g ?? Infinity)).toFixed(0) : 'never'} (${each}) |`);
          }
        }
        for (const r of runs) if (r.note) console.log(`\nrun ${r.runId} (${r.kind}, seed ${r.seed}): ${r.points.length} of ${opts.checkpoints} checkpoints: ${r.note}`);
      } catch (e) {
        if (!(e instanceof StopRequestedError)) throw e;
        progress.stop();
        if (interrupts.pipeClosed()) return;
        console.error(`tune2048: benchmark stopped; what finished is stored; go on with: ${again}`);
        process.exitCode = EXIT_INTERRUPTED;
      } finally {
        interrupts.uninstall();
        progress.stop();
        store.close();
      }
    });
}
