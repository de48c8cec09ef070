/**
 * Run configs: the parameter space, the optimizer, the fitness, validation.
 * Everything but the space has a default; unknown keys, wrong types and
 * out-of-range values each get one error naming the key. Validated with
 * valibot, as weights files are (one library; its import costs ~10 ms of
 * start-up where zod's cost ~100 ms).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { externalPlayerFields, resolveExternalPlayer, type ExternalPlayerDefinition } from '../../player/external/definition';
import * as v from 'valibot';
import { parseQueueUrl } from '../../runner/queue-url';
import { playerSettingsProblem, RUN_PLAYER_KINDS } from '../../player/spec';
import { landscapeProblem, SYNTHETIC_DEFAULTS } from '../../player/synthetic';
import { readJsonFile } from '../../util/json-file';
import { describeIssues } from '../../util/valibot-issues';
import { MAX_DEPTH } from '../../player/limits';
import { NSGA2_DEFAULTS } from '../optimizers/evolutionary/nsga2';
import { SEARCH_CPROB, SEARCH_DEPTH } from '../space/space';
import { InputError } from '../../util/errors';
import { canonicalJson } from '../../util/canonical-json';
import { shippedConfigPath } from '../../util/shipped-config';
import { cliName, suggest } from '../../util/command-hint';

export const CONFIG_FORMAT = 'tune2048/config';

const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const num = (min: number, max: number) => v.pipe(v.number(), v.minValue(min), v.maxValue(max));
/** (min, max]: strictly above min. */
const above = (min: number, max: number) => v.pipe(v.number(), v.gtValue(min), v.maxValue(max));

const paramSpec = v.pipe(
  v.strictObject({
    /** Required for tune2048's own weights; an external player's parameters default to the bounds it announces. */
    min: v.optional(v.number()),
    max: v.optional(v.number()),
    /** log: the optimizer works on ln(value), so min must be > 0. */
    scale: v.optional(v.picklist(['linear', 'log'])),
    /** The start value, instead of the start weights' (required for the parameters of a snake or corner matrix). */
    start: v.optional(v.number()),
  }),
  v.check((p) => p.min === undefined || p.max === undefined || p.max > p.min, 'max must be greater than min'),
  v.check((p) => p.scale === undefined || p.scale === 'linear' || p.min === undefined || p.min > 0, 'a log scale needs min > 0'),
);

const gaSchema = v.pipe(
  v.strictObject({
    kind: v.literal('ga'),
    population: v.optional(int(2, 1000), 16),
    generations: v.optional(int(1, 100000), 20),
    elitism: v.optional(int(0, Number.MAX_SAFE_INTEGER), 2),
    tournament: v.optional(int(1, 64), 3),
    crossover: v.optional(v.picklist(['uniform', 'blend']), 'blend'),
    crossoverRate: v.optional(num(0, 1), 0.7),
    /** BLX-α: children are drawn from the parents' interval widened by α on each side. */
    blendAlpha: v.optional(num(0, 2), 0.3),
    /** Gaussian mutation σ in the normalised [0, 1] space. */
    mutationScale: v.optional(above(0, 1), 0.1),
    /** Probability that each gene mutates. */
    mutationRate: v.optional(num(0, 1), 0.3),
    /** one-fifth: σ grows ×1.22 when more than 1/5 of offspring beat the elites' mean fitness, else shrinks ×0.82. */
    adaptation: v.optional(v.picklist(['none', 'one-fifth']), 'one-fifth'),
    minMutationScale: v.optional(above(0, 1), 0.01),
    maxMutationScale: v.optional(above(0, 1), 0.5),
    /** The first generation: the start point plus Gaussian perturbations of this σ, or uniform in the bounds. */
    init: v.optional(v.picklist(['around-start', 'uniform']), 'around-start'),
    initScale: v.optional(above(0, 1), 0.2),
  }),
  v.forward(v.check((g) => g.elitism < g.population, 'elitism must be smaller than population'), ['elitism']),
  v.forward(v.check((g) => g.tournament <= g.population, 'tournament must not exceed population'), ['tournament']),
  v.forward(v.check((g) => g.minMutationScale <= g.maxMutationScale, 'minMutationScale must not exceed maxMutationScale'), ['minMutationScale']),
);

const cmaesSchema = v.strictObject({
  kind: v.literal('cmaes'),
  /** λ, samples per generation; default 4 + ⌊3 ln n⌋. One more candidate, the distribution mean, is added. */
  population: v.optional(int(2, 1000)),
  generations: v.optional(int(1, 100000), 30),
  /** Initial step size in the normalised [0, 1] space. */
  sigma0: v.optional(above(0, 1), 0.2),
  /** IPOP: restart with twice the population when σ·max(D) falls below tolX or C's condition exceeds 1e12. */
  restarts: v.optional(int(0, 10), 2),
  tolX: v.optional(above(0, 1), 1e-3),
  /**
   * Noise rule: the split-half reliability of a generation (Spearman correlation between the samples' fitness
   * on odd and on even games) below this raises the next generation's games ×1.5, up to maxGames.
   */
  minReliability: v.optional(num(-1, 1), 0.5),
  maxGames: v.optional(int(1, 100000), 1000),
});

const randomSchema = v.pipe(
  v.strictObject({
    kind: v.literal('random'),
    population: v.optional(int(2, 1000), 16),
    generations: v.optional(int(1, 100000), 20),
    /** The best so far, carried over and re-scored on each generation's seeds (so finalists are not lucky draws). */
    elitism: v.optional(int(0, Number.MAX_SAFE_INTEGER), 2),
  }),
  v.forward(v.check((g) => g.elitism < g.population, 'elitism must be smaller than population'), ['elitism']),
);

