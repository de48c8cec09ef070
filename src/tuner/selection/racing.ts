/**
 * Racing inside a generation (successive halving, as Optuna's
 * SuccessiveHalvingPruner and irace): every candidate plays the first slice of
 * the generation's common seeds; the best `keep` fraction of them, by their
 * objective over the seeds played so far, plays the next slice; and so on for
 * `rounds` slices. Candidates stopped early keep the mean of the games they
 * played. Which candidates go on depends only on stored games, so a resumed
 * run races exactly as an uninterrupted one.
 */

export interface RacingConfig {
  rounds: number;
  keep: number;
}

/** The generation's seeds cut into `rounds` consecutive slices, as equal as possible (earlier ones larger). */
export function raceSlices<T>(seeds: readonly T[], rounds: number): T[][] {
  const r = Math.min(rounds, seeds.length);
  const slices: T[][] = [];
  let at = 0;
  for (let i = 0; i < r; i++) {
    const size = Math.floor(seeds.length / r) + (i < seeds.length % r ? 1 : 0);
    slices.push(seeds.slice(at, at + size));
    at += size;
  }
  return slices;
}

/** How many of `alive` candidates go on to the next slice. */
export function survivors(alive: number, keep: number): number {
  return Math.max(1, Math.ceil(alive * keep - 1e-9));
}

/** Games a generation of `candidates` will play: Σ over slices of (candidates still racing) × (slice size). */
export function raceCost(candidates: number, seeds: number, racing: RacingConfig | undefined): number {
  if (!racing) return candidates * seeds;
  let alive = candidates;
  let cost = 0;
  for (const slice of raceSlices(Array.from({ length: seeds }, (_, i) => i), racing.rounds)) {
    cost += alive * slice.length;
    alive = survivors(alive, racing.keep);
  }
  return cost;
}

/**
 * The candidates that go on: the best `keep` fraction by `value` (higher is better); ties go to the
 * earlier candidate, so the choice is the same on every run.
 */
export function selectSurvivors<T extends { idx: number }>(alive: readonly T[], value: (c: T) => number, keep: number): T[] {
  const ranked = [...alive].sort((a, b) => value(b) - value(a) || a.idx - b.idx);
  return ranked.slice(0, survivors(alive.length, keep)).sort((a, b) => a.idx - b.idx);
}

/**
 * A race over held-out seeds (validation.race): every racer plays the first slice, the best `keep` fraction by
 * their games so far the next, and so on; returns those that played every seed (all of them without a race).
 * `play` plays a slice for the racers still in (only what is not stored yet); `value` reads a racer's stored
 * games up to the slices played, so a resumed race goes the same way.
 */
export async function raceOver<C>(
  racers: readonly C[],
  seeds: readonly number[],
  racing: RacingConfig | null,
  play: (alive: readonly C[], slice: readonly number[]) => Promise<void>,
  value: (racer: C, upTo: ReadonlySet<number>) => number,
): Promise<C[]> {
  const slices = racing ? raceSlices(seeds, racing.rounds) : [seeds];
  let alive = [...racers];
  for (let r = 0; r < slices.length; r++) {
    await play(alive, slices[r]);
    if (r === slices.length - 1) break;
    const upTo = new Set(slices.slice(0, r + 1).flat());
    alive = selectSurvivors(alive.map((c, idx) => ({ c, idx })), ({ c }) => value(c, upTo), racing!.keep).map(({ c }) => c);
  }
  return alive;
}
