/**
 * The synthetic player (src/player/synthetic.ts): its landscape against the formula by hand, its noise
 * against the calibration (sd 40 % / 44 % of the mean, no correlation between weight sets on a seed),
 * determinism per (player, seed), configs that are refused, and tuning runs through it that are exact
 * under stops and any worker count.
 */
import { describe, expect, it } from 'vitest';
import { loadWeights, type Weights } from '../src/heuristic/weights';
import { syntheticGame, syntheticMean, SYNTHETIC_DEFAULTS, type SyntheticLandscape } from '../src/player/synthetic';
import { playSpecGame, createPlayer } from '../src/player/players';
import { playerSpec, playerKey } from '../src/player/spec';
import { loadConfig, parseConfig } from '../src/tuner/config/config';
import { mean, stdev } from '../src/util/stats';
import { runCli } from './helpers/cli';
import { dumpRun, straightAndStopped, tempDb, tuneToEnd } from './helpers/runs';
import { pearson } from '../src/compare/noise';

const landscape = (o: Partial<SyntheticLandscape> = {}): SyntheticLandscape => ({ ...SYNTHETIC_DEFAULTS, optimum: { empty: 400, merges: 900, sumPower: 3 }, ...o });
const nneonneo = loadWeights('nneonneo');
const at = (w: Partial<Weights>): Weights => ({ ...nneonneo, ...w });

