/**
 * Uniform random search: the baseline every optimizer must beat. Generation 0
 * holds the start point; every generation draws new points uniformly in the
 * space and carries the best `elitism` so far over, re-scored on the new seeds
 * like the GA's elites, so the last generation holds fairly measured finalists.
 * In a two-objective run it is NSGA-II's baseline: the same draws, elites kept by front.
 */
import type { RandomConfig } from '../../config/config';
import { uniformGenome } from '../operators';
import { selectSurvivors } from './nsga2';
import type { Generation, Optimizer, Proposal } from '../optimizer';
import { rankEvaluated } from '../ranking';

export function createRandomSearch(cfg: RandomConfig): Optimizer {
  return {
    initial(start, rng): Generation {
      const candidates: Proposal[] = [{ genome: [...start], origin: 'start', parents: [] }];
      while (candidates.length < cfg.population) candidates.push({ genome: uniformGenome(start.length, rng), origin: 'random', parents: [] });
      return { candidates, state: {} };
    },
    next(previous, _state, rng): Generation {
      // Two objectives: the elites are the best by front, then spread (NSGA-II's order), not by strength alone.
      const ranked = previous.every((c) => c.objectives)
        ? selectSurvivors(previous.map((c) => ({ id: c.id, genome: c.genome, objectives: c.objectives! })), previous.length).members.map((m) => previous.find((c) => c.id === m.id)!)
        : rankEvaluated(previous);
      const candidates: Proposal[] = ranked.slice(0, cfg.elitism).map((c) => ({ genome: [...c.genome], origin: 'elite', parents: [c.id] }));
      const n = previous[0].genome.length;
      while (candidates.length < cfg.population) candidates.push({ genome: uniformGenome(n, rng), origin: 'random', parents: [] });
      return { candidates, state: {} };
    },
    summary: () => ({ stepSize: null, games: null }),
  };
}