/** The regression design (src/tuner/optimizers/model-based/regression.ts): every game of a generation fits the slopes at the current point. */
const regressionSchema = v.strictObject({
  kind: v.literal('regression'),
  /** Probes per generation (in antithetic pairs: rounded down to even), beside the current point. */
  population: v.optional(int(2, 1000), 16),
  generations: v.optional(int(1, 100000), 30),
  /** c: the probes' distance from the point along each coordinate, in the normalised [0, 1] space. */
  perturbation: v.optional(above(0, 0.5), 0.1),
  /** The trust region: the first step's length, and its bounds (it halves when a step is taken back, grows ×1.5 when one clearly pays). */
  radius: v.optional(above(0, 1), 0.1),
  minRadius: v.optional(above(0, 1), 0.01),
  maxRadius: v.optional(above(0, 1), 0.5),
  /** Games per candidate at the start: many probes with few games each (fitness.games does not apply). */
  games: v.optional(int(1, 100000), 4),
  /** Games per candidate at most, as the design measures better where no slope shows. */
  maxGames: v.optional(int(1, 100000), 200),
});

/** The surrogate (src/tuner/optimizers/model-based/surrogate.ts): a quadratic response surface over every game played near the current point. */
const surrogateSchema = v.pipe(
  v.strictObject({
    kind: v.literal('surrogate'),
    /** Samples per generation (in antithetic pairs: rounded down to even), beside the current point. */
    population: v.optional(int(2, 1000), 32),
    generations: v.optional(int(1, 100000), 60),
    /** r: the samples' sd around the point along each coordinate, in the normalised [0, 1] space, at the start and its bounds. */
    radius: v.optional(above(0, 1), 0.15),
    minRadius: v.optional(above(0, 1), 0.05),
    maxRadius: v.optional(above(0, 1), 0.5),
    /** How far the fit looks, in radii (a point √n·window radii away weighs e^{−1/2}). */
    window: v.optional(above(0, 100), 1),
    /** Games per candidate: many samples with few games each (fitness.games does not apply; ≥ 2, the noise is measured within a sample). */
    games: v.optional(int(2, 100000), 2),
  }),
  v.forward(v.check((o) => o.minRadius <= o.radius && o.radius <= o.maxRadius, 'radius must lie within [minRadius, maxRadius]'), ['radius']),
);

/** NSGA-II (src/tuner/optimizers/evolutionary/nsga2.ts): a front of strength against cost per move (fitness.cost), not one best. */
const nsga2Schema = v.strictObject({
  kind: v.literal('nsga2'),
  /** N: the population kept, and the offspring each generation. */
  population: v.optional(int(4, 1000), 16),
  generations: v.optional(int(1, 100000), 20),
  /** Probability that two parents are crossed (simulated binary crossover), else the first is copied. */
  crossoverRate: v.optional(num(0, 1), NSGA2_DEFAULTS.crossoverRate),
  /** SBX's distribution index: larger, children nearer their parents. */
  crossoverEta: v.optional(num(0, 1000), NSGA2_DEFAULTS.crossoverEta),
  /** Polynomial mutation's distribution index. */
  mutationEta: v.optional(num(0, 1000), NSGA2_DEFAULTS.mutationEta),
  /** The chance each gene mutates (default 1 / the genes). */
  mutationRate: v.optional(num(0, 1)),
});

/**
 * The model optimizer (src/tuner/optimizers/model-based/model-optimizer.ts): a Gaussian process of strength over every game the run
 * played, candidates drawn from it by Thompson sampling; with fitness.maxCost, the best within that budget.
 */
const modelSchema = v.strictObject({
  kind: v.literal('model'),
  /** Candidates a generation draws from the model, besides its recommendation (played again every generation). */
  population: v.optional(int(1, 1000), 7),
  generations: v.optional(int(1, 100000), 1000),
  /** Games per candidate per generation (≥ 2: the noise is measured within a point). */
  games: v.optional(int(2, 100000), 4),
  /** Points of the first generation's design (a Latin hypercube) besides the start; default 2·(parameters + 1), at least population + 1. */
  initial: v.optional(int(1, 1000)),
  /** The model is fitted to at most this many points, the most recent (a fit's cost grows as the cube of its points). */
  window: v.optional(int(10, 2000), 400),
  /**
   * Lagged proposals, no generation barrier: each point is proposed, and plays, as soon as every point before it
   * but the last `lag` has finished, from their games (tuner.ts loopLagged). Up to lag + 1 points play at once: set
   * it near the number of workers. The run is the same for any number of workers. Absent: whole generations.
   */
  lag: v.optional(int(1, 100000)),
});

/** The points of a two-objective run's front validated when validation.front is absent (no default in the schema: a stored config's hash stays what it was). */
export const FRONT_POINTS = 10;
/** validation.maxCorrelation when absent (no default in the schema, as FRONT_POINTS; docs/results/model-optimizer.md: measured on the synthetic player and the 400,000-game network). */
export const FINALIST_MAX_CORRELATION = 0.95;

/** Optimizers that rank by two objectives (the others by one): NSGA-II, and random search as its baseline. */
export const FRONT_OPTIMIZERS = ['nsga2', 'random'] as const;

/** `kind` may be left out for the genetic algorithm. */
const optimizerSchema = v.pipe(
  v.unknown(),
  v.transform((o) => (o && typeof o === 'object' && !Array.isArray(o) && !('kind' in o) ? { ...o, kind: 'ga' } : o)),
  v.variant('kind', [gaSchema, cmaesSchema, randomSchema, regressionSchema, surrogateSchema, nsga2Schema, modelSchema]),
);

