/**
 * The optimizer race: GA, CMA-ES and random search on the same tuning problem
 * with the same budget of fitness games, several run seeds each. After each
 * checkpoint the optimizer's current recommendation (GA and random: the best
 * of the generation by fitness; CMA-ES: the distribution mean) is played on a
 * fixed set of held-out seeds, the same for every contender, giving "validated
 * fitness against games played". Runs are stored like any run, so an
 * interrupted race resumes where it stopped.
 */
import type { OptimizerConfig, RunConfig } from '../config/config';
import { parseConfig } from '../config/config';
import { hasFront, objectiveValue } from '../objective/fitness';
import { weightSpace } from '../space/space';
import { createRun, loadRunProblem, type StoredConfig } from '../run/run-problem';
import { holdoutSeeds } from '../run/seeds';
import { Tuner } from '../run/tuner';
import { openRunner, playSeeds, type GameRunner } from '../../runner/runner';
import type { BenchmarkCheckpoint, Store } from '../../store/store';
import { InputError, StopRequestedError } from '../../util/errors';
import { mean, median } from '../../util/stats';
import { syntheticCost, syntheticMean } from '../../player/synthetic';
import { hypervolume2d } from '../optimizers/evolutionary/pareto';
import { validatedFront } from '../selection/front';
import { loadWeights, type Weights } from '../../heuristic/weights';

export type OptimizerKind = OptimizerConfig['kind'];
export const OPTIMIZER_KINDS: readonly OptimizerKind[] = ['ga', 'cmaes', 'random', 'regression', 'surrogate', 'nsga2', 'model'];
/** What a race runs unless told: the established optimizers (regression and surrogate are new: name them with --optimizers). */
export const DEFAULT_CONTENDERS: readonly string[] = ['ga', 'cmaes', 'random'];

/** "ga", "cmaes+racing", …: the optimizer and whether its generations race. */
export function parseContender(name: string): { kind: OptimizerKind; racing: boolean } | null {
  const [kind, variant, extra] = name.split('+');
  if (!OPTIMIZER_KINDS.includes(kind as OptimizerKind) || extra !== undefined || (variant !== undefined && variant !== 'racing')) return null;
  return { kind: kind as OptimizerKind, racing: variant === 'racing' };
}

/** The fitness section of a contender: racing as the problem says (or 3 slices, keep 1/2) for "+racing", none otherwise. */
function contenderFitness(problem: RunConfig, racing: boolean, budget: number): RunConfig['fitness'] {
  const { racing: own, ...rest } = problem.fitness;
  return racing ? { ...rest, budget, racing: own ?? { rounds: 3, keep: 0.5 } } : { ...rest, budget };
}

export interface BenchmarkOptions {
  /** The tuning problem (space, fitness, validation); its optimizer section is replaced per contender. */
  problem: RunConfig;
  /** Its start point as prepareRun resolved it (an external player's announcement); absent: resolved from the problem here. */
  prepared?: Omit<StoredConfig, 'config'>;
  /** Contenders: an optimizer kind, optionally "+racing" (racing inside generations: the problem's, else 3 slices, keep 1/2). */
  kinds: string[];
  seeds: number[];
  budget: number;
  checkpoints: number;
  holdoutGames: number;
  workers: number;
  /** redis://…: play through this Redis queue instead of local processes. */
  queue?: string;
  onLog?: (line: string) => void;
  /** Games played so far of all the race's games (fitness games of every run, then holdout games), for a progress bar. */
  onProgress?: (done: number, total: number) => void;
  /** Lets the caller stop the race (Ctrl-C). */
  control?: BenchmarkControl;
}

/**
 * Stops a race from outside: the running tune stops as `tune` does (running batches finish and are stored),
 * a checkpoint being played is dropped (the next race plays it again); race() then throws StopRequestedError.
 */
export class BenchmarkControl {
  stopped = false;
  tuner: Tuner | null = null;
  runner: GameRunner | null = null;

  stop(): void {
    this.stopped = true;
    this.tuner?.stop();
    this.runner?.terminate();
  }

