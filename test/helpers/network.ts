/** A small n-tuple network trained for tests of its players: written to a file, and the reference's copy of its tables. */
import type { ReferenceNetwork } from '../../src/learn/ntuple/reference';
import type { NetworkShape } from '../../src/learn/ntuple/shape';
import { NetworkTraining } from '../../src/learn/ntuple/training';

/** Trains `games` games of `shape` on one thread from `seed` (TD(0) at rate 0.1), saves it to `file`. */
export async function trainSmallNetwork(shape: NetworkShape, file: string, seed: number, games: number): Promise<ReferenceNetwork> {
  const training = new NetworkTraining({ shape, threads: 1, seed, learningRate: 0.1, heldOut: { games: 0, seed: 1 } });
  try {
    await training.trainTo(games);
    training.save(file);
    return { shape, tables: training.machine.tables().map((t) => Float32Array.from(t)) };
  } finally {
    await training.close();
  }
}

/**
 * A two-objective run over a network's search beside `net.bin` in its folder: NSGA-II over the depth (0 or 1)
 * and the depth rule's two bounds, ranked by the held-out mean and the positions searched a move.
 */
export function networkFrontConfig(validationGames: number): Record<string, unknown> {
  return {
    seed: 5,
    space: { start: 'defaults', params: { depth: { min: 0, max: 1 }, 'depthRule.deeperAtEmpty': { min: -1, max: 6 }, 'depthRule.shallowerAtEmpty': { min: 6, max: 17 } } },
    optimizer: { kind: 'nsga2', population: 4, generations: 2 },
    fitness: { games: 2, depth: 1, cost: 'nodes', player: { kind: 'network', file: 'net.bin' } },
    validation: { front: 4, games: validationGames },
    pool: { batchGames: 2 },
  };
}
