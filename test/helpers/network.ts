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
