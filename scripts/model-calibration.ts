/**
 * Are the model's intervals honest? The model optimizer run on the synthetic player (its truth known) over
 * several shapes of landscape and fitness budgets; for every finalist, its prediction (mean ± sd of the latent
 * mean) against its held-out mean (the held-out games' noise added: the finalist's 95 % predictive interval, as
 * show's "model's honesty" reads it) and against the landscape's true mean there.
 *
 *   npx tsx scripts/model-calibration.ts [--shapes start,away,ridge,eight] [--budgets 300,600,1000,1850] [--seeds 1,2,3,4,5] [--games 100] [--db-dir DIR] [--json]
 *
 * Shapes: `start` four weights, the optimum at the start (tuned-d1); `away` the same four, the optimum away from
 * it; `ridge` the same, with empty and merges on a ridge (ten times longer along their sum than across it);
 * `eight` the depth-2 problem's eight weights (configs/synthetic-d3.json's landscape). Validation: 3 finalists
 * on `--games` held-out seeds each, no race and no second set (a race's survivors carry its selection).
 * Prints a table per (shape, budget) and the totals per budget: finalists inside their interval, the mean signed
 * error in sd ((held-out − predicted) / sd of the interval), and the same against the true mean.
 */
import { installProcessGuards } from '../src/cli/process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticMean, type SyntheticLandscape } from '../src/player/synthetic';
import { Store } from '../src/store/store';
import { parseConfig, type RunConfig } from '../src/tuner/config/config';
import { createRun, loadRunProblem } from '../src/tuner/run/run-problem';
import { weightSpace } from '../src/tuner/space/space';
import { Tuner } from '../src/tuner/run/tuner';
import { gameObjective } from '../src/tuner/objective/fitness';
import { mean, stdev } from '../src/util/stats';
import { flag } from './flag';
installProcessGuards();

const FOUR = { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 }, monotonicity: { min: 1, max: 1000, scale: 'log' }, sumPower: { min: 1, max: 5 } };
const EIGHT = {
  alive: { min: 1000, max: 1000000, scale: 'log' },
  empty: { min: 0, max: 2000 },
  merges: { min: 0, max: 3000 },
  monotonicity: { min: 1, max: 1000, scale: 'log' },
  monotonicityPower: { min: 1, max: 6 },
  smoothness: { min: 0, max: 200 },
  sum: { min: 0.1, max: 1000, scale: 'log' },
  sumPower: { min: 1, max: 5 },
};
const TUNED_D1 = { empty: 284.36767330545314, merges: 254.18884949316848, monotonicity: 23.690115093421667, sumPower: 2.7852642816825295 };
const AWAY = { empty: 450, merges: 600, monotonicity: 60, sumPower: 4 };
const BASE = { width: 1.2, peak: 140_000, floor: 0.2, cv: 0.4 };

export const SHAPES: Record<string, { params: object; synthetic: object }> = {
  start: { params: FOUR, synthetic: { ...BASE, optimum: TUNED_D1 } },
  away: { params: FOUR, synthetic: { ...BASE, optimum: AWAY } },
  ridge: { params: FOUR, synthetic: { ...BASE, optimum: AWAY, ridge: { weights: ['empty', 'merges'], ratio: 10 } } },
  eight: { params: EIGHT, synthetic: { ...BASE, floor: 0.3, optimum: { alive: 150000, empty: 450, merges: 600, monotonicity: 60, monotonicityPower: 3.2, smoothness: 60, sum: 30, sumPower: 2.8 } } },
};

function config(shape: string, seed: number, budget: number, games: number): RunConfig {
  const s = SHAPES[shape];
  if (!s) throw new Error(`unknown shape ${shape} (${Object.keys(SHAPES).join(', ')})`);
  return parseConfig({ name: `calibration-${shape}`, seed, space: { start: 'tuned-d1', params: s.params }, optimizer: { kind: 'model', population: 7, games: 4 }, fitness: { budget, player: 'synthetic', synthetic: s.synthetic }, validation: { finalists: 3, games }, pool: { batchGames: 4 } });
}

