/**
 * The best within a budget, measured where the truth is known: the model optimizer (optimizer.kind "model"
 * with fitness.maxCost) against NSGA-II's front within the same budget (export --max-cost picks its strongest
 * point within it), on the synthetic player of test/model.test.ts — four weights, a game's sd 40 % of its mean
 * as at depth 3, a cost of 10·e^{sumPower} positions a move (each game's drawn around it, its log's sd
 * --cost-cv, as a real search's cost varies from game to game) and a ceiling of 150, so the best within it has
 * sumPower ln 15 and the other weights at their optimum. Each run at each fitness budget and seed; the figures:
 * how often the point it hands back truly keeps within the ceiling, and the landscape's true mean there over the
 * constrained optimum's (0 when it is over the ceiling).
 *
 *   npx tsx scripts/budget-race.ts [--kinds model,model-alike,model-wide,model-plain,model-lag4,nsga2,nsga2-16] [--budgets 800,1600,3200] [--seeds 1,2,3,4,5] [--cost-cv 0.1] [--db-dir DIR]
 *
 * The runs go into DIR (default: a new temporary folder), one database a run, for show and report.
 */
import { installProcessGuards } from '../src/cli/process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticCost, syntheticMean, type SyntheticLandscape } from '../src/player/synthetic';
import { Store } from '../src/store/store';
import { parseConfig, type RunConfig } from '../src/tuner/config/config';
import { strongestWithin, validatedFront } from '../src/tuner/selection/front';
import { createRun, loadRunProblem } from '../src/tuner/run/run-problem';
import { weightSpace } from '../src/tuner/space/space';
import { Tuner } from '../src/tuner/run/tuner';
import { flag } from './flag';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const COST_CV = Number(flag('--cost-cv', '0.1'));
const LANDSCAPE = { optimum: { empty: 450, merges: 600, monotonicity: 60, sumPower: 4 }, width: 1.2, peak: 140_000, floor: 0.2, cv: 0.4, gameMs: 0, cost: { weight: 'sumPower', nodes: 10, growth: 1, ...(COST_CV > 0 ? { cv: COST_CV } : {}) } };
const SPACE = { start: 'tuned-d1', params: { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 }, monotonicity: { min: 1, max: 1000, scale: 'log' }, sumPower: { min: 1, max: 5 } } };
const MAX_COST = 150;
const OPTIMUM = syntheticMean({ ...LANDSCAPE.optimum, sumPower: Math.log(MAX_COST / 10) } as never, LANDSCAPE as SyntheticLandscape);

/**
 * The contender's config: the model with its finalists raced and the winner confirmed (model; model-alike: its
 * finalists however alike; model-wide: 15
 * points a generation instead of 7), or validated plainly, all on 150 held-out seeds (model-plain); or NSGA-II
 * at 4 or 16 games a candidate (its front's 3 most spread points validated).
 */
function config(kind: string, seed: number, budget: number): RunConfig {
  const fitness = { budget, player: 'synthetic', cost: 'nodes', maxCost: MAX_COST, synthetic: LANDSCAPE };
  if (kind === 'model') return parseConfig({ name: kind, seed, space: SPACE, optimizer: { kind: 'model', population: 7, games: 4 }, fitness, validation: { finalists: 3, games: 150, race: { rounds: 3, keep: 0.5 }, confirm: 150 }, pool: { batchGames: 4 } });
  // Twice the points a generation, half the generations: half the phases that wait for their slowest game.
  if (kind === 'model-wide') return parseConfig({ name: kind, seed, space: SPACE, optimizer: { kind: 'model', population: 15, games: 4 }, fitness, validation: { finalists: 3, games: 150, race: { rounds: 3, keep: 0.5 }, confirm: 150 }, pool: { batchGames: 4 } });
  // The finalists however alike (validation.maxCorrelation 1: before "Finalists apart"), raced and confirmed as model.
  if (kind === 'model-alike') return parseConfig({ name: kind, seed, space: SPACE, optimizer: { kind: 'model', population: 7, games: 4 }, fitness, validation: { finalists: 3, maxCorrelation: 1, games: 150, race: { rounds: 3, keep: 0.5 }, confirm: 150 }, pool: { batchGames: 4 } });
  // Lagged proposals (optimizer.lag L: no generation barrier, each point from the points before the last L), raced and confirmed as model.
  const lag = /^model-lag(\d+)$/.exec(kind);
  if (lag) return parseConfig({ name: kind, seed, space: SPACE, optimizer: { kind: 'model', population: 7, games: 4, lag: Number(lag[1]) }, fitness, validation: { finalists: 3, games: 150, race: { rounds: 3, keep: 0.5 }, confirm: 150 }, pool: { batchGames: 4 } });
  if (kind === 'model-plain') return parseConfig({ name: kind, seed, space: SPACE, optimizer: { kind: 'model', population: 7, games: 4 }, fitness, validation: { finalists: 3, games: 150 }, pool: { batchGames: 4 } });
  const games = kind === 'nsga2-16' ? 16 : 4;
  if (kind !== 'nsga2' && kind !== 'nsga2-16') throw new Error(`unknown kind ${kind} (model, model-alike, model-wide, model-plain, model-lagL, nsga2, nsga2-16)`);
  return parseConfig({ name: kind, seed, space: SPACE, optimizer: { kind: 'nsga2', population: 8, generations: 100_000 }, fitness: { ...fitness, games }, validation: { front: 3, games: 150 }, pool: { batchGames: 4 } });
}

