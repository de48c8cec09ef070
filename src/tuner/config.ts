/**
 * Run configs: the parameter space, the optimizer, the fitness, validation.
 * Everything but the space has a default; unknown keys, wrong types and
 * out-of-range values each get one error naming the key.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseQueueUrl } from '../runner/queue-url';
import { PLAYER_KINDS, playerSettingsProblem } from '../player/spec';
import { readJsonFile } from '../heuristic/weights';
import { MAX_DEPTH } from '../player/limits';
import { InputError } from '../util/errors';
import { canonicalJson } from '../util/canonical-json';

export const CONFIG_FORMAT = 'tune2048/config';

const paramSpec = z
  .object({
    min: z.number(),
    max: z.number(),
    /** log: the optimizer works on ln(value), so min must be > 0. */
    scale: z.enum(['linear', 'log']).default('linear'),
    /** The start value, instead of the start weights' (required for the parameters of a snake or corner matrix). */
    start: z.number().optional(),
  })
  .strict()
  .refine((p) => p.max > p.min, { message: 'max must be greater than min' })
  .refine((p) => p.scale === 'linear' || p.min > 0, { message: 'a log scale needs min > 0' });

const gaSchema = z
  .object({
    kind: z.literal('ga'),
    population: z.number().int().min(2).max(1000).default(16),
    generations: z.number().int().min(1).max(100000).default(20),
    elitism: z.number().int().min(0).default(2),
    tournament: z.number().int().min(1).max(64).default(3),
    crossover: z.enum(['uniform', 'blend']).default('blend'),
    crossoverRate: z.number().min(0).max(1).default(0.7),
    /** BLX-α: children are drawn from the parents' interval widened by α on each side. */
    blendAlpha: z.number().min(0).max(2).default(0.3),
    /** Gaussian mutation σ in the normalised [0, 1] space. */
    mutationScale: z.number().gt(0).max(1).default(0.1),
    /** Probability that each gene mutates. */
    mutationRate: z.number().min(0).max(1).default(0.3),
    /** one-fifth: σ grows ×1.22 when more than 1/5 of offspring beat the elites' mean fitness, else shrinks ×0.82. */
    adaptation: z.enum(['none', 'one-fifth']).default('one-fifth'),
    minMutationScale: z.number().gt(0).max(1).default(0.01),
    maxMutationScale: z.number().gt(0).max(1).default(0.5),
    /** The first generation: the start point plus Gaussian perturbations of this σ, or uniform in the bounds. */
    init: z.enum(['around-start', 'uniform']).default('around-start'),
    initScale: z.number().gt(0).max(1).default(0.2),
  })
  .strict()
  .refine((g) => g.elitism < g.population, { message: 'elitism must be smaller than population', path: ['elitism'] })
  .refine((g) => g.tournament <= g.population, { message: 'tournament must not exceed population', path: ['tournament'] })
  .refine((g) => g.minMutationScale <= g.maxMutationScale, { message: 'minMutationScale must not exceed maxMutationScale', path: ['minMutationScale'] });

const cmaesSchema = z
  .object({
    kind: z.literal('cmaes'),
    /** λ, samples per generation; default 4 + ⌊3 ln n⌋. One more candidate, the distribution mean, is added. */
    population: z.number().int().min(2).max(1000).optional(),
    generations: z.number().int().min(1).max(100000).default(30),
    /** Initial step size in the normalised [0, 1] space. */
    sigma0: z.number().gt(0).max(1).default(0.2),
    /** IPOP: restart with twice the population when σ·max(D) falls below tolX or C's condition exceeds 1e12. */
    restarts: z.number().int().min(0).max(10).default(2),
    tolX: z.number().gt(0).max(1).default(1e-3),
    /**
     * Noise rule: the split-half reliability of a generation (Spearman correlation between the samples' fitness
     * on odd and on even games) below this raises the next generation's games ×1.5, up to maxGames.
     */
    minReliability: z.number().min(-1).max(1).default(0.5),
    maxGames: z.number().int().min(1).max(100000).default(1000),
  })
  .strict();

const randomSchema = z
  .object({
    kind: z.literal('random'),
    population: z.number().int().min(2).max(1000).default(16),
    generations: z.number().int().min(1).max(100000).default(20),
    /** The best so far, carried over and re-scored on each generation's seeds (so finalists are not lucky draws). */
    elitism: z.number().int().min(0).default(2),
  })
  .strict()
  .refine((g) => g.elitism < g.population, { message: 'elitism must be smaller than population', path: ['elitism'] });

/** `kind` may be left out for the genetic algorithm. */
const optimizerSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && !('kind' in v) ? { ...v, kind: 'ga' } : v),
  z.discriminatedUnion('kind', [gaSchema, cmaesSchema, randomSchema]),
);

