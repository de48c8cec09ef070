/**
 * Which finalists the model names at each ceiling of validation.maxCorrelation, from a finished model run's
 * generations (nothing played): the best predicted point first, then each the best the model's posterior
 * does not tie to one already taken. Neighbours in a flat direction (cprob 0.0075 and 0.0081 at one rule)
 * play the same games; this shows which points a race would get instead.
 *
 *   npx tsx scripts/finalists-apart.ts model.sqlite [--run 1] [--count 3] [--ceilings 1,0.95,0.9,0.8]
 */
import { installProcessGuards } from '../src/cli/process';
import { flag } from './flag';
import { withModelRun } from './model-run';
import { figure } from '../src/util/figure';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const path = process.argv[2];
const runId = Number(flag('--run', '1'));
const count = Number(flag('--count', '3'));
const ceilings = flag('--ceilings', '1,0.95,0.9,0.8').split(',').map(Number);
if (!path || path.startsWith('--') || !(count >= 1) || ceilings.some((c) => !(c > 0 && c <= 1))) {
  console.error('usage: npx tsx scripts/finalists-apart.ts DB [--run N] [--count K] [--ceilings C,C,… (each in (0, 1])]');
  process.exit(2);
}
withModelRun(path, runId, ({ problem, history, lastState, describe }) => {
  for (const ceiling of ceilings) {
    console.log(`maxCorrelation ${ceiling}:`);
    for (const f of problem.optimizer.finalists!(history, lastState, count, ceiling)) {
      console.log(`  ${describe(f.genome)}: predicted ${figure(f.prediction.mean)} ± ${figure(1.96 * f.prediction.sd)} (${f.prediction.games} games there)`);
    }
  }
});