  /** At once (a second Ctrl-C): the running tune is given up as stopped; the caller exits. */
  abandon(): void {
    this.stopped = true;
    this.tuner?.abandon();
    this.runner?.terminate();
  }

  /** Batches the stop waits for. */
  inFlight(): number {
    return this.tuner?.inFlight() ?? 0;
  }
}

export interface BenchmarkPoint {
  games: number;
  generation: number;
  holdout: number;
  /** On the synthetic player: the landscape's true mean at the recommendation (no holdout noise). */
  truth?: number;
}

export interface BenchmarkRun {
  /** The contender, e.g. "ga" or "ga+racing". */
  kind: string;
  seed: number;
  runId: number;
  points: BenchmarkPoint[];
  /** Why there are fewer points than checkpoints asked for (a run with fewer generations), if so. */
  note?: string;
  /** The run's own end result: its validated best on the run's validation games. */
  validated: number | null;
  seconds: number;
  /**
   * On the synthetic player: the fitness games after which every later generation's recommendation was
   * within 2 % of the landscape's peak (null: not by the end).
   */
  within2?: number | null;
  /** A two-objective problem: the run's validated front (no checkpoints: the front is the result). */
  front?: BenchmarkFront;
}

/** A run's validated front as the race weighs it: held-out strength and cost, and on the synthetic player the truth. */
export interface BenchmarkFront {
  points: { costPerMove: number; validation: number; trueMean?: number; trueCost?: number }[];
}

/** What a generation recommends: the optimizer's own point (origin "mean") where it has one, else the best by fitness. */
export function recommendation<C extends { origin: string; fitness: number | null }>(cands: readonly C[]): C {
  return cands.find((c) => c.origin === 'mean') ?? [...cands].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity))[0];
}

/** On the synthetic player: each generation's recommendation's true mean, by fitness games played so far. */
function truthCurve(store: Store, runId: number): { games: number; generation: number; truth: number }[] | null {
  const { config, space } = loadRunProblem(store, runId);
  const landscape = config.fitness.synthetic;
  if (config.fitness.player !== 'synthetic' || !landscape) return null;
  let games = 0;
  return store
    .listGenerations(runId)
    .filter((g) => g.status === 'done')
    .map((g) => ({ games: (games += g.games), generation: g.idx, truth: syntheticMean(weightSpace(space).toWeights(recommendation(store.getCandidates(runId, g.idx)).genome), landscape) }));
}

/** The games after which the curve stays within 2 % of the peak, or null. */
export function gamesToStayWithin(curve: readonly { games: number; truth: number }[], level: number): number | null {
  let from: number | null = null;
  for (const p of curve) {
    if (p.truth < level) from = null;
    else from ??= p.games;
  }
  return from;
}

/** The contender's optimizer section: the problem's own when it is of that kind, else defaults sized alike. */
export function contenderOptimizer(problem: RunConfig, kind: OptimizerKind): OptimizerConfig {
  const base = problem.optimizer;
  const many = 100_000; // the budget ends the run, not the generation count
  if (base.kind === kind) return { ...base, generations: many } as OptimizerConfig;
  // GA and random search take the problem's population so they spend games alike; CMA-ES keeps its own λ.
  const population = base.kind !== 'cmaes' && kind !== 'cmaes' ? { population: base.population } : {};
  return parseConfig({ space: problem.space, fitness: problem.fitness, optimizer: { kind, generations: many, ...population } }).optimizer;
}

// Odd seeds from their own stream: never a tuning seed (even), and the same for every contender.
export { holdoutSeeds };

