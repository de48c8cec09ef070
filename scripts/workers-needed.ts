/**
 * How long a finished run would take on more cores: its games' recorded times, scheduled phase by phase as the
 * tuner plays them (a generation's games, each slice of the finalists' race, the second held-out set: each
 * phase waits for its slowest game), greedily on N cores (longest game first). The budget is in games, so more
 * workers (`tune2048 worker` on other machines) change only this time, never the result.
 *
 *   npx tsx scripts/workers-needed.ts DB [RUN] [--cores 2,4,8,16,32] [--widen K]
 *
 * --widen K schedules K generations' games as one phase: an estimate, from the same recorded games, of a run
 * with K times the points a generation and 1/K the generations (optimizer.population), whose games wait
 * together; what that costs the model is measured apart (docs/results/model-optimizer.md).
 *
 * The times are as recorded: on a loaded machine each game took longer than it would alone. Games are scheduled
 * singly (the tuner hands a worker `pool.batchGames` of one candidate at a time: a little coarser).
 */
import { installProcessGuards } from '../src/cli/process';
import { Store } from '../src/store/store';
import { loadRunProblem } from '../src/tuner/run/run-problem';
import { raceSlices } from '../src/tuner/selection/racing';
import { validationSeeds } from '../src/tuner/run/seeds';
import { flag } from './flag';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const flags = ['--cores', '--widen'];
const [db, runArg] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !flags.includes(all[i - 1]));
const cores = flag('--cores', '2,4,8,16,32').split(',').map(Number);
const widen = Number(flag('--widen', '1'));
if (!db || cores.some((c) => !(c >= 1)) || !Number.isInteger(widen) || widen < 1) {
  console.error('usage: npx tsx scripts/workers-needed.ts DB [RUN] [--cores 2,4,8,16,32] [--widen K]');
  process.exit(2);
}
const store = Store.open(db, { readonly: true });
try {
  const runId = runArg ? Number(runArg) : store.listRuns().at(-1)!.id;
  const { config } = loadRunProblem(store, runId);
  const games = store.runGames(runId);
  const phases: number[][] = [];
  const generations = store.listGenerations(runId).map((g) => games.filter((x) => x.generation === g.idx && x.purpose === 'fitness').map((x) => x.ms / 1000));
  for (let i = 0; i < generations.length; i += widen) phases.push(generations.slice(i, i + widen).flat());
  // The held-out seeds in the race's slices (one slice without a race).
  const seeds = validationSeeds(config.seed, config.validation.games);
  const slices = config.validation.race ? raceSlices(seeds, config.validation.race.rounds) : [seeds];
  for (const slice of slices) {
    const inSlice = new Set(slice);
    phases.push(games.filter((x) => x.purpose === 'validation' && inSlice.has(x.seed)).map((x) => x.ms / 1000));
  }
  phases.push(games.filter((x) => x.purpose === 'confirmation').map((x) => x.ms / 1000));
  const wall = (n: number) =>
    phases.reduce((t, p) => {
      const load = new Array<number>(n).fill(0);
      for (const s of [...p].sort((a, b) => b - a)) load[load.indexOf(Math.min(...load))] += s;
      return t + Math.max(0, ...load);
    }, 0);
  const all = phases.flat();
  console.log(`run ${runId}: ${all.length} games, ${Math.round(all.reduce((a, b) => a + b, 0)).toLocaleString('en-US')} game-seconds as recorded, ${phases.filter((p) => p.length).length} phases${widen > 1 ? ` (${widen} generations a phase)` : ''}; the slowest game ${Math.max(...all).toFixed(1)} s`);
  console.log('| cores | minutes |');
  console.log('|---|---|');
  for (const n of cores) console.log(`| ${n} | ${(wall(n) / 60).toFixed(1)} |`);
  console.log(`| unlimited | ${(phases.reduce((t, p) => t + Math.max(0, ...p), 0) / 60).toFixed(1)} |`);
} finally {
  store.close();
}
