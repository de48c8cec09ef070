/** Objectives: how a candidate's games become one number to maximise. */
import type { Weights } from '../heuristic/weights';
import { playerSpec, type PlayerSpec } from '../solver/spec';
import type { RunConfig } from './config';

export interface ScoredGame {
  score: number;
  maxTile: number;
}

/** One game's contribution to the objective. */
export function gameObjective(fitness: RunConfig['fitness'], g: ScoredGame): number {
  if (fitness.objective === 'mean-score') return g.score;
  if (fitness.objective === 'mean-log2-max-tile') return Math.log2(g.maxTile);
  return g.maxTile >= fitness.reachTile ? 1 : 0;
}

/** The objective over a set of games: the mean of their contributions. */
export function objectiveValue(fitness: RunConfig['fitness'], games: readonly ScoredGame[]): number {
  if (games.length === 0) return NaN;
  let total = 0;
  for (const g of games) total += gameObjective(fitness, g);
  return total / games.length;
}

/** The player a run's fitness games are played by: its weights with the config's player and search settings. */
export function fitnessPlayer(fitness: RunConfig['fitness'], weights: Weights): PlayerSpec {
  return playerSpec(fitness.player ?? 'expectimax', weights, fitness);
}
