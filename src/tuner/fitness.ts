/** Objectives: how a candidate's games become one number to maximise. */
import type { RunConfig } from './config';

export interface ScoredGame {
  score: number;
  maxTile: number;
}

export function objectiveValue(fitness: RunConfig['fitness'], games: readonly ScoredGame[]): number {
  if (games.length === 0) return NaN;
  let total = 0;
  for (const g of games) {
    if (fitness.objective === 'mean-score') total += g.score;
    else if (fitness.objective === 'mean-log2-max-tile') total += Math.log2(g.maxTile);
    else total += g.maxTile >= fitness.reachTile ? 1 : 0;
  }
  return total / games.length;
}
