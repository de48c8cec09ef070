/**
 * CMA-ES as a tune2048 optimizer: the algorithm of cmaes.ts plus what a
 * bounded, noisy problem needs. Each rule is documented here and in docs/tuning.md.
 *
 * - Bounds: samples are drawn unbounded; the candidate evaluated is the sample
 *   mirrored into [0, 1] (reflect), while the update uses the raw sample (the
 *   state keeps the raw samples), so the distribution is never distorted.
 * - The mean: every generation also evaluates the distribution mean (origin
 *   "mean") on the same seeds. It does not enter the update; it is what CMA-ES
 *   recommends, and it is always among the finalists validated at the end, so
 *   the export is never merely the luckiest sample.
 * - Noise: game scores are noisy. After each generation the split-half
 *   reliability (Spearman correlation, across the samples, of fitness on the
 *   odd and on the even games of the common seeds) is measured; below
 *   `minReliability` the ranking is mostly noise, so the next generation plays
 *   1.5× the games (up to `maxGames`).
 * - IPOP restarts: when σ·max(D) < tolX or C's condition number exceeds 1e12,
 *   restart from a uniformly drawn mean with σ0 and twice the population
 *   (at most `restarts` times).
 */
import { cmaAsk, cmaInit, cmaTell, conditionNumber, CmaState, defaultLambda } from './cmaes';
import type { CmaesConfig } from '../../config/config';
import { reflect, uniformGenome } from '../operators';
import type { Evaluated, Generation, Optimizer, Proposal } from '../optimizer';
import { rankScores } from '../ranking';
import { spearman } from '../../../util/stats';

export interface CmaesState {
  cma: CmaState;
  /** The raw (unmirrored) samples of this generation, in candidate order after the mean. */
  samples: number[][];
  games: number | null;
  restarts: number;
  reliability: number | null;
}

/** Split-half reliability of the samples' ranking: odd games against even games. */
export function splitHalfReliability(samples: readonly Evaluated[]): number | null {
  if (samples.length < 3 || samples[0].scores.length < 2) return null;
  const half = (c: Evaluated, parity: number) => {
    const xs = c.scores.filter((_, i) => i % 2 === parity);
    return xs.reduce((s, x) => s + x, 0) / xs.length;
  };
  return spearman(
    samples.map((c) => half(c, 0)),
    samples.map((c) => half(c, 1)),
  );
}

export function createCmaes(cfg: CmaesConfig, baseGames: number): Optimizer {
  function generation(cma: CmaState, rng: () => number, games: number | null, restarts: number, reliability: number | null): Generation {
    const samples = cmaAsk(cma, rng);
    const candidates: Proposal[] = [
      { genome: cma.mean.map(reflect), origin: 'mean', parents: [] },
      ...samples.map((x) => ({ genome: x.map(reflect), origin: 'sample', parents: [] })),
    ];
    const state: CmaesState = { cma, samples, games, restarts, reliability };
    return { candidates, state };
  }

  return {
    initial(start, rng) {
      return generation(cmaInit(start, cfg.sigma0, cfg.population ?? defaultLambda(start.length)), rng, null, 0, null);
    },

    next(previous, previousState, rng) {
      const prev = previousState as CmaesState;
      const samples = previous.filter((c) => c.origin === 'sample');
      // Ranked by the round reached (racing), then fitness: CMA-ES weighs its samples by rank alone.
      let cma = cmaTell(prev.cma, prev.samples, rankScores(samples));
      const reliability = splitHalfReliability(samples);
      let games = prev.games ?? baseGames;
      if (reliability !== null && reliability < cfg.minReliability) games = Math.min(cfg.maxGames, Math.ceil(games * 1.5));
      let restarts = prev.restarts;
      const converged = cma.sigma * Math.max(...cma.D) < cfg.tolX || conditionNumber(cma) > 1e12;
      if (converged && restarts < cfg.restarts) {
        restarts++;
        cma = cmaInit(uniformGenome(cma.n, rng), cfg.sigma0, cma.lambda * 2);
      }
      return generation(cma, rng, games === baseGames ? null : games, restarts, reliability);
    },

    summary: (state) => ({ stepSize: (state as CmaesState).cma.sigma, games: (state as CmaesState).games }),
  };
}