const fitnessSchema = z
  .object({
    /** Games per candidate per generation; all candidates of a generation play the same seeds. */
    games: z.number().int().min(1).max(100000).default(16),
    depth: z.union([z.number().int().min(0).max(MAX_DEPTH), z.literal('auto')]).default(1),
    cprob: z.number().min(0).lt(1).default(1e-4),
    objective: z.enum(['mean-score', 'mean-log2-max-tile', 'reach-rate']).default('mean-score'),
    /** The player the weights are tuned for (absent: expectimax), with MCTS's settings (absent: seed 004's). */
    player: z.enum(PLAYER_KINDS).optional(),
    iterations: z.number().int().min(1).max(10_000_000).optional(),
    c: z.number().min(0).max(1000).optional(),
    rolloutDepth: z.number().int().min(0).max(100_000).optional(),
    /**
     * A budget of fitness games: once a run has played this many, it proposes no further generation and goes
     * on to validation (so optimizers can be compared at equal cost). Absent: run all generations.
     */
    budget: z.number().int().min(1).optional(),
    /**
     * Racing (successive halving) inside each generation: the seeds are cut into `rounds` slices; after
     * each slice only the best `keep` fraction of the candidates plays on. Absent: every candidate plays
     * every seed.
     */
    racing: z
      .object({
        rounds: z.number().int().min(2).max(10),
        keep: z.number().gt(0).lt(1),
      })
      .strict()
      .optional(),
    /** The tile of the reach-rate objective. */
    reachTile: z.number().int().min(4).max(32768).refine((t) => (t & (t - 1)) === 0, 'must be a power of two').default(2048),
  })
  .strict()
  .superRefine((f, ctx) => {
    const problem = f.player ? playerSettingsProblem(f.player, f.depth) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['depth'], message: problem });
  });

export const configSchema = z
  .object({
    format: z.literal(CONFIG_FORMAT).default(CONFIG_FORMAT),
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    seed: z.number().int().min(0).max(2 ** 32 - 1).default(1),
    /** Worker processes; --workers overrides; default: CPU count. */
    workers: z.number().int().min(1).max(256).optional(),
    space: z
      .object({
        /** Weights (preset name or file) for everything not tuned, and the search's start point. */
        start: z.string().min(1),
        params: z.record(z.string(), paramSpec).refine((p) => Object.keys(p).length > 0, 'name at least one parameter to tune'),
        /** How the positional matrix is tuned: full (any matrix[i][j]), symmetric, snake or corner (src/tuner/space.ts). */
        matrix: z.enum(['full', 'symmetric', 'snake', 'corner']).default('full'),
      })
      .strict(),
    optimizer: optimizerSchema.prefault({ kind: 'ga' }),
    fitness: fitnessSchema.default(fitnessSchema.parse({})),
    validation: z
      .object({
        /** The best few of the last generation by fitness, validated on held-out seeds. */
        finalists: z.number().int().min(1).max(100).default(3),
        games: z.number().int().min(1).max(1_000_000).default(100),
      })
      .strict()
      .default({ finalists: 3, games: 100 }),
    pool: z
      .object({
        /** Games per worker call (one candidate each). */
        batchGames: z.number().int().min(1).max(10000).default(8),
        /** A call running longer is killed and re-queued. */
        batchTimeoutSec: z.number().gt(0).max(86400).default(600),
        /** Re-tries of a batch whose worker died or hung, before the run stops with an error. */
        retries: z.number().int().min(0).max(20).default(2),
        /** redis://HOST:PORT[/DB]: play through BullMQ on this Redis (`tune2048 worker` on each machine) instead of local processes. */
        queue: z
          .string()
          .superRefine((v, ctx) => {
            try {
              parseQueueUrl(v, 'pool.queue');
            } catch (e) {
              ctx.addIssue({ code: 'custom', message: (e as Error).message });
            }
          })
          .optional(),
      })
      .strict()
      .default({ batchGames: 8, batchTimeoutSec: 600, retries: 2 }),
    /** false keeps elites' old fitness instead of re-scoring them on the new seeds (an ablation; not advised). */
    reevaluateElites: z.boolean().default(true),
  })
  .strict();

export type RunConfig = z.infer<typeof configSchema>;
export type OptimizerConfig = RunConfig['optimizer'];
export type GaConfig = Extract<OptimizerConfig, { kind: 'ga' }>;
export type CmaesConfig = Extract<OptimizerConfig, { kind: 'cmaes' }>;
export type RandomConfig = Extract<OptimizerConfig, { kind: 'random' }>;

/** Formats the first problem zod found as "field "a.b": message". */
function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length > 0 ? `field "${issue.path.map(String).join('.')}"` : 'top level';
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') message = `unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return `${where}: ${message}`;
}

export function parseConfig(data: unknown, origin = 'config'): RunConfig {
  const result = configSchema.safeParse(data);
  if (!result.success) throw new InputError(`${origin}: ${describeZodError(result.error)}`);
  return result.data;
}

export function loadConfig(path: string): RunConfig {
  return parseConfig(readJsonFile(path, 'config file'), `config "${path}"`);
}

export function configHash(config: RunConfig): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex').slice(0, 16);
}
