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
 * --lag L schedules the fitness games as a lagged run plays them (optimizer.lag, no generation barrier): each
 * candidate a point, in the order the run played them, starting as soon as every point before it but the last L
 * has finished, its games to the first free core; then validation's phases as above. The points a lagged run
 * proposes differ, their games' lengths alike: an estimate from the same recorded games. Beside each time, the
 * share of the cores' time spent playing.
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

const flags = ['--cores', '--widen', '--lag'];
const [db, runArg] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !flags.includes(all[i - 1]));
const cores = flag('--cores', '2,4,8,16,32').split(',').map(Number);
const widen = Number(flag('--widen', '1'));
const lag = flag('--lag', '') === '' ? null : Number(flag('--lag', ''));
if (!db || cores.some((c) => !(c >= 1)) || !Number.isInteger(widen) || widen < 1 || (lag !== null && !(Number.isInteger(lag) && lag >= 1))) {
  console.error('usage: npx tsx scripts/workers-needed.ts DB [RUN] [--cores 2,4,8,16,32] [--widen K | --lag L]');
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
  // The fitness games point by point (each candidate's, in the order the run played them), for --lag.
  const points = store.listGenerations(runId).flatMap((g) => {
    const mine = games.filter((x) => x.generation === g.idx && x.purpose === 'fitness');
    return [...new Set(mine.map((x) => x.candidateIdx))].sort((a, b) => a - b).map((i) => mine.filter((x) => x.candidateIdx === i).map((x) => x.ms / 1000));
  });
  const barrier = (n: number, list: number[][]) =>
    list.reduce((t, p) => {
      const load = new Array<number>(n).fill(0);
      for (const s of [...p].sort((a, b) => b - a)) load[load.indexOf(Math.min(...load))] += s;
      return t + Math.max(0, ...load);
    }, 0);
  /** The lagged fitness phase on n cores: point k starts once the points before k − L have finished. */
  const lagged = (n: number, L: number) => {
    const free = new Array<number>(n).fill(0);
    const finish: number[] = [];
    points.forEach((p, k) => {
      const ready = Math.max(0, ...finish.slice(0, Math.max(0, k - L)));
      let end = ready;
      for (const s of p) {
        const c = free.indexOf(Math.min(...free));
        free[c] = Math.max(free[c], ready) + s;
        end = Math.max(end, free[c]);
      }
      finish.push(end);
    });
    return Math.max(0, ...finish);
  };
  const fitnessPhases = phases.length - (slices.length + 1);
  const wall = (n: number) => (lag === null ? barrier(n, phases) : lagged(n, lag) + barrier(n, phases.slice(fitnessPhases)));
  const all = phases.flat();
  const busy = (n: number) => `${Math.round((100 * all.reduce((a, b) => a + b, 0)) / (n * wall(n)))} %`;
  console.log(`run ${runId}: ${all.length} games, ${Math.round(all.reduce((a, b) => a + b, 0)).toLocaleString('en-US')} game-seconds as recorded, ${phases.filter((p) => p.length).length} phases${widen > 1 ? ` (${widen} generations a phase)` : ''}${lag !== null ? ` (the fitness games as ${points.length} points at lag ${lag})` : ''}; the slowest game ${Math.max(...all).toFixed(1)} s`);
  console.log('| cores | minutes | cores busy |');
  console.log('|---|---|---|');
  for (const n of cores) console.log(`| ${n} | ${(wall(n) / 60).toFixed(2)} | ${busy(n)} |`);
  if (lag === null) console.log(`| unlimited | ${(phases.reduce((t, p) => t + Math.max(0, ...p), 0) / 60).toFixed(2)} | |`);
} finally {
  store.close();
}