const externalPlayerSchema = v.strictObject({ kind: v.literal('external'), ...externalPlayerFields });
export type ExternalPlayerConfig = v.InferOutput<typeof externalPlayerSchema>;

/** A learned n-tuple network (tune2048 learn export): what sits on it is tuned (src/tuner/space/network-space.ts). */
const networkPlayerSchema = v.strictObject({ kind: v.literal('network'), file: v.pipe(v.string(), v.minLength(1, 'must not be empty')) });
export type NetworkPlayerConfig = v.InferOutput<typeof networkPlayerSchema>;

const syntheticSchema = v.strictObject({
  optimum: v.record(v.string(), v.number()),
  width: v.optional(above(0, 100), SYNTHETIC_DEFAULTS.width),
  peak: v.optional(above(0, 1e9), SYNTHETIC_DEFAULTS.peak),
  floor: v.optional(v.pipe(v.number(), v.minValue(0), v.ltValue(1)), SYNTHETIC_DEFAULTS.floor),
  cv: v.optional(num(0, 2), SYNTHETIC_DEFAULTS.cv),
  gameMs: v.optional(int(0, 600_000), SYNTHETIC_DEFAULTS.gameMs),
  /** A cost per move, for two-objective runs: nodes · e^{growth · the weight's value} (as depth multiplies a search's cost). */
  cost: v.optional(v.strictObject({ weight: v.pipe(v.string(), v.minLength(1, 'must not be empty')), nodes: above(0, 1e12), growth: num(-100, 100), cv: v.optional(num(0, 2)) })),
  /** Two weights of the optimum on a ridge, `ratio` times longer along their sum than across it. */
  ridge: v.optional(v.strictObject({ weights: v.tuple([v.string(), v.string()]), ratio: num(1, 1000) })),
});

const fitnessSchema = v.pipe(
  v.strictObject({
    /** Games per candidate per generation; all candidates of a generation play the same seeds. */
    games: v.optional(int(1, 100000), 16),
    depth: v.optional(v.union([int(0, MAX_DEPTH), v.literal('auto')], `must be "auto" or an integer from 0 to ${MAX_DEPTH}`), 1),
    cprob: v.optional(v.pipe(v.number(), v.minValue(0), v.ltValue(1)), 1e-4),
    objective: v.optional(v.picklist(['mean-score', 'mean-log2-max-tile', 'reach-rate']), 'mean-score'),
    /**
     * The player the weights are tuned for (absent: expectimax), with MCTS's settings (absent: seed 004's); or an
     * external program, { "kind": "external", "name", "command", … } (src/player/external/definition.ts), whose
     * announced parameters are the space (depth, cprob and MCTS's settings are then its own business); or a
     * learned network, { "kind": "network", "file" }, searched at `depth`, its stage weights and cprob the space.
     */
    player: v.optional(v.union([v.picklist(RUN_PLAYER_KINDS), externalPlayerSchema, networkPlayerSchema], 'must be one of ' + RUN_PLAYER_KINDS.join(', ') + ', "external:NAME", { "kind": "external", "name": … (, "command": […]) } or { "kind": "network", "file": … }')),
    /** The synthetic player's landscape and noise (player "synthetic" only; src/player/synthetic.ts). */
    synthetic: v.optional(syntheticSchema),
    iterations: v.optional(int(1, 10_000_000)),
    c: v.optional(num(0, 1000)),
    rolloutDepth: v.optional(int(0, 100_000)),
    /**
     * A budget of fitness games: once a run has played this many, it proposes no further generation and goes
     * on to validation (so optimizers can be compared at equal cost). Absent: run all generations.
     */
    budget: v.optional(int(1, Number.MAX_SAFE_INTEGER)),
    /**
     * Racing (successive halving) inside each generation: the seeds are cut into `rounds` slices; after
     * each slice only the best `keep` fraction of the candidates plays on. Absent: every candidate plays
     * every seed.
     */
    racing: v.optional(
      v.strictObject({
        rounds: int(2, 10),
        keep: v.pipe(v.number(), v.gtValue(0), v.ltValue(1)),
      }),
    ),
    /**
     * A second objective, minimised: the search's cost per move. "nodes": the positions its search expands per
     * move, counted by the search (the same on every worker, machine and resume; ms per move is measured and
     * shown beside it). The run then finds a front of strength against cost (optimizer "nsga2").
     */
    cost: v.optional(v.picklist(['nodes'])),
    /**
     * A ceiling of cost per move (nodes). A two-objective run: a candidate that costs more in its fitness games
     * ranks behind every one within it (the nearer the ceiling, the better: Deb's constrained domination) and
     * is not validated, so the front runs from the cheapest search to the ceiling. The model optimizer: the
     * strongest point within it (the best within a cost ceiling). Absent: no ceiling.
     */
    maxCost: v.optional(above(0, 1e12)),
    /**
     * The model optimizer within a cost ceiling: the probability of keeping within fitness.maxCost, by its model
     * of cost, that a point needs to be recommended or a finalist (absent: 0.9, COST_CONFIDENCE).
     */
    costConfidence: v.optional(v.pipe(v.number(), v.gtValue(0, 'must lie strictly between 0 and 1'), v.ltValue(1, 'must lie strictly between 0 and 1'))),
    /**
     * The decision screen (a learned network only): every `every`-th decision of each fitness game judged by the
     * plain network searched to `depth` — at least as deep as any candidate searches — and candidates ranked by the mean
     * regret of their decisions (the judge's best move's value less the played one's) instead of their scores;
     * held-out games stay scores. docs/tuning.md, "The decision screen".
     */
    screen: v.optional(v.strictObject({ depth: int(1, MAX_DEPTH), cprob: v.optional(v.pipe(v.number(), v.minValue(0), v.ltValue(1)), 1e-4), every: v.optional(int(1, 1_000_000), 20) })),
    /** The tile of the reach-rate objective. */
    reachTile: v.optional(v.pipe(int(4, 32768), v.check((t) => (t & (t - 1)) === 0, 'must be a power of two')), 2048),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const f = dataset.value;
    const at = (key: 'depth' | 'synthetic'): [v.IssuePathItem] => [{ type: 'object', origin: 'value', input: f, key, value: f[key] }];
    if (f.player === 'synthetic' && !f.synthetic) return addIssue({ message: 'the synthetic player needs its landscape: add fitness.synthetic (optimum, …)', path: at('synthetic') });
    if (f.player !== 'synthetic' && f.synthetic) return addIssue({ message: 'is the synthetic player\'s landscape: set fitness.player to "synthetic", or remove it', path: at('synthetic') });
    const landscape = f.synthetic ? landscapeProblem(f.synthetic) : null;
    if (landscape) return addIssue({ message: landscape, path: at('synthetic') });
    const problem = typeof f.player === 'string' && f.player !== 'synthetic' ? playerSettingsProblem(f.player, f.depth) : null;
    if (problem) addIssue({ message: problem, path: at('depth') });
  }),
);

