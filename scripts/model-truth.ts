/**
 * Does the model tell the truth? For every run of a model-based optimizer (surrogate) on the synthetic
 * player in a database (e.g. a race's): the model's predicted mean at its last point, with its 95 %
 * interval, against the landscape's true mean there (the synthetic player knows it).
 *
 * At the last generation, or at the last generation within each of `--at` game counts.
 *
 *   npx tsx scripts/model-truth.ts db/race-synthetic.sqlite [--at 3000,10000,30000]
 */
import { installProcessGuards } from '../src/cli/process';
import { syntheticMean } from '../src/player/synthetic';
import { Store } from '../src/store/store';
import { loadRunProblem } from '../src/tuner/run/run-problem';
import { weightSpace } from '../src/tuner/space/space';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const path = process.argv[2];
const atFlag = process.argv.indexOf('--at');
const marks = atFlag > 0 ? process.argv[atFlag + 1].split(',').map(Number) : [Infinity];
if (!path || marks.some((m) => !(m > 0))) {
  console.error('usage: npx tsx scripts/model-truth.ts DB [--at GAMES,GAMES,…]');
  process.exit(2);
}
const store = Store.open(path, { readonly: true });
try {
  console.log('| run | name | games | predicted mean ± 95 % | true mean | inside | flagged misfit |');
  console.log('|---|---|---|---|---|---|---|');
  let inside = 0;
  let total = 0;
  for (const r of store.listRuns()) {
    const { config, space, optimizer } = loadRunProblem(store, r.id);
    const landscape = config.fitness.synthetic;
    if (config.fitness.player !== 'synthetic' || !landscape) continue;
    let games = 0;
    const gens = store
      .listGenerations(r.id)
      .filter((g) => g.status === 'done')
      .map((g) => ({ g, games: (games += g.games) }));
    for (const mark of marks) {
      const within = gens.filter((x) => x.games <= mark);
      const last = within[within.length - 1];
      const predicted = last ? optimizer.summary(last.g.state).model?.predicted : undefined;
      if (!last || !predicted) continue;
      const point = store.getCandidates(r.id, last.g.idx).find((c) => c.origin === 'mean')!;
      const truth = syntheticMean(weightSpace(space).toWeights(point.genome), landscape);
      const hit = Math.abs(predicted.mean - truth) <= 1.96 * predicted.se;
      inside += hit ? 1 : 0;
      total++;
      console.log(`| ${r.id} | ${r.name} | ${last.games} | ${predicted.mean.toFixed(0)} ± ${(1.96 * predicted.se).toFixed(0)} | ${truth.toFixed(0)} | ${hit ? 'yes' : 'no'} | ${predicted.misfit ? 'yes' : 'no'} |`);
    }
  }
  console.log(`\n${inside} of ${total} intervals hold the true mean`);
} finally {
  store.close();
}
