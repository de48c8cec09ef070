/**
 * A learning config (tune2048 learn): how a line network is trained. Checked like a run config: one line
 * naming the field, nothing written.
 */
import * as v from 'valibot';
import { readJsonFile } from '../util/json-file';
import { describeIssues } from '../util/valibot-issues';
import { InputError } from '../util/errors';

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
  /** The TD(0) step on a board's value per unit of error (spread over its 16 table reads). */
  learningRate: v.pipe(v.number(), v.gtValue(0, 'must be above 0'), v.maxValue(1, 'must be at most 1 (larger steps diverge)')),
  /** Games between stored checkpoints (a kill -9 loses at most this many). */
  checkpointEvery: v.optional(count, 2000),
});

export type LearnConfig = v.InferOutput<typeof learnConfigSchema>;

export function parseLearnConfig(data: unknown, origin = 'learning config'): LearnConfig {
  const result = v.safeParse(learnConfigSchema, data);
  if (!result.success) throw new InputError(`${origin}: ${describeIssues(result.issues)}`);
  return result.output;
}

export function loadLearnConfig(path: string): LearnConfig {
  const data = readJsonFile(path, 'learning config');
  if ((data as { format?: unknown } | null)?.format === 'tune2048/config') throw new InputError(`learning config "${path}" is a run config: run it with tune2048 tune -c ${path}`);
  return parseLearnConfig(data, `learning config "${path}"`);
}
