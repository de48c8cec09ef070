/**
 * Every random number of a run derives from the run seed through named
 * seedrandom streams, so a run is reproducible and resumable without storing
 * generator state. Game seeds are 32-bit: tuning seeds are even, validation
 * seeds odd, so held-out games never repeat a tuning game.
 */
import seedrandom from 'seedrandom';

export type StreamRng = () => number;

export function stream(runSeed: number, ...labels: (string | number)[]): StreamRng {
  return seedrandom.alea(`tune2048:${runSeed}:${labels.join(':')}`);
}

function seedsFrom(rng: StreamRng, n: number, parity: 0 | 1): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  while (out.length < n) {
    const s = ((Math.floor(rng() * 2 ** 31) << 1) >>> 0) + parity;
    if (!seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  }
  return out;
}

/** The seeds every candidate of generation g plays (common random numbers), fresh each generation. */
export function generationSeeds(runSeed: number, generation: number, games: number): number[] {
  return seedsFrom(stream(runSeed, 'games', generation), games, 0);
}

/** Held-out seeds for the optimizer race's checkpoints: fixed (not tied to any run) and odd. */
export function holdoutSeeds(games: number): number[] {
  return seedsFrom(stream(0, 'race-holdout'), games, 1);
}

/** Held-out seeds for validating the finalists. */
export function validationSeeds(runSeed: number, games: number): number[] {
  return seedsFrom(stream(runSeed, 'validation'), games, 1);
}

/** A second held-out set (validation.confirm): odd, from its own stream, none of them a validation seed of the run. */
export function confirmationSeeds(runSeed: number, games: number, validationGames: number): number[] {
  const taken = new Set(validationSeeds(runSeed, validationGames));
  const rng = stream(runSeed, 'confirmation');
  const out: number[] = [];
  while (out.length < games) {
    for (const s of seedsFrom(rng, games - out.length, 1)) if (!taken.has(s) && !out.includes(s)) out.push(s);
  }
  return out;
}