/** redis://HOST:PORT[/DB], checked by the queue's own parser (its message says what is wrong). */
const queueUrl = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    try {
      parseQueueUrl(dataset.value, 'pool.queue');
    } catch (e) {
      addIssue({ message: (e as Error).message });
    }
  }),
);

export const configSchema = v.pipe(v.strictObject({
  format: v.optional(v.literal(CONFIG_FORMAT), CONFIG_FORMAT),
  name: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
  description: v.optional(v.string()),
  seed: v.optional(int(0, 2 ** 32 - 1), 1),
  /** Worker processes; --workers overrides; default: CPU count. */
  workers: v.optional(int(1, 256)),
  space: v.strictObject({
    /**
     * Weights (preset name or file) for everything not tuned, and the search's start point; for an external
     * player, "defaults" (the values it announces) or a parameter file (tune2048/player-params).
     */
    start: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
    /** What is tuned; an external player's may be left out: every parameter it announces. */
    params: v.optional(
      v.pipe(
        v.record(v.string(), paramSpec),
        v.check((p) => Object.keys(p).length > 0, 'name at least one parameter to tune'),
      ),
    ),
    /** How the positional matrix is tuned: full (any matrix[i][j]), symmetric, snake or corner (src/tuner/space/space.ts). */
    matrix: v.optional(v.picklist(['full', 'symmetric', 'snake', 'corner']), 'full'),
    /** Splits the start weights into stages (each beginning as the start), for `stages.<k>.…` parameters. */
    stages: v.optional(
      v.strictObject({
        by: v.picklist(['maxTile', 'tileSum']),
        at: v.pipe(
          v.array(v.pipe(v.number(), v.minValue(1, 'must be ≥ 1'))),
          v.minLength(1, 'name where stages 1, 2, … begin (1 to 3 values)'),
          v.maxLength(3, 'at most 4 stages (3 values)'),
          v.check((a) => a.every((x, i) => i === 0 || x > a[i - 1]), 'must increase'),
        ),
      }),
    ),
  }),
  optimizer: v.optional(optimizerSchema, { kind: 'ga' }),
  fitness: v.optional(fitnessSchema, {}),
  validation: v.optional(
    v.strictObject({
      /** The best few of the last generation by fitness (the model optimizer: by its predicted mean), validated on held-out seeds. */
      finalists: v.optional(int(1, 100), 3),
      /**
       * The model optimizer: no two finalists whose means its posterior correlates above this (1: the model
       * cannot tell them apart). Neighbours in a flat direction play the same games, and a race of them races
       * one player; 1 takes the best predicted however alike. Absent: FINALIST_MAX_CORRELATION.
       */
      maxCorrelation: v.optional(v.pipe(v.number(), v.gtValue(0), v.maxValue(1))),
      /** A two-objective run: at most this many points of the run's front (the most spread), validated with the start (absent: FRONT_POINTS). */
      front: v.optional(int(2, 100)),
      games: v.optional(int(1, 1_000_000), 100),
      /**
       * The finalists and the start raced over the held-out seeds (successive halving): the seeds cut into
       * `rounds` slices, after each only the best `keep` fraction by their held-out games so far plays on; the
       * best of those that played every slice wins. Absent: every one plays every held-out seed.
       */
      race: v.optional(v.strictObject({ rounds: int(2, 10), keep: v.pipe(v.number(), v.gtValue(0), v.ltValue(1)) })),
      /**
       * Games of a second held-out set played by the winner and the start: the winner of a best-of-k on one
       * set carries that set's luck, a second set does not. Its value is the run's validated value, and the
       * winner stands unless the start does better there. Absent: no second set.
       */
      confirm: v.optional(int(1, 1_000_000)),
    }),
    {},
  ),
  pool: v.optional(
    v.strictObject({
      /** Games per worker call (one candidate each). */
      batchGames: v.optional(int(1, 10000), 8),
      /** A call running longer is killed and re-queued. */
      batchTimeoutSec: v.optional(above(0, 86400), 600),
      /** Re-tries of a batch whose worker died or hung, before the run stops with an error. */
      retries: v.optional(int(0, 20), 2),
      /** redis://HOST:PORT[/DB]: play through BullMQ on this Redis (`tune2048 worker` on each machine) instead of local processes. */
      queue: v.optional(queueUrl),
    }),
    {},
  ),
  /** false keeps elites' old fitness instead of re-scoring them on the new seeds (an ablation; not advised). */
  reevaluateElites: v.optional(v.boolean(), true),
}), v.rawCheck(({ dataset, addIssue }) => {
  if (!dataset.typed) return;
  const c = dataset.value;
  if (!externalPlayerOf(c) && !networkPlayerOf(c) && !c.space.params) addIssue({ message: 'name at least one parameter to tune', path: [{ type: 'object', origin: 'value', input: c.space, key: 'params', value: undefined }] });
  const screen = screenProblem(c);
  if (screen) addIssue({ message: screen, path: [{ type: 'object', origin: 'value', input: c, key: 'fitness', value: c.fitness }, { type: 'object', origin: 'value', input: c.fitness, key: 'screen', value: c.fitness.screen }] });
  // Only the model holds points alike; another optimizer's finalists are its last generation's best.
  if (c.validation.maxCorrelation !== undefined && c.optimizer.kind !== 'model') addIssue({ message: `keeps the model optimizer's finalists apart; optimizer "${c.optimizer.kind}" has no model to tie them (remove validation.maxCorrelation)`, path: [{ type: 'object', origin: 'value', input: c, key: 'validation', value: c.validation }, { type: 'object', origin: 'value', input: c.validation, key: 'maxCorrelation', value: c.validation.maxCorrelation }] });
  const lagged = lagProblem(c);
  if (lagged) addIssue({ message: lagged, path: [{ type: 'object', origin: 'value', input: c, key: 'optimizer', value: c.optimizer }, { type: 'object', origin: 'value', input: c.optimizer, key: 'lag', value: (c.optimizer as { lag?: number }).lag }] });
  const problem = objectivesProblem(c);
  if (problem) {
    const [section, key] = problem.at;
    const parent = c[section] as Record<string, unknown>;
    addIssue({ message: problem.message, path: [{ type: 'object', origin: 'value', input: c, key: section, value: parent }, { type: 'object', origin: 'value', input: parent, key, value: parent[key] }] });
  }
}));

