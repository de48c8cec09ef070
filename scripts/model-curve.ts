/**
 * The model's strength against cost, from a model run's finished generations (nothing played): within each
 * ceiling of positions a move, the played point the model predicts strongest, its 95 % interval and its
 * measured cost. One strength model for every ceiling (the run's own fit over all its games): where the curve
 * is flat, more search buys nothing the run's games can see.
 *
 *   npx tsx scripts/model-curve.ts 1ms.sqlite [--run 1] [--max-costs 500,1000,1500,2500,4400]
 */
import { installProcessGuards } from '../src/cli/process';
import { createOptimizer } from '../src/tuner/optimizers/create';
import { flag } from './flag';
import { withModelRun } from './model-run';
import { figure } from '../src/util/figure';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const path = process.argv[2];
const runId = Number(flag('--run', '1'));
const ceilings = flag('--max-costs', '500,1000,1500,2500,4400').split(',').map(Number);
if (!path || path.startsWith('--') || ceilings.some((c) => !(c > 0))) {
  console.error('usage: npx tsx scripts/model-curve.ts DB [--run N] [--max-costs C,C,… (positions a move, each > 0)]');
  process.exit(2);
}
withModelRun(path, runId, ({ problem: { config, space, pointKey }, history, lastState, describe }) => {
  console.log(`the run's objective: ${config.fitness.screen ? "minus the decision screen's mean regret" : config.fitness.objective}\n`);
  console.log('| within (positions a move) | the model\'s strongest played point | predicted ± 95 % | its positions a move | games there |');
  console.log('|---|---|---|---|---|');
  for (const maxCost of ceilings) {
    // The same model with this ceiling: it ranks the played points its cost model keeps within it.
    const [best] = createOptimizer({ ...config, fitness: { ...config.fitness, maxCost } }, space, pointKey).finalists!(history, lastState, 1);
    const p = best?.prediction;
    console.log(best ? `| ${figure(maxCost)} | ${describe(best.genome)} | ${figure(p!.mean)} ± ${figure(1.96 * p!.sd)} | ${p!.cost === undefined ? '—' : figure(p!.cost)} | ${p!.games} |` : `| ${figure(maxCost)} | none played within it | | | |`);
  }
});
