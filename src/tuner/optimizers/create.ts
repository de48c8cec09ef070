/** Optimizers by name, as the config's `optimizer.kind` chooses them. */
import type { RunConfig } from '../config/config';
import { InputError } from '../../util/errors';
import { createCmaes } from './evolutionary/cmaes-optimizer';
import { createGa } from './evolutionary/ga';
import { createNsga2 } from './evolutionary/nsga2';
import type { Optimizer } from './optimizer';
import { createRandomSearch } from './evolutionary/random-search';
import { createRegression } from './model-based/regression';
import { createSurrogate } from './model-based/surrogate';
import { createModelOptimizer, type ModelSpace } from './model-based/model-optimizer';

/** The model optimizer's first design when the config names none: two points a parameter and one, at least a generation's worth. */
export function modelInitialPoints(o: Extract<RunConfig['optimizer'], { kind: 'model' }>, parameters: number): number {
  return o.initial ?? Math.max(o.population + 1, 2 * (parameters + 1));
}

/** The run's optimizer; `space` (the run's parameter space) is what the model optimizer models, `pointKey` which genomes are one point (space/point.ts). */
export function createOptimizer(config: RunConfig, bounded: Pick<ModelSpace, 'size' | 'canonical'>, pointKey: (genome: readonly number[]) => string): Optimizer {
  const space: ModelSpace = { size: bounded.size, canonical: (g) => bounded.canonical(g), pointKey };
  const o = config.optimizer;
  switch (o.kind) {
    case 'ga':
      return createGa(o);
    case 'cmaes':
      return createCmaes(o, config.fitness.games);
    case 'random':
      return createRandomSearch(o);
    case 'regression':
      return createRegression(o);
    case 'surrogate':
      return createSurrogate(o, space.pointKey);
    case 'nsga2':
      return createNsga2({ ...o, reevaluate: config.reevaluateElites });
    case 'model': {
      const initial = modelInitialPoints(o, space.size);
      // The model is first fitted after its design (the start and `initial` points): a budget that ends before it never gets a model.
      const design = (initial + 1) * o.games;
      if (config.fitness.budget !== undefined && config.fitness.budget < design) throw new InputError(`fitness.budget ${config.fitness.budget} ends before the model is first fitted: its design plays ${design} games (the start and optimizer.initial ${initial} points × optimizer.games ${o.games}); raise fitness.budget or lower optimizer.initial`);
      // Screened, a game's value is minus a mean regret: one noise for all (a score's noise grows with its mean).
      return createModelOptimizer({ ...o, initial }, { space, objective: config.fitness.screen ? 'regret' : config.fitness.objective, maxCost: config.fitness.maxCost, costConfidence: config.fitness.costConfidence });
    }
  }
}