interface Row {
  shape: string;
  budget: number;
  seed: number;
  predicted: number;
  sd: number;
  heldOut: number;
  se: number;
  truth: number;
}

async function main(): Promise<void> {
  const shapes = flag('--shapes', 'start,away,ridge,eight').split(',');
  const budgets = flag('--budgets', '300,600,1000,1850').split(',').map(Number);
  const seeds = flag('--seeds', '1,2,3,4,5').split(',').map(Number);
  const games = Number(flag('--games', '100'));
  const root = flag('--db-dir', '') || mkdtempSync(join(tmpdir(), 'calibration-'));
  mkdirSync(root, { recursive: true });
  const rows: Row[] = [];
  for (const shape of shapes) {
    for (const budget of budgets) {
      for (const seed of seeds) {
        const store = Store.open(join(root, `${shape}-${budget}-${seed}.sqlite`));
        try {
          const existing = store.listRuns()[0];
          const id = existing?.id ?? createRun(store, config(shape, seed, budget, games), 'calibration');
          if (existing?.status !== 'finished') {
            const outcome = await new Tuner(store, id, { workers: 1 }).run(existing !== undefined);
            if (outcome.status !== 'finished') throw new Error(`${shape} ${budget} seed ${seed}: ${outcome.status} ${outcome.error ?? ''}`);
          }
          const problem = loadRunProblem(store, id);
          const landscape = problem.config.fitness.synthetic as SyntheticLandscape;
          for (const c of store.validatedCandidates(id)) {
            if (!c.prediction) continue;
            const values = store.getGames(c.id, 'validation').map((g) => gameObjective(problem.config.fitness, g));
            rows.push({ shape, budget, seed, predicted: c.prediction.mean, sd: c.prediction.sd, heldOut: mean(values), se: stdev(values) / Math.sqrt(values.length), truth: syntheticMean(weightSpace(problem.space).toWeights(c.genome), landscape) });
          }
        } finally {
          store.close();
        }
      }
      process.stderr.write(`${shape} ${budget}: done\n`);
    }
  }
  const summary = (rs: readonly Row[]) => {
    const z = rs.map((r) => (r.heldOut - r.predicted) / Math.hypot(r.sd, r.se));
    const zt = rs.map((r) => (r.truth - r.predicted) / r.sd);
    return {
      finalists: rs.length,
      inside: z.filter((x) => Math.abs(x) <= 1.96).length,
      meanError: mean(z),
      truthInside: zt.filter((x) => Math.abs(x) <= 1.96).length,
      truthMeanError: mean(zt),
      meanSd: mean(rs.map((r) => r.sd)),
    };
  };
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ rows, byBudget: Object.fromEntries(budgets.map((b) => [b, summary(rows.filter((r) => r.budget === b))])) }, null, 2));
    return;
  }
  const pct = (a: number, b: number) => `${a} of ${b} (${((100 * a) / b).toFixed(0)} %)`;
  const f2 = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
  console.log(`runs in ${root}; ${games} held-out games a finalist\n`);
  console.log('| shape | fitness games | finalists | held-out inside 95 % | mean error (sd) | truth inside 95 % | truth mean error (sd) | mean sd |');
  console.log('|---|---|---|---|---|---|---|---|');
  const line = (name: string, budget: string, rs: readonly Row[]) => {
    const s = summary(rs);
    console.log(`| ${name} | ${budget} | ${s.finalists} | ${pct(s.inside, s.finalists)} | ${f2(s.meanError)} | ${pct(s.truthInside, s.finalists)} | ${f2(s.truthMeanError)} | ${Math.round(s.meanSd).toLocaleString('en-US')} |`);
  };
  for (const shape of shapes) for (const budget of budgets) line(shape, String(budget), rows.filter((r) => r.shape === shape && r.budget === budget));
  for (const budget of budgets) line('**all**', String(budget), rows.filter((r) => r.budget === budget));
  line('**all**', 'all', rows);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