/** What the run hands back within the budget: its best (the model), its strongest validated point within it (the front). */
function handedBack(store: Store, id: number): number {
  const problem = loadRunProblem(store, id);
  if (problem.config.optimizer.kind !== 'nsga2') return problem.run.bestCandidate!;
  const front = validatedFront(store, id, problem)!;
  return strongestWithin(front.points, { maxCost: MAX_COST })?.candidate ?? -1;
}

async function main(): Promise<void> {
  const kinds = flag('--kinds', 'model,nsga2').split(',');
  const budgets = flag('--budgets', '800,1600,3200').split(',').map(Number);
  const seeds = flag('--seeds', '1,2,3,4,5').split(',').map(Number);
  const dir = flag('--db-dir', '');
  const root = dir || mkdtempSync(join(tmpdir(), 'budget-race-'));
  mkdirSync(root, { recursive: true });
  console.log(`the constrained optimum: ${Math.round(OPTIMUM)} (fitness.maxCost ${MAX_COST}; each game's cost a move drawn with sd ${COST_CV} of its log); runs in ${root}`);
  console.log('| contender | fitness games | validation games | truly within the ceiling | true mean / optimum: mean | worst | each seed |');
  console.log('|---|---|---|---|---|---|---|');
  const byContender = new Map<string, number[]>();
  for (const kind of kinds) {
    for (const budget of budgets) {
      const shares: number[] = [];
      byContender.set(`${kind}@${budget}`, shares);
      let within = 0;
      let fitnessGames = 0;
      let validationGames = 0;
      for (const seed of seeds) {
        const store = Store.open(join(root, `${kind}-${budget}-${seed}.sqlite`));
        try {
          const id = createRun(store, config(kind, seed, budget), kind);
          const outcome = await new Tuner(store, id, { workers: 2 }).run(false);
          if (outcome.status !== 'finished') throw new Error(`${kind} seed ${seed}: ${outcome.status} ${outcome.error ?? ''}`);
          const candidate = store.getCandidate(handedBack(store, id));
          const w = candidate ? weightSpace(loadRunProblem(store, id).space).toWeights(candidate.genome) : null;
          const kept = w !== null && syntheticCost(w, LANDSCAPE as SyntheticLandscape)! <= MAX_COST;
          if (kept) within++;
          shares.push(kept ? syntheticMean(w!, LANDSCAPE as SyntheticLandscape) / OPTIMUM : 0);
          fitnessGames += store.listGenerations(id).reduce((s, g) => s + g.games, 0);
          validationGames += store.validatedCandidates(id).reduce((s, c) => s + store.getGames(c.id, 'validation').length + store.getGames(c.id, 'confirmation').length, 0);
        } finally {
          store.close();
        }
      }
      const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
      const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
      console.log(`| ${kind}${budgets.length > 1 ? ` @ ${budget}` : ''} | ${Math.round(fitnessGames / seeds.length)} | ${Math.round(validationGames / seeds.length)} | ${within} of ${seeds.length} | ${pct(mean)} | ${pct(Math.min(...shares))} | ${shares.map(pct).join(', ')} |`);
    }
  }
  // Each contender against the first at the same budget, seed by seed (the same seeds: paired), with a 95 % interval.
  if (kinds.length > 1 && seeds.length > 1) {
    console.log('\n| contender − the first (paired by seed) | mean difference, points of the optimum | 95 % interval |');
    console.log('|---|---|---|');
    for (const budget of budgets) {
      const base = byContender.get(`${kinds[0]}@${budget}`)!;
      for (const kind of kinds.slice(1)) {
        const d = byContender.get(`${kind}@${budget}`)!.map((x, i) => 100 * (x - base[i]));
        const m = d.reduce((a, b) => a + b, 0) / d.length;
        const se = Math.sqrt(d.reduce((a, b) => a + (b - m) ** 2, 0) / (d.length - 1) / d.length);
        console.log(`| ${kind} − ${kinds[0]} @ ${budget} | ${m >= 0 ? '+' : ''}${m.toFixed(1)} | ${(m - 1.96 * se).toFixed(1)} to ${(m + 1.96 * se).toFixed(1)} |`);
      }
    }
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
