/**
 * A learning config (tune2048 learn): how a line network is trained. Checked like a run config: one line
 * naming the field, nothing written.
 */
import * as v from 'valibot';
import { readJsonFile } from '../util/json-file';
import { describeIssues } from '../util/valibot-issues';
import { InputError } from '../util/errors';
import { isTile } from '../engine/board';
import { checkShape, DEFAULT_TUPLES, ONE_STAGE, type NetworkShape } from './ntuple/shape';
import { shippedConfigPath } from '../util/shipped-config';
import { suggest } from '../util/command-hint';

export const LEARN_FORMAT = 'tune2048/learn';

const count = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'));

export const learnConfigSchema = v.strictObject({
  format: v.literal(LEARN_FORMAT),
  name: v.pipe(v.string(), v.minLength(1)),
  description: v.optional(v.string()),
  /** Training game g is played on seed `seed + g`. */
  seed: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(2 ** 31 - 1)),
  /** Training games in all (resume goes on to this many). */
  games: count,
  /** The TD(0) step on a board's value per unit of error (spread over its table reads: 8 per tuple). */
  learningRate: v.pipe(v.number(), v.gtValue(0, 'must be above 0'), v.maxValue(1, 'must be at most 1 (larger steps diverge)')),
  /**
   * A schedule (n-tuple networks): from game `games` on, train at `learningRate` (each after the one before;
   * `learn resume --learning-rate R` adds one at the run's latest checkpoint). A step too large for a
   * network's settled values only stirs them: a smaller one later lets them settle.
   */
  rateChanges: v.optional(
    v.array(
      v.strictObject({
        games: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1')),
        learningRate: v.pipe(v.number(), v.gtValue(0, 'must be above 0'), v.maxValue(1, 'must be at most 1 (larger steps diverge)')),
      }),
    ),
  ),
  /**
   * Temporal coherence learning (n-tuple networks; Beal & Smith 1999, Jaśkowski 2018): each entry's step is
   * the learning rate times |E| / A, E the sum of that entry's past errors and A the sum of their sizes (1
   * before its first update): an entry learns fast while its errors keep one sign and settles when they
   * cancel, so no rate schedule is needed (the usual rate is then 1). Two accumulators per entry: the
   * tables' memory three times over, and each checkpoint writes them beside the network file.
   */
  coherence: v.optional(v.boolean()),
  /**
   * TD(λ) (n-tuple networks): each episode is played first, then learned backward from its end, every
   * afterstate toward its λ-return (as ziap/2048-tdl; 0.5 in the published runs). Absent: TD(0) online, each
   * afterstate updated as the game goes.
   */
  lambda: v.optional(v.pipe(v.number(), v.minValue(0, 'must be from 0 to 1'), v.maxValue(1, 'must be from 0 to 1'))),
  /**
   * Restarts (n-tuple networks; Matsuzaki 2017, ziap/2048-tdl): after a training game's first episode, the
   * next starts from a board of the one before (a spawn on the afterstate `at` of the way along its path:
   * its middle by default), while that episode made more than `minMoves` moves and at most `maxInRow`
   * times in a row, so the late game, rare in whole games, is learned from many more positions. A training
   * game is its first episode and every restart after it.
   */
  restarts: v.optional(
    v.strictObject({
      at: v.optional(v.pipe(v.number(), v.gtValue(0, 'must be above 0 and below 1'), v.ltValue(1, 'must be above 0 and below 1')), 0.5),
      minMoves: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1')), 10),
      maxInRow: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'))),
    }),
  ),
  /** Games between stored checkpoints (a kill -9 loses at most this many). */
  checkpointEvery: v.optional(count, 2000),
  /**
   * N-tuple networks: the network of every checkpoint at a multiple of this many games is kept (a network
   * file each, beside the latest's), so the run's curve can be measured under the search afterwards
   * (`learn export RUN --at GAMES`). Absent: only the latest checkpoint's network is kept. A multiple of
   * checkpointEvery.
   */
  keepNetworkEvery: v.optional(count),
  /**
   * An n-tuple network (trained in WebAssembly, tables in a file beside the database) instead of the line
   * network: base tuples as cell lists (k = 4·row + col), stages by the largest tile, lazy promotion.
   */
  network: v.optional(
    v.strictObject({
      tuples: v.optional(v.array(v.array(v.number())), () => DEFAULT_TUPLES.map((t) => [...t])),
      stages: v.optional(v.array(v.strictObject({ maxTile: v.tuple([v.number(), v.number()]) })), () => ONE_STAGE.map((s) => ({ maxTile: [...s.maxTile] as [number, number] }))),
      promote: v.optional(v.boolean(), true),
    }),
  ),
  /** Training threads over one shared network (n-tuple networks only; one thread is exact to the bit). */
  threads: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(64, 'must be at most 64'))),
  /** Greedy games on held-out seeds at every checkpoint (n-tuple networks): their mean is the curve. */
  heldOut: v.optional(
    v.strictObject({
      games: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(100000, 'must be at most 100000')),
      seed: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(2 ** 31 - 1)),
    }),
  ),
  /**
   * Late starts (multi-stage TD, Yeh et al. 2016): greedy games never make the large tiles, so the lines
   * holding them are never learned. A share of the training games starts instead from boards a stronger
   * player reaches: the first board of each of its games that holds `maxTile`.
   */
  starts: v.optional(
    v.strictObject({
      /** The player that reaches them: weights (preset or file) searched at `depth`. */
      weights: v.pipe(v.string(), v.minLength(1)),
      depth: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(3, 'must be at most 3 (collecting would take hours)')),
      maxTile: v.pipe(v.number(), v.check((x) => isTile(x, 8), 'must be a tile: a power of two from 8 to 32768')),
      /** How many such boards to collect (the training games cycle through them). */
      positions: count,
      /** The share of training games that start from one of them. */
      share: v.pipe(v.number(), v.gtValue(0, 'must be above 0'), v.maxValue(1, 'must be at most 1')),
    }),
  ),
});

