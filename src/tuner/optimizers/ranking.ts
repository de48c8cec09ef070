/**
 * How optimizers rank a generation's candidates: by the round of the generation's race each reached
 * (fitness.racing; all alike without it), then by fitness, as ASHA and irace rank. A candidate stopped after a
 * slice keeps the mean of the games it played, and it was stopped because they read low: set against the full
 * means of those that went on it would be judged on a selected sample.
 */
import { byRoundThenValue } from '../selection/racing';
import type { Evaluated } from './optimizer';

const standing = (c: Evaluated) => ({ round: c.round ?? 1, value: c.fitness });

/** Best first; ties keep their order (a stable sort). */
export function rankEvaluated<E extends Evaluated>(candidates: readonly E[]): E[] {
  return [...candidates].sort((a, b) => byRoundThenValue(standing(a), standing(b)));
}

/** Whether `a` ranks above a standing (a round reached and a value). */
export function ranksAbove(a: Evaluated, b: { round: number; value: number }): boolean {
  return byRoundThenValue(standing(a), b) < 0;
}

/** Scores that order candidates as rankEvaluated does, for rank-based operators (tournaments, CMA-ES's weights): the best gets the highest. */
export function rankScores(candidates: readonly Evaluated[]): number[] {
  const order = rankEvaluated(candidates.map((c, i) => ({ ...c, id: i })));
  const scores = new Array<number>(candidates.length);
  order.forEach((c, rank) => (scores[c.id] = -rank));
  return scores;
}
