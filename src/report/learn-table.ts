/**
 * A learning run's checkpoints as one table (the dashboard's learning page and `learn report` print the
 * same columns, as `learn show` does): plain data with no Node import, so the dashboard's bundle takes it too.
 */
import type { LearnPoint } from './learn-data';
import { num } from './numbers';
import { REACH_HEADERS as TILES } from '../compare/summary';

/** Each column says which games it counts: the last 1,000 training games, or the held-out greedy games. */
export const LEARN_HEADERS = ['games', 'minutes', 'cpu min', 'moves/s', 'training: mean of the last 1,000', ...TILES.map((t) => `training: ${t}`), 'held-out: greedy mean', ...TILES.map((t) => `held-out: ${t}`)];

const rates = (r: readonly number[] | undefined) => (r ? r.map((p) => `${(100 * p).toFixed(1)}%`) : TILES.map(() => '–'));

/** One row a checkpoint (plain text: the caller escapes it for HTML). */
export function learnRows(curve: readonly LearnPoint[]): string[][] {
  return curve.map((c) => [
    num(c.games),
    num(c.minutes, 1),
    num(c.cpuMinutes, 1),
    c.stats ? num(c.stats.moves / Math.max(1e-9, c.stats.trainSeconds)) : '–',
    num(c.recentMean),
    ...rates(c.stats?.recent.rates),
    num(c.heldOutMean),
    ...rates(c.stats?.heldOut?.rates),
  ]);
}
