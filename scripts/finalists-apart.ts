/**
 * Which finalists the model names at each ceiling of validation.maxCorrelation, from a finished model run's
 * generations (nothing played): the best predicted point first, then each the best the model's posterior
 * does not tie to one already taken. Neighbours in a flat direction (cprob 0.0075 and 0.0081 at one rule)
 * play the same games; this shows which points a race would get instead.
 *
 *   npx tsx scripts/finalists-apart.ts model.sqlite [--run 1] [--count 3] [--ceilings 1,0.95,0.9,0.8]
 */
import { installProcessGuards } from '../src/cli/process';
import { Store } from '../src/store/store';
import { loadRunProblem } from '../src/tuner/run-problem';
import { evaluatedOf, generationState } from '../src/tuner/tuner';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const path = process.argv[2];
const runId = Number(flag('--run', '1'));
const count = Number(flag('--count', '3'));
const ceilings = flag('--ceilings', '1,0.95,0.9,0.8').split(',').map(Number);
if (!path || path.startsWith('--') || !(count >= 1) || ceilings.some((c) => !(c > 0 && c <= 1))) {
  console.error('usage: npx tsx scripts/finalists-apart.ts DB [--run N] [--count K] [--ceilings C,C,… (each in (0, 1])]');
  process.exit(2);
}
const store = Store.open(path, { readonly: true });
try {
  const problem = loadRunProblem(store, runId);
  const { optimizer, config } = problem;
  if (!optimizer.finalists) throw new Error(`run ${runId} in ${path} is not a model run (optimizer ${config.optimizer.kind}): its finalists are its last generation's best`);
  const generations = store.listGenerations(runId).filter((g) => g.status === 'done');
  if (generations.length === 0) throw new Error(`run ${runId} in ${path} has no finished generation`);
  const history = generations.flatMap((g) => evaluatedOf(config, generationState(store, runId, g)));
  const paramsOf = new Map(history.map((c) => [JSON.stringify(c.genome), store.getCandidate(c.id)!.params]));
  const last = generations[generations.length - 1].state;
  const round = (v: number) => (Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : Number(v.toPrecision(3)));
  for (const ceiling of ceilings) {
    console.log(`maxCorrelation ${ceiling}:`);
    for (const f of optimizer.finalists(history, last, count, ceiling)) {
      const params = Object.entries(paramsOf.get(JSON.stringify(f.genome)) ?? {}).map(([k, v]) => `${k} ${round(v as number)}`).join(', ');
      console.log(`  ${params}: predicted ${round(f.prediction.mean)} ± ${round(1.96 * f.prediction.sd)} (${f.prediction.games} games there)`);
    }
  }
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
} finally {
  store.close();
}