describe('the synthetic landscape and noise', () => {
  it('peaks at its optimum and falls as the formula says', () => {
    const l = landscape({ peak: 1000, floor: 0.2, width: 0.5 });
    expect(syntheticMean(at({ empty: 400, merges: 900, sumPower: 3 }), l)).toBeCloseTo(1000, 9);
    // One weight a factor e^width off: z = 1 → 1000 · (0.2 + 0.8 · e^{−1/2}).
    expect(syntheticMean(at({ empty: 400 * Math.exp(0.5), merges: 900, sumPower: 3 }), l)).toBeCloseTo(1000 * (0.2 + 0.8 * Math.exp(-0.5)), 9);
    // Two such weights: z² sums.
    expect(syntheticMean(at({ empty: 400 / Math.exp(0.5), merges: 900 * Math.exp(0.5), sumPower: 3 }), l)).toBeCloseTo(1000 * (0.2 + 0.8 * Math.exp(-1)), 9);
    // A weight at zero (no ratio): linear distance in units of width · |optimum|.
    expect(syntheticMean(at({ empty: 0, merges: 900, sumPower: 3 }), l)).toBeCloseTo(1000 * (0.2 + 0.8 * Math.exp(-0.5 * (400 / (0.5 * 400)) ** 2)), 9);
    // Fields the optimum does not name do not matter.
    expect(syntheticMean(at({ empty: 400, merges: 900, sumPower: 3, alive: 1 }), l)).toBeCloseTo(1000, 9);
    expect(syntheticMean(at({ empty: 400, merges: 900, sumPower: 3, matrix: [[9, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] }), landscape({ peak: 1000, optimum: { 'matrix[0][0]': 9 } }))).toBeCloseTo(1000, 9);
  });

  it('games have the calibrated mean and spread (sd 40 % as at depth 3, 44 % as at depth 2), and weight sets are uncorrelated on a seed', () => {
    const w = at({ empty: 400, merges: 900, sumPower: 3 });
    for (const cv of [0.4, 0.44]) {
      const l = landscape({ cv, peak: 140_000 });
      const xs = Array.from({ length: 20_000 }, (_, i) => syntheticGame(w, l, 'a', i).score);
      expect(Math.abs(mean(xs) / 140_000 - 1)).toBeLessThan(0.01);
      expect(Math.abs(stdev(xs) / mean(xs) - cv)).toBeLessThan(0.015);
      const ys = Array.from({ length: 20_000 }, (_, i) => syntheticGame(w, l, 'b', i).score);
      expect(Math.abs(pearson(xs, ys))).toBeLessThan(0.03);
      // Skewed and clustered as real scores are: the median sits below the mean, and there is mass far above it.
      const sorted = [...xs].sort((p, q) => p - q);
      expect(sorted[10_000]).toBeLessThan(mean(xs));
      expect(sorted[19_000]).toBeGreaterThan(1.5 * mean(xs));
    }
  });

  it('a game depends only on (player, seed): labels and how long a game takes change nothing', () => {
    const spec = playerSpec('synthetic', nneonneo, { depth: 3, cprob: 1e-4 }, landscape());
    const none = () => {
      throw new Error('the synthetic player builds no player');
    };
    const game = playSpecGame(spec, 7, none);
    expect(playSpecGame(spec, 7, none)).toEqual(game);
    expect(playSpecGame({ ...spec, weights: { ...nneonneo, name: 'other', description: 'relabelled' } }, 7, none)).toEqual(game);
    expect(playSpecGame({ ...spec, synthetic: { ...spec.synthetic!, gameMs: 1 } }, 7, none)).toEqual({ ...game, ms: 1 });
    expect(playSpecGame(spec, 8, none).score).not.toBe(game.score);
    expect(playSpecGame({ ...spec, weights: { ...nneonneo, empty: 271 } }, 7, none).score).not.toBe(game.score);
    expect(playerKey(spec)).not.toBe(playerKey({ ...spec, synthetic: { ...spec.synthetic!, cv: 0.44 } }));
    expect(() => createPlayer(spec)).toThrow(/plays no moves/);
  });
});

describe('synthetic configs', () => {
  const base = { space: { start: 'nneonneo', params: { empty: { min: 0, max: 1000 } } } };
  const bad: [string, unknown, RegExp][] = [
    ['the synthetic player without a landscape', { ...base, fitness: { player: 'synthetic' } }, /field "fitness.synthetic": the synthetic player needs its landscape/],
    ['a landscape for another player', { ...base, fitness: { synthetic: { optimum: { empty: 1 } } } }, /field "fitness.synthetic": is the synthetic player's landscape/],
    ['an unknown weight in the optimum', { ...base, fitness: { player: 'synthetic', synthetic: { optimum: { emptiness: 1 } } } }, /optimum: unknown weight "emptiness"/],
    ['an empty optimum', { ...base, fitness: { player: 'synthetic', synthetic: { optimum: {} } } }, /optimum: name at least one weight/],
    ['a noise out of range', { ...base, fitness: { player: 'synthetic', synthetic: { optimum: { empty: 1 }, cv: 3 } } }, /field "fitness.synthetic.cv"/],
    ['an unknown landscape key', { ...base, fitness: { player: 'synthetic', synthetic: { optimum: { empty: 1 }, slope: 3 } } }, /field "fitness.synthetic": unknown key\(s\) "slope"/],
  ];
  it.each(bad)('refuses %s with one line naming it', (_what, data, message) => {
    expect(() => parseConfig(data, 'config "x.json"')).toThrow(message);
  });

  it('is never a player of the playing commands', () => {
    const r = runCli(['play', '-w', 'nneonneo', '--player', 'synthetic', '-n', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--player must be one of expectimax, minimax, mcts, mcts-emm, external:NAME or network:FILE, got "synthetic"/);
  });
});

describe('tuning on the synthetic player', () => {
  const config = () => {
    const c = loadConfig('configs/synthetic-d3.json');
    return parseConfig({ ...c, optimizer: { ...c.optimizer, generations: 4 }, fitness: { ...c.fitness, games: 12 }, validation: { finalists: 2, games: 40 }, pool: { batchGames: 5 } });
  };

  it('gives the same rows with 1 worker as with 2, and stopped and resumed as straight', async () => {
    const { straight, straightStatus, stopped } = await straightAndStopped(config(), [30, 200, 500], true);
    expect(straightStatus).toBe('finished');
    expect(stopped).toEqual(straight);
  });

  it('climbs toward the known optimum', async () => {
    const db = tempDb();
    const { id } = await tuneToEnd(db, loadConfig('configs/synthetic-d3.json'), { workers: 2 });
    const gens = dumpRun(db, id).generations as { mean_fitness: number }[];
    expect(gens[gens.length - 1].mean_fitness).toBeGreaterThan(1.2 * gens[0].mean_fitness);
  });
});