export type LearnConfig = v.InferOutput<typeof learnConfigSchema>;

export function parseLearnConfig(data: unknown, origin = 'learning config'): LearnConfig {
  const result = v.safeParse(learnConfigSchema, data);
  if (!result.success) throw new InputError(`${origin}: ${describeIssues(result.issues, learnConfigSchema)}`);
  const config = result.output;
  if (config.network) checkShape(config.network, origin);
  else {
    const only = (['threads', 'heldOut', 'rateChanges', 'coherence', 'lambda', 'restarts', 'keepNetworkEvery'] as const).filter((k) => config[k] !== undefined);
    if (only.length > 0) throw new InputError(`${origin}: field "${only[0]}": threads, heldOut, rateChanges, coherence, lambda, restarts and keepNetworkEvery are for n-tuple networks (add "network": {})`);
  }
  const every = config.checkpointEvery;
  if (config.keepNetworkEvery !== undefined && config.keepNetworkEvery % every !== 0) throw new InputError(`${origin}: field "keepNetworkEvery": ${config.keepNetworkEvery} is not a multiple of checkpointEvery (${every}): networks are kept at checkpoints`);
  const changes = config.rateChanges ?? [];
  const back = changes.findIndex((c, k) => k > 0 && c.games <= changes[k - 1].games);
  if (back >= 0) throw new InputError(`${origin}: field "rateChanges.${back}.games": ${changes[back].games} must be above the change before it (${changes[back - 1].games})`);
  return config;
}

/** The learning rate of training game `game` (the config's, or the last rate change at or before it). */
export function learningRateAt(config: LearnConfig, game: number): number {
  let rate = config.learningRate;
  for (const c of config.rateChanges ?? []) if (c.games <= game) rate = c.learningRate;
  return rate;
}

/** The first game after `game` where the rate changes (Infinity: none). */
export function nextRateChange(config: LearnConfig, game: number): number {
  return (config.rateChanges ?? []).find((c) => c.games > game)?.games ?? Infinity;
}

/** The n-tuple network a learning config trains, or null for the line network. */
export function networkShapeOf(config: LearnConfig): NetworkShape | null {
  return config.network ? { tuples: config.network.tuples, stages: config.network.stages as NetworkShape['stages'], promote: config.network.promote } : null;
}

/** Held-out games when a config names none: 500 games on seeds far from any training game's. */
export const DEFAULT_HELD_OUT = { games: 500, seed: 1_000_000_000 };

export function loadLearnConfig(ref: string): LearnConfig {
  const path = shippedConfigPath(ref, 'learning');
  const data = readJsonFile(path, 'learning config');
  if ((data as { format?: unknown } | null)?.format === 'tune2048/config') throw new InputError(`learning config "${path}" is a run config: run it with ${suggest(['tune', '-c', path])}`);
  return parseLearnConfig(data, `learning config "${path}"`);
}