/** A contender's run config: the problem with the contender's optimizer, its seed and the race's budget (an InputError when it cannot be). */
export function benchmarkConfig(problem: RunConfig, kind: string, seed: number, budget: number): RunConfig {
  const contender = parseContender(kind);
  if (!contender) throw new InputError(`unknown race contender "${kind}" (known: ${OPTIMIZER_KINDS.join(', ')}, each optionally followed by +racing)`);
  if (hasFront(problem) && contender.racing) throw new InputError(`race contender "${kind}": racing drops candidates by strength alone, and this problem has two objectives (fitness.cost)`);
  return parseConfig({ ...problem, name: `race-${kind}-seed${seed}-budget${budget}`, seed, optimizer: contenderOptimizer(problem, contender.kind), fitness: contenderFitness(problem, contender.racing, budget) });
}

export async function runBenchmark(store: Store, o: BenchmarkOptions): Promise<BenchmarkRun[]> {
  const log = o.onLog ?? (() => {});
  const seeds = holdoutSeeds(o.holdoutGames);
  const results: BenchmarkRun[] = [];
  const runs = o.kinds.length * o.seeds.length;
  // At most budget fitness games and `checkpoints` holdout sets per run; the bar's total shrinks to what was really played.
  const total = runs * (o.budget + o.checkpoints * o.holdoutGames);
  let finished = 0; // games of the runs already done
  const progress = (current: number) => o.onProgress?.(finished + current, total);
  for (const kind of o.kinds) {
    for (const seed of o.seeds) {
      const config = benchmarkConfig(o.problem, kind, seed, o.budget);
      const name = config.name!;
      const existing = store.findRunsByName(name)[0];
      const runId = existing?.id ?? createRun(store, o.prepared ? { ...o.prepared, config } : config, name);
      const t0 = performance.now();
      const played = () => store.listGenerations(runId).reduce((s, g) => s + g.games, 0);
      if (o.control?.stopped) throw new StopRequestedError('the race');
      if (store.requireRun(runId).status !== 'finished') {
        const before = played();
        const perGeneration = new Map<number, number>();
        const tuner = new Tuner(store, runId, {
          workers: o.workers,
          queue: o.queue,
          onProgress: (p) => {
            if (p.phase !== 'fitness') return;
            perGeneration.set(p.generation, p.done);
            progress(before + [...perGeneration.values()].reduce((a, b) => a + b, 0));
          },
        });
        if (o.control) o.control.tuner = tuner;
        const outcome = await tuner.run(existing !== undefined).finally(() => {
          if (o.control) o.control.tuner = null;
        });
        if (outcome.status === 'stopped' && o.control?.stopped) throw new StopRequestedError('the race');
        if (outcome.status !== 'finished') throw new Error(`race run ${runId} (${name}) ${outcome.status}: ${outcome.error ?? ''}`);
      }
      const fitnessGames = played();
      const seconds = (performance.now() - t0) / 1000;
      if (hasFront(config)) {
        // The front is the result: the run validated it; no checkpoints.
        finished += fitnessGames;
        progress(0);
        const front = raceFront(store, runId);
        results.push({ kind, seed, runId, points: [], validated: null, seconds, front });
        log(`${name}: run ${runId}, ${fitnessGames} fitness games, a validated front of ${front.points.length} points`);
        continue;
      }
      const { points, note } = await checkpoints(store, runId, o, seeds, (done) => progress(fitnessGames + done));
      finished += fitnessGames + points.length * o.holdoutGames;
      progress(0);
      const best = store.getCandidate(store.requireRun(runId).bestCandidate ?? -1);
      const truth = truthCurve(store, runId);
      const synthetic = truth ? { within2: gamesToStayWithin(truth, 0.98 * config.fitness.synthetic!.peak) } : {};
      for (const p of truth ? points : []) p.truth = truth!.find((t) => t.generation === p.generation)?.truth;
      results.push({ kind, seed, runId, points, ...(note ? { note } : {}), validated: best?.validation ?? null, seconds, ...synthetic });
      log(`${name}: run ${runId}, ${fitnessGames} fitness games, ${points.length} checkpoints${note ? ` (${note})` : ''}, last holdout ${points[points.length - 1]?.holdout.toFixed(0)}, validated ${best?.validation?.toFixed(0)}`);
    }
  }
  return results;
}