/** What is wrong with a lagged run, or null: each point plays alone (no rivals to race), and the lag must leave points to propose from data. */
function lagProblem(c: RunConfig): string | null {
  const o = c.optimizer;
  if (o.kind !== 'model' || o.lag === undefined) return null;
  if (c.fitness.racing) return 'lagged points play alone, with no rivals to race: remove fitness.racing or optimizer.lag';
  const points = plannedGenerations(c);
  // The model needs 3 finished points: point k is the first it can propose where k − lag ≥ 3.
  if (o.lag > points - 4) return `${o.lag} leaves no point to be proposed from a model among the run's ${points} (${c.fitness.budget !== undefined ? `fitness.budget ${c.fitness.budget} / optimizer.games ${o.games}` : `optimizer.generations ${o.generations} × (population ${o.population} + 1)`}): a point is proposed from the points before it but the last lag, and the model needs 3 of them; set it near the number of workers`;
  return null;
}

/**
 * What is wrong with a run's decision screen, or null: it judges a network's settings by that network searched
 * deeper, so it needs a network player, a fixed depth, the score objective it stands in for, and a judge at least
 * as deep as the deepest search of the space (its depth bound, one more where the depth rule can go deeper).
 */
function screenProblem(c: { space: { params?: Record<string, { min?: number; max?: number }> }; fitness: { screen?: { depth: number }; player?: unknown; depth: number | 'auto'; objective: string } }): string | null {
  const { screen } = c.fitness;
  if (!screen) return null;
  if ((c.fitness.player as { kind?: string } | undefined)?.kind !== 'network') return 'the decision screen judges a learned network\'s settings by that network searched deeper: fitness.player must be { "kind": "network", "file": … }';
  if (c.fitness.depth === 'auto') return 'the decision screen needs a fixed fitness.depth (its judge must search deeper than every candidate)';
  if (c.fitness.objective !== 'mean-score') return `the decision screen ranks candidates by regret in place of the score: remove fitness.objective "${c.fitness.objective}"`;
  const deepest = (c.space.params?.depth?.max ?? c.fitness.depth) + ((c.space.params?.['depthRule.deeperAtEmpty']?.max ?? -1) >= 0 ? 1 : 0);
  // A judge shallower than a candidate would count that candidate's deeper choices as mistakes. At the same depth
  // a candidate that searches as deep everywhere is the judge (no regret): its cost, not the screen, holds it back.
  if (screen.depth < deepest) return `depth ${screen.depth} judges from below: candidates of this space search to depth ${deepest}; the judge needs at least ${deepest}`;
  return null;
}

/** Players whose search counts the positions it expands (Player.searchNodes), or draws a cost (synthetic); an external player may announce one. */
const COUNTED_PLAYERS: readonly string[] = ['expectimax', 'network', 'synthetic'];

