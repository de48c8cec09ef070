/**
 * Does the model tell the truth? For every run of a model-based optimizer (surrogate) on the synthetic
 * player in a database (e.g. a race's): the model's predicted mean at its last point, with its 95 %
 * interval, against the landscape's true mean there (the synthetic player knows it).
 *
 *   npx tsx scripts/model-truth.ts db/race-synthetic.sqlite
 */
import { syntheticMean } from '../src/player/synthetic';
import { Store } from '../src/store/store';
import { loadRunProblem } from '../src/tuner/run-problem';

const path = process.argv[2];
if (!path) {
  console.error('usage: npx tsx scripts/model-truth.ts DB');
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
    const gens = store.listGenerations(r.id).filter((g) => g.status === 'done');
    const last = gens[gens.length - 1];
    const predicted = last ? optimizer.summary(last.state).model?.predicted : undefined;
    if (!last || !predicted) continue;
    const point = store.getCandidates(r.id, last.idx).find((c) => c.origin === 'mean')!;
    const truth = syntheticMean(space.toWeights(point.genome), landscape);
    const hit = Math.abs(predicted.mean - truth) <= 1.96 * predicted.se;
    inside += hit ? 1 : 0;
    total++;
    const games = gens.reduce((s, g) => s + g.games, 0);
    console.log(`| ${r.id} | ${r.name} | ${games} | ${predicted.mean.toFixed(0)} ± ${(1.96 * predicted.se).toFixed(0)} | ${truth.toFixed(0)} | ${hit ? 'yes' : 'no'} | ${predicted.misfit ? 'yes' : 'no'} |`);
  }
  console.log(`\n${inside} of ${total} intervals hold the true mean`);
} finally {
  store.close();
}
