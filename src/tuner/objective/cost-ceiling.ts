/**
 * The best within a cost ceiling (one objective): strength subject to cost per move ≤ fitness.maxCost, the model
 * optimizer's mode (model-optimizer.ts). ("Budget" is a run's games, fitness.budget; the ceiling is cost a move.)
 * What the tuner, validation and the refusals need of it: which run is one, whether games kept within the
 * ceiling, and, before a run is stored, whether any setting of its space can keep within it at all.
 */
import type { PlayerSpec } from '../../player/spec';
import type { Game } from '../../store/store';
import { InputError } from '../../util/errors';
import type { RunConfig } from '../config/config';
import { costPerMove } from '../../compare/summary';
import { hasFront } from './fitness';
import type { BoundedSpace } from '../space/space';

/** True for a run that tunes strength within a ceiling of cost per move (the model optimizer with fitness.maxCost). */
export function hasCostCeiling(config: Pick<RunConfig, 'fitness' | 'optimizer'>): boolean {
  return config.fitness.cost !== undefined && config.fitness.maxCost !== undefined && !hasFront(config);
}

/** Whether games kept within the run's ceiling of cost per move (always without one; never without a count). */
export function withinCeiling(fitness: RunConfig['fitness'], games: readonly Pick<Game, 'moves' | 'nodes'>[]): boolean {
  if (fitness.maxCost === undefined) return true;
  const cost = costPerMove(games);
  return cost !== undefined && cost <= fitness.maxCost;
}

/**
 * Whether a candidate may be a run's best by these games (its held-out games): always, but in a run within a
 * cost ceiling only when they kept within it (a game without a count of positions keeps nothing).
 */
export function keepsCeiling(config: Pick<RunConfig, 'fitness' | 'optimizer'>, games: readonly Pick<Game, 'moves' | 'nodes'>[]): boolean {
  return !hasCostCeiling(config) || withinCeiling(config.fitness, games);
}

/**
 * Which end of each search parameter searches less: a shallower depth, a larger cutoff, the depth rule's deeper
 * side at its fewest empty cells and its shallower side at its fewest (so it is shallower most often).
 */
const CHEAP_END: Record<string, 0 | 1> = { depth: 0, cprob: 1, 'depthRule.deeperAtEmpty': 0, 'depthRule.shallowerAtEmpty': 0 };

/** The genome of the space's cheapest search: each search parameter at its cheap end, the rest at the start (the synthetic player's cost weight at its cheap end too). */
export function cheapestGenome(space: BoundedSpace, config: Pick<RunConfig, 'fitness'>): number[] {
  const start = space.startGenome();
  const cost = config.fitness.synthetic?.cost;
  return space.names.map((name, i) => {
    if (name in CHEAP_END) return CHEAP_END[name];
    if (cost && name === cost.weight) return cost.growth >= 0 ? 0 : 1;
    return start[i];
  });
}

/** The game seed the cheapest setting's cost is measured on (any fixed seed: the check must give one answer). */
export const CHEAPEST_SEED = 20_480_000;

/** One game of a spec on a seed, played in a thread of its own (the synthetic player is drawn in place). */
async function oneGame(spec: PlayerSpec, seed: number): Promise<{ nodes?: number; moves: number }> {
  // The players load only here, when a run within a cost ceiling is prepared (every command that loads a run's problem imports this module).
  if (spec.kind === 'synthetic') {
    const { playSpecGame } = await import('../../player/players');
    return playSpecGame(spec, seed, () => {
      throw new Error('the synthetic player plays no moves');
    });
  }
  const { foregroundPlayer } = await import('../../player/foreground');
  const thread = await foregroundPlayer(spec);
  try {
    return await thread.remote.play(seed, {});
  } finally {
    await thread.close();
  }
}

/**
 * Refuses (one line naming the cheapest setting and what it costs) a ceiling that no setting of the space keeps
 * within, or a ceiling on a player whose search counts no cost. Plays one game of the cheapest setting; an
 * external player's cheap end is its own business, so its runs are not checked here (its first generation tells).
 */
export async function checkCeilingReachable(config: RunConfig, space: BoundedSpace, playerOf: (genome: readonly number[]) => PlayerSpec): Promise<void> {
  if (!hasCostCeiling(config)) return;
  const spec = playerOf(cheapestGenome(space, config));
  if (spec.kind === 'external') return;
  const game = await oneGame(spec, CHEAPEST_SEED);
  const maxCost = config.fitness.maxCost!;
  if (game.nodes === undefined) throw new InputError(`fitness.maxCost: the ${spec.kind} player reports no cost per move (its search counts no positions), so a ceiling cannot be kept: remove fitness.maxCost and fitness.cost`);
  const cost = game.nodes / Math.max(1, game.moves);
  if (cost > maxCost) {
    // The settings that make it the cheapest (the rest are the start's).
    const searched = new Set([...Object.keys(CHEAP_END), config.fitness.synthetic?.cost?.weight]);
    const settings = Object.entries(space.playedParams(cheapestGenome(space, config))).filter(([name]) => searched.has(name));
    const cheapest = settings.length > 0 ? settings.map(([name, value]) => `${name} ${describeValue(name, value)}`).join(', ') : `the start at depth ${config.fitness.depth}`;
    throw new InputError(`fitness.maxCost ${maxCost} is below every setting of the space: its cheapest (${cheapest}) searched ${cost.toFixed(1)} positions a move (one game, seed ${CHEAPEST_SEED}); raise fitness.maxCost above that`);
  }
}

/** A parameter's value as a setting reads: a depth rule's side at its "off" value says so. */
function describeValue(name: string, value: number): string {
  if ((name === 'depthRule.deeperAtEmpty' && value < 0) || (name === 'depthRule.shallowerAtEmpty' && value > 16)) return 'off';
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3)));
}
