/**
 * Every random number of a run derives from the run seed through named
 * seedrandom streams, so a run is reproducible and resumable without storing
 * generator state. Game seeds are 32-bit: tuning seeds are even, validation
 * seeds odd, so held-out games never repeat a tuning game; the second held-out
 * set is odd too and drawn around every other held-out stream's seeds.
 */
import seedrandom from 'seedrandom';
import { canonicalJson } from '../../util/canonical-json';
import { FINALIST_MAX_CORRELATION } from '../config/config';

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

/** Held-out seeds for the optimizer benchmark's checkpoints: fixed (not tied to any run) and odd. At most HOLDOUT_MAX. */
export function holdoutSeeds(games: number): number[] {
  return seedsFrom(stream(0, 'race-holdout'), games, 1);
}

/** The most held-out games a benchmark checkpoint plays (`race --holdout`): no second held-out set of a run uses those seeds. */
export const HOLDOUT_MAX = 100_000;
let reservedHoldout: Set<number> | null = null;

/** Held-out seeds for validating the finalists. */
export function validationSeeds(runSeed: number, games: number): number[] {
  return seedsFrom(stream(runSeed, 'validation'), games, 1);
}

/** The second set as runs stored before the set was salted drew it (the first validation seeds left out): read back for their games. */
export function unsaltedConfirmationSeeds(runSeed: number, games: number, validationGames: number): number[] {
  const taken = new Set(validationSeeds(runSeed, validationGames));
  const rng = stream(runSeed, 'confirmation');
  const out: number[] = [];
  while (out.length < games) {
    for (const s of seedsFrom(rng, games - out.length, 1)) if (!taken.has(s) && !out.includes(s)) out.push(s);
  }
  return out;
}

/** What salts the second set: the validation keys that change what the first set plays or chooses, each with its default resolved (a key added later, or a default written out, does not move a stored run's set). */
export interface SecondSetSalt {
  games: number;
  finalists?: number;
  confirm?: number;
  race?: { rounds: number; keep: number } | null;
  maxCorrelation?: number;
}

/**
 * A second held-out set (validation.confirm): odd, from its own stream salted by the validation config (two runs
 * of one seed that validate otherwise, as a --fitness-from ablation, draw different second sets, so neither
 * selects on the other's), and by construction none of them a seed of the run's first held-out set or of the
 * optimizer benchmark's held-out stream (fitness seeds are even).
 */
export function confirmationSeeds(runSeed: number, validation: SecondSetSalt): number[] {
  const games = validation.confirm ?? 0;
  reservedHoldout ??= new Set(holdoutSeeds(HOLDOUT_MAX));
  const taken = new Set(validationSeeds(runSeed, validation.games));
  const salt = { games: validation.games, finalists: validation.finalists ?? null, confirm: games, race: validation.race ?? null, maxCorrelation: validation.maxCorrelation ?? FINALIST_MAX_CORRELATION };
  const rng = stream(runSeed, 'confirmation', canonicalJson(salt));
  const out: number[] = [];
  const seen = new Set<number>();
  while (out.length < games) {
    for (const s of seedsFrom(rng, games - out.length, 1)) {
      if (taken.has(s) || reservedHoldout.has(s) || seen.has(s)) continue;
      seen.add(s);
      out.push(s);
    }
  }
  return out;
}
