/**
 * The optimizer race: GA, CMA-ES and random search on the same tuning problem
 * with the same budget of fitness games, several run seeds each. After each
 * checkpoint the optimizer's current recommendation (GA and random: the best
 * of the generation by fitness; CMA-ES: the distribution mean) is played on a
 * fixed set of held-out seeds, the same for every contender, giving "validated
 * fitness against games played". Runs are stored like any run, so an
 * interrupted race resumes where it stopped.
 */
import type { OptimizerConfig, RunConfig } from './config';
import { parseConfig } from './config';
import { createRun, readStoredConfig, Tuner } from './controller';
import { objectiveValue } from './fitness';
import { holdoutSeeds } from './seeds';
import { ParameterSpace } from './space';
import { createPool } from '../pool/pool';
import type { BatchResult, BatchTask } from '../pool/protocol';
import { Store } from '../store/store';
import { mean } from '../util/stats';

export type OptimizerKind = OptimizerConfig['kind'];

export interface RaceOptions {
  /** The tuning problem (space, fitness, validation); its optimizer section is replaced per contender. */
  problem: RunConfig;
  kinds: OptimizerKind[];
  seeds: number[];
  budget: number;
  checkpoints: number;
  holdoutGames: number;
  workers: number;
  onLog?: (line: string) => void;
}

export interface RacePoint {
  games: number;
  generation: number;
  holdout: number;
}

export interface RaceRun {
  kind: OptimizerKind;
  seed: number;
  runId: number;
  points: RacePoint[];
  /** The run's own end result: its validated best on the run's validation games. */
  validated: number | null;
  seconds: number;
}

/** The contender's optimizer section: the problem's own when it is of that kind, else defaults sized alike. */
export function contenderOptimizer(problem: RunConfig, kind: OptimizerKind): OptimizerConfig {
  const base = problem.optimizer;
  const many = 100_000; // the budget ends the run, not the generation count
  if (base.kind === kind) return { ...base, generations: many } as OptimizerConfig;
  // GA and random search take the problem's population so they spend games alike; CMA-ES keeps its own λ.
  const population = base.kind !== 'cmaes' && kind !== 'cmaes' ? { population: base.population } : {};
  return parseConfig({ space: problem.space, optimizer: { kind, generations: many, ...population } }).optimizer;
}

// Odd seeds from their own stream: never a tuning seed (even), and the same for every contender.
export { holdoutSeeds };

export async function race(store: Store, o: RaceOptions): Promise<RaceRun[]> {
  const log = o.onLog ?? (() => {});
  const seeds = holdoutSeeds(o.holdoutGames);
  const results: RaceRun[] = [];
  for (const kind of o.kinds) {
    for (const seed of o.seeds) {
      const name = `race-${kind}-seed${seed}-budget${o.budget}`;
      const config = parseConfig({ ...o.problem, name, seed, optimizer: contenderOptimizer(o.problem, kind), fitness: { ...o.problem.fitness, budget: o.budget } });
      const existing = store.listRuns().find((r) => r.name === name);
      const runId = existing?.id ?? createRun(store, config, name);
      const t0 = performance.now();
      if (store.requireRun(runId).status !== 'finished') {
        const outcome = await new Tuner(store, runId, { workers: o.workers }).run(existing !== undefined);
        if (outcome.status !== 'finished') throw new Error(`race run ${runId} (${name}) ${outcome.status}: ${outcome.error ?? ''}`);
      }
      const seconds = (performance.now() - t0) / 1000;
      const points = await checkpoints(store, runId, o, seeds);
      const best = store.getCandidate(store.requireRun(runId).best_candidate ?? -1);
      results.push({ kind, seed, runId, points, validated: best?.validation ?? null, seconds });
      log(`${name}: run ${runId}, ${points.length} checkpoints, last holdout ${points[points.length - 1]?.holdout.toFixed(0)}, validated ${best?.validation?.toFixed(0)}`);
    }
  }
  return results;
}

async function checkpoints(store: Store, runId: number, o: RaceOptions, seeds: number[]): Promise<RacePoint[]> {
  const { config, startWeights } = readStoredConfig(store.requireRun(runId).config);
  const space = new ParameterSpace(startWeights, config.space.params);
  const gens = store.listGenerations(runId).filter((g) => g.status === 'done');
  let cumulative = 0;
  const withGames = gens.map((g) => ({ idx: g.idx, games: (cumulative += g.games) }));
  // Checkpoints: the first generation at or past each k/K of the games played, and the last one.
  const total = cumulative;
  const picked = new Map<number, number>();
  for (let k = 1; k <= o.checkpoints; k++) {
    const at = withGames.find((g) => g.games >= (k / o.checkpoints) * total) ?? withGames[withGames.length - 1];
    picked.set(at.idx, at.games);
  }
  const pool = createPool<BatchTask, BatchResult>({ workers: o.workers });
  try {
    const points: RacePoint[] = [];
    for (const [generation, games] of [...picked].sort((a, b) => a[0] - b[0])) {
      const cands = store.getCandidates(runId, generation);
      const rec = cands.find((c) => c.origin === 'mean') ?? [...cands].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity))[0];
      const weights = space.toWeights(JSON.parse(rec.genome));
      const batches: Promise<BatchResult>[] = [];
      for (let i = 0; i < seeds.length; i += 25) {
        batches.push(pool.run({ weights, search: { depth: config.fitness.depth, cprob: config.fitness.cprob }, seeds: seeds.slice(i, i + 25) }));
      }
      const played = (await Promise.all(batches)).flatMap((b) => b.games);
      points.push({ games, generation, holdout: objectiveValue(config.fitness, played) });
    }
    return points;
  } finally {
    await pool.end();
  }
}

/** Mean, min and max over seeds of the holdout value, at each checkpoint index. */
export function summarizeRace(runs: readonly RaceRun[]) {
  const kinds = [...new Set(runs.map((r) => r.kind))];
  return kinds.map((kind) => {
    const mine = runs.filter((r) => r.kind === kind);
    const n = Math.min(...mine.map((r) => r.points.length));
    const curve = Array.from({ length: n }, (_, i) => {
      const at = mine.map((r) => r.points[i]);
      const values = at.map((p) => p.holdout);
      return { games: mean(at.map((p) => p.games)), mean: mean(values), min: Math.min(...values), max: Math.max(...values) };
    });
    const finals = mine.map((r) => r.points[r.points.length - 1].holdout);
    const validated = mine.map((r) => r.validated ?? NaN);
    return { kind, runs: mine.length, curve, finalMean: mean(finals), finalMin: Math.min(...finals), finalMax: Math.max(...finals), validatedMean: mean(validated), seconds: mean(mine.map((r) => r.seconds)) };
  });
}