/** What is wrong with a run's objectives (one or two, and who ranks them), or null. */
function objectivesProblem(c: { optimizer: { kind: string; elitism?: number }; reevaluateElites: boolean; fitness: { cost?: string; maxCost?: number; costConfidence?: number; player?: unknown; racing?: unknown; synthetic?: { cost?: unknown } } }): { message: string; at: ['optimizer' | 'fitness', string] } | null {
  const { cost, player, racing, maxCost } = c.fitness;
  const kind = c.optimizer.kind;
  if (kind === 'model' && racing) return { message: 'the model ranks candidates by every game of the run, not by their own few: remove fitness.racing (its finalists are raced at the end: validation.race)', at: ['fitness', 'racing'] };
  if (c.fitness.costConfidence !== undefined && (kind !== 'model' || maxCost === undefined)) return { message: 'is the model optimizer\'s confidence of keeping within fitness.maxCost: it needs optimizer.kind "model" and fitness.maxCost (or remove it)', at: ['fitness', 'costConfidence'] };
  if (!cost && maxCost !== undefined) return { message: 'a cost ceiling needs a cost to measure: set fitness.cost to "nodes" (with optimizer.kind "model" for the best within the ceiling, or "nsga2" for the front up to it), or remove fitness.maxCost', at: ['fitness', 'maxCost'] };
  if (!cost) return kind === 'nsga2' ? { message: 'NSGA-II ranks by strength and cost: set fitness.cost to "nodes" (or choose a one-objective optimizer)', at: ['optimizer', 'kind'] } : null;
  const front = (FRONT_OPTIMIZERS as readonly string[]).includes(kind);
  if (kind === 'model' && maxCost === undefined) return { message: 'the model optimizer weighs cost against a ceiling: set fitness.maxCost (the best within it), or use optimizer.kind "nsga2" for the whole front of strength against cost', at: ['fitness', 'cost'] };
  if (!front && kind !== 'model') return { message: `a second objective needs an optimizer that ranks by two: optimizer.kind "nsga2" (or "random" as its baseline); "${kind}" ranks by one (or keep within a budget: optimizer.kind "model" with fitness.maxCost)`, at: ['fitness', 'cost'] };
  if (racing) return { message: 'racing drops candidates by strength alone: a two-objective run plays every candidate\'s games (remove fitness.racing)', at: ['fitness', 'racing'] };
  // An elite that keeps its parent's fitness plays no games, so it would have no cost of its own to rank by.
  if (!c.reevaluateElites && (c.optimizer.elitism ?? 0) > 0) return { message: 'a two-objective run measures its elites again (their cost comes from their games): remove "reevaluateElites": false, or set optimizer.elitism to 0', at: ['optimizer', 'elitism'] };
  const name = player === undefined ? 'expectimax' : typeof player === 'string' ? player : (player as { kind: string }).kind;
  if (name === 'external') return null; // whether it reports a cost is in its announcement (checked when the run is prepared)
  if (!COUNTED_PLAYERS.includes(name)) return { message: `the ${name} player does not count the positions it searches: fitness.cost "nodes" (and a budget, fitness.maxCost) is for expectimax, a network and the synthetic player`, at: ['fitness', 'cost'] };
  if (name === 'synthetic' && !c.fitness.synthetic?.cost) return { message: 'the synthetic player draws a cost only with its landscape\'s cost: add fitness.synthetic.cost ({ "weight", "nodes", "growth" })', at: ['fitness', 'cost'] };
  return null;
}

/** The external player a config tunes, or null. */
/** The kind of player a run tunes: a built-in kind's name, "external" or "network". */
export function playerKindOf(config: Pick<RunConfig, 'fitness'>): string {
  return externalPlayerOf(config) ? 'external' : networkPlayerOf(config) ? 'network' : ((config.fitness.player as string | undefined) ?? 'expectimax');
}

/** A lagged run's lag (optimizer.lag), or undefined for a run of generations. */
export function lagOf(config: Pick<RunConfig, 'optimizer'>): number | undefined {
  return config.optimizer.kind === 'model' ? config.optimizer.lag : undefined;
}

/**
 * The generations a run plans: optimizer.generations; a lagged run's points (a generation of one each):
 * generations × (population + 1), the games of as many generations, or what fitness.budget pays for if fewer.
 */
export function plannedGenerations(config: Pick<RunConfig, 'optimizer' | 'fitness'>): number {
  const o = config.optimizer;
  if (o.kind !== 'model' || o.lag === undefined) return o.generations;
  const points = o.generations * (o.population + 1);
  return config.fitness.budget === undefined ? points : Math.min(points, Math.floor(config.fitness.budget / o.games));
}

export function externalPlayerOf(config: Pick<RunConfig, 'fitness'>): ExternalPlayerConfig | null {
  const p = config.fitness.player;
  return typeof p === 'object' && p.kind === 'external' ? p : null;
}

/** The network a config tunes on, or null. */
export function networkPlayerOf(config: Pick<RunConfig, 'fitness'>): NetworkPlayerConfig | null {
  const p = config.fitness.player;
  return typeof p === 'object' && p.kind === 'network' ? p : null;
}


export type RunConfig = v.InferOutput<typeof configSchema>;
export type OptimizerConfig = RunConfig['optimizer'];
export type GaConfig = Extract<OptimizerConfig, { kind: 'ga' }>;
export type CmaesConfig = Extract<OptimizerConfig, { kind: 'cmaes' }>;
export type RandomConfig = Extract<OptimizerConfig, { kind: 'random' }>;
export type RegressionConfig = Extract<OptimizerConfig, { kind: 'regression' }>;
export type SurrogateConfig = Extract<OptimizerConfig, { kind: 'surrogate' }>;
export type Nsga2OptimizerConfig = Extract<OptimizerConfig, { kind: 'nsga2' }>;
export type ModelConfig = Extract<OptimizerConfig, { kind: 'model' }> & { initial: number };

/**
 * A player named as the CLI names it, "external:NAME" (or { "kind": "external", "name": NAME } without a
 * command), becomes its whole definition (configs/players/NAME.json, or a player file's path): the stored
 * config then holds the command it ran, so a resume runs the same program wherever it is.
 */
