import { hasCostCeiling } from '../../tuner/objective/cost-ceiling';
import { Command } from 'commander';
import { generationFigures, generationNoise } from '../../report/run-data';
import { FRONT_HEADERS, FRONT_NOTE, frontRows } from '../../report/front-table';
import { hasFront } from '../../tuner/objective/fitness';
import { validatedFront, type ValidatedFront } from '../../tuner/selection/front';
import { describeModel } from '../../tuner/optimizers/optimizer';
import { statusOf } from '../../store/store';
import { ceilingLines, heldOutCosts, describeFinalist, finalistResults, modelHonesty, secondSetSeeds, validationProgress } from '../../tuner/selection/validation';
import { freeOutputName, suggest } from '../../util/command-hint';
import { describeProgramChange, loadRunProblem } from '../../tuner/run/run-problem';
import { externalPlayerOf, lagOf } from '../../tuner/config/config';
import { describeStartVerdict, runStartVerdict } from '../../tuner/selection/verdict';
import { dbOption, withStore } from '../db';
import { fmt, halfWidth, percent, table } from '../format';
import { parseRunId } from '../options';
import { checkOutputPath, writeOutputFile } from '../output';
import { runCsv } from '../../report/csv';
import { validationSeeds } from '../../tuner/run/seeds';