/**
 * The checkpoints of a run: K distinct generations, the first at or past each k/K of the games played
 * (the last one always included); a run with fewer than K generations gets one per generation, and says so.
 */
export function pickCheckpoints(gens: readonly { idx: number; games: number }[], k: number): { idx: number; games: number }[] {
  let cumulative = 0;
  const withGames = gens.map((g) => ({ idx: g.idx, games: (cumulative += g.games) }));
  if (withGames.length <= k) return withGames;
  const picked: { idx: number; games: number }[] = [];
  for (let i = 1; i <= k; i++) {
    // The generation nearest to i/k of the games, after the one picked before, leaving room for the rest.
    const target = (i / k) * cumulative;
    const from = picked.length === 0 ? 0 : withGames.findIndex((g) => g.idx === picked[picked.length - 1].idx) + 1;
    const to = withGames.length - (k - i) - 1;
    let best = from;
    for (let j = from; j <= to; j++) if (Math.abs(withGames[j].games - target) < Math.abs(withGames[best].games - target)) best = j;
    picked.push(withGames[best]);
  }
  return picked;
}

async function checkpoints(store: Store, runId: number, o: BenchmarkOptions, seeds: number[], onGames: (done: number) => void): Promise<{ points: BenchmarkPoint[]; note?: string }> {
  const { config, playerOf } = loadRunProblem(store, runId);
  const gens = store.listGenerations(runId).filter((g) => g.status === 'done');
  const picked = pickCheckpoints(gens.map((g) => ({ idx: g.idx, games: g.games })), o.checkpoints);
  const note = picked.length < o.checkpoints ? `the run has only ${gens.length} generation(s) within its budget; one checkpoint each` : undefined;
  // A checkpoint's holdout result is stored with the run, so a finished race is not played again.
  const stored = new Map(
    store
      .listResults(runId, 'race-checkpoint')
      .filter((c) => c.result.holdoutGames === seeds.length)
      .map((c) => [c.result.generation, c.result.holdout]),
  );
  let runner: GameRunner | null = null;
  let done = 0;
  try {
    const points: BenchmarkPoint[] = [];
    for (const { idx: generation, games } of picked) {
      let holdout = stored.get(generation);
      if (holdout === undefined) {
        if (o.control?.stopped) throw new StopRequestedError('the race');
        runner ??= await openRunner({ workers: o.workers, queue: o.queue ?? config.pool.queue });
        if (o.control) o.control.runner = runner;
        const played = await playSeeds(runner, playerOf(recommendation(store.getCandidates(runId, generation)).genome), seeds, 25, (g) => onGames((done += g.length))).catch((e: unknown) => {
          throw o.control?.stopped ? new StopRequestedError('the race') : e;
        });
        holdout = objectiveValue(config.fitness, played);
        const record: BenchmarkCheckpoint = { kind: 'race-checkpoint', generation, holdoutGames: seeds.length, holdout };
        store.insertResult(runId, { kind: 'race-checkpoint', result: record });
      } else {
        onGames((done += seeds.length));
      }
      points.push({ games, generation, holdout });
    }
    return { points, note };
  } finally {
    if (o.control) o.control.runner = null;
    await runner?.end();
  }
}

/** A finished two-objective run's validated front, with the synthetic landscape's true mean and cost at each point. */
function raceFront(store: Store, runId: number): BenchmarkFront {
  const problem = loadRunProblem(store, runId);
  const { config, space } = problem;
  const front = validatedFront(store, runId, problem)?.points ?? [];
  const landscape = config.fitness.synthetic;
  return {
    points: front.map((p) => {
      if (!landscape) return { costPerMove: p.costPerMove, validation: p.validation };
      const w = weightSpace(space).toWeights(store.getCandidate(p.candidate)!.genome);
      return { costPerMove: p.costPerMove, validation: p.validation, trueMean: syntheticMean(w, landscape), trueCost: syntheticCost(w, landscape) ?? undefined };
    }),
  };
}