function expandNamedPlayer(data: unknown, origin: string): unknown {
  const fitness = (data as { fitness?: { player?: unknown } } | null)?.fitness;
  const player = fitness?.player;
  const name = typeof player === 'string' && player.startsWith('external:') ? player.slice('external:'.length) : player && typeof player === 'object' && (player as { kind?: unknown }).kind === 'external' && !('command' in player) && Object.keys(player).every((k) => k === 'kind' || k === 'name') ? (player as { name?: unknown }).name : null;
  if (name === null || name === undefined) return data;
  if (typeof name !== 'string' || name === '') throw new InputError(`${origin}: field "fitness.player": name the external player (external:NAME, NAME in configs/players or a player file's path)`);
  let definition: ExternalPlayerDefinition;
  try {
    definition = resolveExternalPlayer(name);
  } catch (e) {
    throw new InputError(`${origin}: field "fitness.player": ${(e as Error).message}`);
  }
  const { command, cwd, build } = definition.declared;
  return { ...(data as object), fitness: { ...fitness, player: { kind: 'external', name: definition.name, command, cwd, timeoutSec: definition.launch.timeoutSec, nondeterministic: definition.nondeterministic, ...(build ? { build } : {}) } } };
}

export function parseConfig(data: unknown, origin = 'config'): RunConfig {
  const result = v.safeParse(configSchema, expandNamedPlayer(data, origin));
  if (!result.success) throw new InputError(`${origin}: ${describeIssues(result.issues, configSchema)}`);
  const config = result.output;
  searchDepthParam(config, origin);
  searchCprobParam(config, origin);
  // tune2048's own weights are linear unless said (as ever: a stored config and its hash stay what they were);
  // an external player's parameters take the scale it announces.
  if (!externalPlayerOf(config) && !networkPlayerOf(config)) {
    const params = config.space.params!;
    for (const name of Object.keys(params)) {
      const { min, max, scale, start } = params[name];
      params[name] = { min, max, scale: scale ?? 'linear', ...(start !== undefined ? { start } : {}) };
    }
  }
  return config;
}

/**
 * space.params.depth, the search depth as a tuned parameter (tune2048's own players): whole numbers within
 * 0–MAX_DEPTH, linear, starting at fitness.depth (written into the config, so the stored run holds it).
 */
function searchDepthParam(config: RunConfig, origin: string): void {
  const spec = config.space.params?.[SEARCH_DEPTH];
  if (!spec || externalPlayerOf(config)) return; // an external player's "depth" is its own announced parameter
  const fail = (why: string) => {
    throw new InputError(`${origin}: field "space.params.depth": ${why}`);
  };
  const depth = config.fitness.depth;
  if (depth === 'auto') fail('tunes the search depth from fitness.depth, and "auto" gives none to start from: set fitness.depth to a number');
  if (spec.min === undefined || spec.max === undefined) fail('give its "min" and "max" (whole depths)');
  if (!Number.isInteger(spec.min) || !Number.isInteger(spec.max) || spec.min! < 0 || spec.max! > MAX_DEPTH) fail(`min and max are whole depths from 0 to ${MAX_DEPTH}`);
  if (spec.scale === 'log') fail('a depth is tuned on a linear scale');
  const start = spec.start ?? (depth as number);
  if (!Number.isInteger(start) || start < spec.min! || start > spec.max!) fail(`the start depth ${start} is outside [${spec.min}, ${spec.max}] (or not whole)`);
  config.space.params![SEARCH_DEPTH] = { min: spec.min, max: spec.max, scale: 'linear', start };
}

/** space.params.cprob of tune2048's heuristic: the search's cutoff, in [0, 1), starting at fitness.cprob (a network's is its space's own). */
function searchCprobParam(config: RunConfig, origin: string): void {
  const spec = config.space.params?.[SEARCH_CPROB];
  if (!spec || externalPlayerOf(config) || networkPlayerOf(config)) return;
  const fail = (why: string) => {
    throw new InputError(`${origin}: field "space.params.cprob": ${why}`);
  };
  if (spec.min === undefined || spec.max === undefined) fail('give its "min" and "max"');
  if (spec.min! < 0 || spec.max! >= 1) fail(`[${spec.min}, ${spec.max}] must lie in [0, 1)`);
  const start = spec.start ?? config.fitness.cprob;
  if (start < spec.min! || start > spec.max!) fail(`the start ${start} (fitness.cprob) is outside [${spec.min}, ${spec.max}]`);
  config.space.params![SEARCH_CPROB] = { min: spec.min, max: spec.max, scale: spec.scale ?? 'linear', start };
}

/**
 * A run config by path or shipped name, its files resolved. `network` (tune and race's --network, a path
 * from the working folder) replaces the network a config's player names: a shipped network config names
 * where the docs export one, and a user tunes on their own.
 */
/** How messages name a config given by path or shipped name: `config "configs/quick.json"`. */
export function configOrigin(ref: string): string {
  return `config "${shippedConfigPath(ref, 'tuning')}"`;
}