export function command(): Command {
  return new Command('show')
    .description('per generation: best, mean, spread, step size, games, time; and the validated best')
    .argument('<run>', 'run id', parseRunId)
    .addOption(dbOption())
    .option('--json', 'one JSON object on stdout')
    .option('--csv <file>', "write the run's every game, a row each (generation, candidate, origin, purpose, seed, score, max_tile, moves, ms, nodes, then its tuned values: docs/statistics.md), to FILE (- for stdout) instead of the tables")
    .option('--force', 'let --csv overwrite an existing file')
    .action(async (runId: number, opts: { db: string; json?: boolean; csv?: string; force?: boolean }) => {
      if (opts.csv !== undefined && opts.csv !== '-') checkOutputPath(opts.csv, { option: '--csv', force: opts.force });
      await withStore(opts.db, 'read', (store) => {
        const problem = loadRunProblem(store, runId);
        if (opts.csv !== undefined) {
          const candidates = new Map<number, { origin: string; params: Record<string, number> }>();
          for (const g of store.listGenerations(runId)) for (const c of store.getCandidates(runId, g.idx)) candidates.set(c.id, { origin: c.origin, params: problem.space.playedParams(c.genome) });
          const text = runCsv(store.runGames(runId), candidates, problem.space.names);
          if (opts.csv === '-') process.stdout.write(text);
          else {
            writeOutputFile(opts.csv, text, { option: '--csv', force: opts.force });
            console.error(`wrote ${opts.csv}`);
          }
          return;
        }
        const { run, config, optimizer } = problem;
        const verdict = runStartVerdict(store, problem);
        const generations = store.listGenerations(runId).map((g) => {
          const { idx, step, ...figures } = generationFigures(g, optimizer);
          // A generation stopped part way has its games so far stored, not yet summed into it.
          if (g.status !== 'done' && figures.games === 0) figures.games = [...store.generationGames(runId, idx, 'fitness').values()].reduce((n, games) => n + games.length, 0);
          return { generation: idx, status: g.status, ...figures, ...(g.status === 'done' ? generationNoise(store, runId, idx, config.fitness) : { bestHalfWidth: null, signalShare: null }), stepSize: step };
        });
        const best = run.bestCandidate ? store.getCandidate(run.bestCandidate) : undefined;
        const front = validatedFront(store, runId, problem);
        const { status, processGone } = statusOf(run);
        const validation = validationProgress(store, problem);
        // A run whose model chose its finalists, or raced them, or confirmed its winner: each finalist's figures.
        const finalists = best && (optimizer.finalists || config.validation.race || config.validation.confirm !== undefined) ? finalistResults(store, problem) : null;
        const honesty = finalists ? modelHonesty(store, finalists, config.fitness) : null;
        if (opts.json) {
          console.log(
            JSON.stringify({
              run: { id: run.id, name: run.name, status, ...(processGone ? { processGone } : {}), seed: run.seed, configHash: run.configHash, error: run.error, validation, ...(problem.external?.changes ? { programChanges: problem.external.changes } : {}) },
              generations,
              best: best ? { candidate: best.id, generation: best.generation, fitnessInSample: best.fitness, validation: best.validation, ...(best.confirmation !== null ? { confirmation: best.confirmation } : {}), params: best.params } : null,
              // The held-out seeds every validated figure was measured on (play/compare --seeds run:N replays them).
              // In ascending order, as export's provenance lists a candidate's.
              seeds: { validation: ascending(validationSeeds(config.seed, config.validation.games)), ...(config.validation.confirm !== undefined ? { confirmation: ascending(secondSetSeeds(store, problem)) } : {}) },
              ...(finalists ? { finalists, ...(honesty ? { modelHonesty: honesty } : {}) } : {}),
              start: verdict,
              // A run within a cost ceiling: each validated candidate's cost a move on its held-out games, and whether it kept within it.
              ...(hasCostCeiling(config) ? { heldOutCosts: heldOutCosts(store, problem) } : {}),
              ...(hasFront(config) ? { front: front?.points ?? null } : {}),
            }),
          );
          return;
        }
        const validating = status === 'running' && validation ? `, validating: ${validation.done} of ${validation.total} held-out games` : '';
        console.log(`run ${run.id} "${run.name}": ${status}${processGone ? ' (its process is gone)' : ''}${validating}${run.error ? ` (${run.error})` : ''}`);
        for (const change of problem.external?.changes ?? []) console.log(describeProgramChange(externalPlayerOf(config)!.name, change));
        const lag = lagOf(config);
        if (lag !== undefined && config.optimizer.kind === 'model') {
          // A lagged run's generations are points of one candidate each: a row a round of (population + 1) points.
          const round = config.optimizer.population + 1;
          const lines = [['points', 'best point (in-sample)', 'games', 'the model at the round\'s end']];
          for (let i = 0; i < generations.length; i += round) {
            const part = generations.slice(i, i + round);
            const top = part.reduce((a, b) => ((b.best ?? -Infinity) > (a.best ?? -Infinity) ? b : a));
            const last = part.at(-1)!;
            lines.push([`${part[0].generation}–${last.generation}`, fmt(top.best), String(part.reduce((n, g) => n + g.games, 0)), last.model ? describeModel(last.model) : '-']);
          }
          console.log(table(lines));
          console.log(`(lagged: each point proposed from the points before it but the last ${lag}; a round is ${round} points)`);
        }
        const rows = [['generation', 'best (in-sample)', '± (95%)', 'mean', 'stdev', 'real spread', 'sigma', 'games', 'seconds']];
        for (const g of lag === undefined ? generations : [])
          rows.push([
            String(g.generation),
            fmt(g.best),
            g.best === null ? '-' : halfWidth(g.best, g.bestHalfWidth).trim() || '-',
            fmt(g.mean),
            fmt(g.stdev),
            g.signalShare === null ? '-' : percent(g.signalShare),
            fmt(g.stepSize, 3),
            String(g.games),
            fmt(g.seconds),
          ]);
        if (lag === undefined) console.log(table(rows));
        if (lag === undefined) console.log(
          "(± (95%): the interval of the best's fitness from its own games; a difference of two candidates has one ~1.4 times as wide. " +
            'real spread: the share of the fitness spread between candidates that is not chance; near 0% they are ranked by luck: give them more games)',
        );
        if (config.fitness.screen) console.log(`(screened: a fitness is minus the mean regret of a candidate's decisions, every ${config.fitness.screen.every}th judged by the network at depth ${config.fitness.screen.depth}; held-out figures are scores)`);
        const modelled = generations.filter((g) => g.model);
        if (finalists) {
          for (const f of finalists) console.log(describeFinalist(f, fmt, !!config.fitness.screen));
          const stopped = finalists.filter((f) => f.prediction).length - (honesty?.of ?? 0);
          if (honesty) console.log(`the model's honesty: ${honesty.within} of ${honesty.of} finalists' held-out means within the 95 % interval of the prediction and their own noise${stopped > 0 ? ` (${stopped} the held-out race stopped early left out: their means are selected low)` : ''}`);
        } else if (modelled.length > 0) {
          // The model's word on the recommendation (the last generation's own point), beside what held-out games said.
          const last = modelled[modelled.length - 1];
          const point = store.getCandidates(runId, last.generation).find((c) => c.origin === 'mean');
          const validated = point?.validation != null ? `; validated ${fmt(point.validation)} on held-out games (candidate ${point.id})` : '';
          console.log(`model, generation ${last.generation} (its point, the recommendation): ${describeModel(last.model!)}${validated}`);
        }
        if (front) console.log(describeFront(front, runId, store.path));
        if (best) {
          const confirmed = best.confirmation !== null ? `${fmt(best.confirmation)} on a second held-out set, ` : '';
          console.log(`validated best: candidate ${best.id} (generation ${best.generation}): ${confirmed}${fmt(best.validation)} on held-out games (in-sample fitness ${fmt(best.fitness)})`);
          console.log(JSON.stringify(best.params));
          if (verdict) console.log(describeStartVerdict(verdict));
          for (const line of ceilingLines(store, problem)) console.log(line);
        } else if (status === 'running') {
          console.log('no validated best yet (the run is under way)');
        } else {
          console.log(`no validated best yet: the run is ${status}${processGone ? ' (its process is gone)' : ''}; it goes on with: ${suggest(`resume ${runId}`, store.path)}`);
        }
      });
    });
}

/** The validated front as a table, cheapest first, with what the noise allows to say and how to export a point. */
export function describeFront(front: ValidatedFront, runId: number, db: string): string {
  const games = front.points[0]?.games ?? 0;
  const dominated = front.dominated > 0 ? `; ${front.dominated} more validated point${front.dominated === 1 ? '' : 's'} fell behind one of these on both` : '';
  const budget = front.maxCost !== null ? `; within the run's budget of ${front.maxCost} positions a move, fitness.maxCost` : '';
  return [
    `validated front: ${front.points.length} point${front.points.length === 1 ? '' : 's'} none of which another beats on both held-out strength and cost (${games} held-out games each${dominated}${budget})`,
    table([FRONT_HEADERS, ...frontRows(front.points)]),
    `(${FRONT_NOTE} Export a point by its number, e.g. ${suggest(['export', String(runId), '--point', '1', '--out', freeOutputName('point-1', 'json')], db)}; or the strongest within a budget with --max-cost NODES or --max-ms-per-move MS)`,
  ].join('\n');
}

const ascending = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