/**
 * The hypervolume of fronts in (strength, −ln(1 + cost per move)) above one reference for all of them: strength
 * 0 and the largest cost any of them holds (a front that reaches cheaper or stronger points covers more).
 */
export function frontHypervolumes(fronts: readonly { strength: number; cost: number }[][]): number[] {
  const worst = Math.max(1, ...fronts.flat().map((p) => p.cost));
  const reference: [number, number] = [0, -Math.log1p(worst)];
  return fronts.map((f) => hypervolume2d(f.map((p) => [p.strength, -Math.log1p(p.cost)]), reference));
}

/**
 * Per contender of a two-objective race: its fronts' hypervolumes (held-out; on the synthetic player also at
 * the points' true values, over the true front's), median and range over seeds.
 */
export function summarizeFrontBenchmark(runs: readonly BenchmarkRun[], trueFront?: { strength: number; cost: number }[]) {
  const fronts = runs.map((r) => r.front!.points);
  const heldOut = frontHypervolumes(fronts.map((f) => f.map((p) => ({ strength: p.validation, cost: p.costPerMove }))));
  const truth = trueFront && fronts.every((f) => f.every((p) => p.trueMean !== undefined && p.trueCost !== undefined)) ? frontHypervolumes([trueFront, ...fronts.map((f) => f.map((p) => ({ strength: p.trueMean!, cost: p.trueCost! })))]) : null;
  const kinds = [...new Set(runs.map((r) => r.kind))];
  const stats = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
  return kinds.map((kind) => {
    const mine = runs.map((r, i) => ({ r, i })).filter(({ r }) => r.kind === kind);
    return {
      kind,
      runs: mine.length,
      points: stats(mine.map(({ r }) => r.front!.points.length)),
      hypervolume: stats(mine.map(({ i }) => heldOut[i])),
      ...(truth ? { trueShare: stats(mine.map(({ i }) => truth[i + 1] / truth[0])) } : {}),
      seconds: mean(mine.map(({ r }) => r.seconds)),
    };
  });
}

/**
 * The synthetic landscape's true front (its cost weight from its low bound to its optimum, every other weight at
 * its optimum), for a space that tunes the cost weight: null otherwise.
 */
export function syntheticTrueFront(problem: RunConfig, points = 2001): { strength: number; cost: number }[] | null {
  const l = problem.fitness.synthetic;
  const spec = l?.cost ? problem.space.params?.[l.cost.weight] : undefined;
  if (!l?.cost || !spec || spec.min === undefined || l.optimum[l.cost.weight] === undefined) return null;
  const base = loadWeights(problem.space.start);
  const low = spec.min;
  const high = Math.max(low, Math.min(spec.max ?? Infinity, l.optimum[l.cost.weight]));
  return Array.from({ length: points }, (_, i) => {
    const values = { ...l.optimum, [l.cost!.weight]: low + ((high - low) * i) / (points - 1) };
    const w = { ...base, ...Object.fromEntries(Object.entries(values).filter(([k]) => !k.startsWith('matrix['))) } as Weights;
    return { strength: syntheticMean(w, l), cost: syntheticCost(w, l)! };
  });
}

/** Mean, min and max over seeds of the holdout value, at each checkpoint index. */
export function summarizeBenchmark(runs: readonly BenchmarkRun[]) {
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
    const truthAt = (i: number) => mine.map((r) => r.points[i].truth ?? NaN);
    const synthetic = mine.every((r) => r.within2 !== undefined)
      ? {
          truthCurve: curve.map((c, i) => ({ games: c.games, mean: mean(truthAt(i)), min: Math.min(...truthAt(i)), max: Math.max(...truthAt(i)) })),
          /** Per run, the games after which it stayed within 2 % of the peak (null: never), in seed order. */
          within2: mine.map((r) => r.within2 ?? null),
        }
      : {};
    return { kind, runs: mine.length, curve, finalMean: mean(finals), finalMin: Math.min(...finals), finalMax: Math.max(...finals), validatedMean: mean(validated), seconds: mean(mine.map((r) => r.seconds)), ...synthetic };
  });
}