export function loadConfig(ref: string, { network: networkFile }: { network?: string } = {}): RunConfig {
  const path = shippedConfigPath(ref, 'tuning');
  const data = readJsonFile(path, 'config file');
  if ((data as { format?: unknown } | null)?.format === 'tune2048/learn') throw new InputError(`config "${path}" is a learning config: run it with ${suggest(['learn', 'start', '-c', path])}`);
  const config = parseConfig(data, `config "${path}"`);
  refuseKeysWithoutEffect(data, config, `config "${path}"`);
  // An external player's folder is the config's (as a player file's is its own); stored absolute, so a run resumes from anywhere.
  const external = externalPlayerOf(config);
  if (external) external.cwd = resolve(dirname(resolve(path)), external.cwd ?? '.');
  // A network's file, and a network player file as the start, are the config's folder's too.
  const network = networkPlayerOf(config);
  if (networkFile !== undefined && !network) throw new InputError(`--network "${networkFile}": config "${path}" does not tune on a network (its fitness.player is ${externalPlayerOf(config) ? 'an external player' : config.fitness.player ?? 'expectimax'}): give it with a config whose player is { "kind": "network", … }`);
  if (network) {
    network.file = networkFile !== undefined ? resolve(networkFile) : resolve(dirname(resolve(path)), network.file);
    if (config.space.start !== 'defaults') config.space.start = resolve(dirname(resolve(path)), config.space.start);
    if (networkFile === undefined && !existsSync(network.file)) throw new InputError(`config "${path}" tunes on the network "${network.file}", which does not exist: give yours with --network FILE (${cliName()} learn export RUN --out FILE writes one)`);
  }
  return config;
}

/** fitness keys that configure tune2048's own search or MCTS: an external program plays as it decides, and they would do nothing. */
const OWN_SEARCH_KEYS = ['depth', 'cprob', 'iterations', 'c', 'rolloutDepth'] as const;
/** The fitness section's defaults (read once, from its schema). */
let fitnessDefaults: Record<string, unknown> | null = null;
/** fitness keys of MCTS's search only. */
const MCTS_KEYS = ['iterations', 'c', 'rolloutDepth'] as const;

/**
 * Every key a config writes acts (read from the file as written: the schema's defaults fill them in after).
 * Refused, naming the key and why: tune2048's search keys for an external player, MCTS's keys for another
 * player, space.matrix where no parameter is a matrix's, fitness.reachTile without the reach-rate objective.
 */
export function refuseKeysWithoutEffect(data: unknown, config: RunConfig, origin: string): void {
  const written = (data ?? {}) as { fitness?: Record<string, unknown>; space?: Record<string, unknown> };
  // A key at its default says nothing (a config written out after parsing holds every default): only other values count.
  fitnessDefaults ??= v.parse(fitnessSchema, {}) as Record<string, unknown>;
  const rawFitness = written.fitness && typeof written.fitness === 'object' ? written.fitness : {};
  const fitness = Object.fromEntries(Object.entries(rawFitness).filter(([k, value]) => value !== fitnessDefaults![k]));
  const rawSpace = written.space && typeof written.space === 'object' ? written.space : {};
  const space = Object.fromEntries(Object.entries(rawSpace).filter(([k, value]) => !(k === 'matrix' && value === 'full')));
  const external = externalPlayerOf(config);
  const searchKey = external ? OWN_SEARCH_KEYS.find((k) => k in fitness) : undefined;
  if (searchKey) throw new InputError(`${origin}: field "fitness.${searchKey}": sets tune2048's own search, and an external player searches as its program decides, so it would do nothing: remove it (a setting of the program's own is one of its announced parameters, tuned in space.params or fixed by its start values)`);
  const kind = playerKindOf(config);
  // Plain MCTS plays random rollouts (no search of depth or cutoff); minimax searches to its depth, with no cutoff.
  const unsearched = kind === 'mcts' ? (['depth', 'cprob'] as const).find((k) => k in fitness) : kind === 'minimax' && 'cprob' in fitness ? 'cprob' : undefined;
  if (unsearched) throw new InputError(`${origin}: field "fitness.${unsearched}": ${kind === 'mcts' ? "plain MCTS's rollouts are random moves, with no search" : 'minimax searches every reply to its depth, with no probability cutoff'}, so it would do nothing: remove it${kind === 'mcts' ? ' (or play "mcts-emm", whose rollouts are expectimax at fitness.depth and fitness.cprob)' : ''}`);
  const mctsKey = kind !== 'mcts' && kind !== 'mcts-emm' ? MCTS_KEYS.find((k) => k in fitness) : undefined;
  if (mctsKey) throw new InputError(`${origin}: field "fitness.${mctsKey}": sets MCTS's search (fitness.player "mcts" or "mcts-emm"), and this run's player is ${kind}, so it would do nothing: remove it`);
  // A network's or an external program's space holds no heuristic matrix or stages of tune2048's own.
  const ownHeuristic = kind !== 'external' && kind !== 'network';
  const spaceKey = ownHeuristic ? undefined : (['matrix', 'stages'] as const).find((k) => k in space);
  if (spaceKey) throw new InputError(`${origin}: field "space.${spaceKey}": shapes tune2048's own heuristic, and this run tunes ${kind === 'network' ? "a network's search settings" : "an external program's parameters"}, so it would do nothing: remove it`);
  const matrixParam = (name: string) => /(^|\.)matrix(\[[0-3]\]\[[0-3]\]|\.(amplitude|base|rowExp|colExp))$/.test(name);
  if ('matrix' in space && !Object.keys(config.space.params ?? {}).some(matrixParam)) {
    throw new InputError(`${origin}: field "space.matrix": says how the positional matrix's parameters are tuned, and no parameter of space.params is one (matrix[i][j], or matrix.amplitude … for snake and corner), so it would do nothing: remove it or name the matrix's parameters`);
  }
  if ('reachTile' in fitness && config.fitness.objective !== 'reach-rate') {
    throw new InputError(`${origin}: field "fitness.reachTile": the tile of the reach-rate objective, and this run's objective is ${config.fitness.objective}, so it would do nothing: remove it or set "objective": "reach-rate"`);
  }
}

export function configHash(config: RunConfig): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex').slice(0, 16);
}
