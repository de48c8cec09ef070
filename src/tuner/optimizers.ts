/** Optimizers by name, as the config's `optimizer.kind` chooses them. */
import type { RunConfig } from './config';
import { createCmaes } from './cmaes-optimizer';
import { createGa } from './ga';
import { createNsga2 } from './nsga2';
import type { Optimizer } from './optimizer';
import { createRandomSearch } from './random-search';
import { createRegression } from './regression';
import { createSurrogate } from './surrogate';

export function createOptimizer(config: RunConfig): Optimizer {
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
      return createSurrogate(o);
    case 'nsga2':
      return createNsga2({ ...o, reevaluate: config.reevaluateElites });
  }
}
