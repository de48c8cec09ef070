/** Objectives: how a candidate's games become one number to maximise. */
import type { Weights } from '../../heuristic/weights';
import { playerSpec, type HeuristicPlayerSpec } from '../../player/spec';
import { FRONT_OPTIMIZERS, type RunConfig } from '../config/config';
import { meanWithCI95 } from '../../util/stats';

export interface ScoredGame {
  score: number;
  maxTile: number;
  /** A screened fitness game's mean regret (fitness.screen). */
  regret?: number;
}

/**
 * One game's contribution to the objective: with the decision screen, a fitness game's is its decisions' mean
 * regret, negated (less regret ranks higher); a held-out game is never screened, and counts its score.
 */
export function gameObjective(fitness: RunConfig['fitness'], g: ScoredGame): number {
  if (fitness.screen && g.regret !== undefined) return -g.regret;
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

/**
 * Half-width of the 95% interval of the objective over these games (meanWithCI95's), or null below two
 * games: how far a candidate's fitness may be from its true value. Common seeds do not narrow it (scores
 * of two weight sets on a seed are uncorrelated in 2048: docs/results/depth-3-stall.md), so it is also the noise a
 * ranking of candidates works against.
 */
export function fitnessHalfWidth95(fitness: RunConfig['fitness'], games: readonly ScoredGame[]): number | null {
  if (games.length < 2) return null;
  const ci = meanWithCI95(games.map((g) => gameObjective(fitness, g)));
  return (ci.high - ci.low) / 2;
}

/** The player a run's fitness games are played by: its weights with the config's player and search settings. */
export function fitnessPlayer(fitness: RunConfig['fitness'], weights: Weights): HeuristicPlayerSpec {
  if (typeof fitness.player === 'object') throw new Error('the weights of an external player: its run has no weights');
  return playerSpec(fitness.player ?? 'expectimax', weights, fitness, fitness.synthetic);
}

/** True for a run that tunes strength against cost per move: a front (NSGA-II, or random search as its baseline). */
export function hasFront(config: Pick<RunConfig, 'fitness' | 'optimizer'>): boolean {
  return config.fitness.cost !== undefined && (FRONT_OPTIMIZERS as readonly string[]).includes(config.optimizer.kind);
}
