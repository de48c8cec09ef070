/**
 * The genetic algorithm: elitism, tournament selection, uniform or blend
 * crossover, Gaussian mutation with the one-fifth success rule on σ.
 *
 * σ adaptation (documented rule): within a generation every candidate plays
 * the same seeds, so an offspring that beats the mean fitness of the elites it
 * was measured beside is a fair "success". If more than 1/5 of a generation's
 * offspring succeed, σ ×= 1.22, else σ ×= 0.82, clamped to
 * [minMutationScale, maxMutationScale]. Generation 0 has no elites: σ stays.
 */
import type { GaConfig } from '../../config/config';
import { blendCrossover, gaussianMutation, tournamentSelect, uniformCrossover, uniformGenome } from '../operators';
import type { Evaluated, Generation, Optimizer, Proposal } from '../optimizer';
import { rankEvaluated, ranksAbove } from '../ranking';

export interface GaState {
  mutationScale: number;
  /** Share of the previous generation's offspring that beat its elites' mean (null in generation 0). */
  successRate: number | null;
}

export function adaptScale(cfg: GaConfig, scale: number, previous: readonly Evaluated[]): { scale: number; successRate: number | null } {
  const elites = previous.filter((c) => c.origin === 'elite');
  const offspring = previous.filter((c) => c.origin === 'offspring');
  if (cfg.adaptation === 'none' || elites.length === 0 || offspring.length === 0) return { scale, successRate: null };
  // With racing, the elites' mean at the furthest round one of them reached: an offspring stopped before it is no success.
  const round = Math.max(...elites.map((c) => c.round ?? 1));
  const atRound = elites.filter((c) => (c.round ?? 1) === round);
  const eliteMean = { round, value: atRound.reduce((s, c) => s + c.fitness, 0) / atRound.length };
  const successRate = offspring.filter((c) => ranksAbove(c, eliteMean)).length / offspring.length;
  const factor = successRate > 0.2 ? 1.22 : 0.82;
  return { scale: Math.min(cfg.maxMutationScale, Math.max(cfg.minMutationScale, scale * factor)), successRate };
}

export function createGa(cfg: GaConfig): Optimizer {
  return {
    initial(start, rng): Generation {
      const candidates: Proposal[] = [{ genome: [...start], origin: 'start', parents: [] }];
      while (candidates.length < cfg.population) {
        const genome = cfg.init === 'uniform' ? uniformGenome(start.length, rng) : gaussianMutation(start, cfg.initScale, 1, rng);
        candidates.push({ genome, origin: 'init', parents: [] });
      }
      const state: GaState = { mutationScale: cfg.mutationScale, successRate: null };
      return { candidates, state };
    },

    next(previous, previousState, rng): Generation {
      const prevScale = (previousState as GaState).mutationScale;
      const { scale, successRate } = adaptScale(cfg, prevScale, previous);
      // Rank by the round reached (racing), then fitness; ties keep the earlier candidate first (stable sort).
      const ranked = rankEvaluated(previous);
      const candidates: Proposal[] = ranked.slice(0, cfg.elitism).map((c) => ({ genome: [...c.genome], origin: 'elite', parents: [c.id] }));
      // A tournament's entrants compared by rank (ranked is best first).
      const fitness = ranked.map((_, i) => -i);
      while (candidates.length < cfg.population) {
        const a = ranked[tournamentSelect(fitness, cfg.tournament, rng)];
        const b = ranked[tournamentSelect(fitness, cfg.tournament, rng)];
        let genome: number[] = [...a.genome];
        const parents = [a.id];
        if (rng() < cfg.crossoverRate) {
          genome = cfg.crossover === 'uniform' ? uniformCrossover(a.genome, b.genome, rng) : blendCrossover(a.genome, b.genome, cfg.blendAlpha, rng);
          parents.push(b.id);
        }
        genome = gaussianMutation(genome, scale, cfg.mutationRate, rng);
        candidates.push({ genome, origin: 'offspring', parents });
      }
      const state: GaState = { mutationScale: scale, successRate };
      return { candidates, state };
    },

    summary: (state) => ({ stepSize: (state as GaState).mutationScale, games: null }),
  };
}
