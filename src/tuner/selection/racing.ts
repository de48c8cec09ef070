/**
 * Racing (successive halving, as Optuna's SuccessiveHalvingPruner and irace): every racer plays the first slice
 * of some common seeds; the best `keep` fraction of them, by their objective over the seeds played so far, plays
 * the next slice; and so on for `rounds` slices. One loop (race) serves both races of a run: the candidates of a
 * generation over its fitness seeds (fitness.racing) and the finalists over the held-out seeds (validation.race).
 *
 * A racer stopped after a slice keeps the mean of the games it played, a mean of a slice it was stopped for
 * reading low: it is ranked by the round it reached first, then by its mean (byRoundThenValue), as ASHA and irace
 * rank, never by its mean against the full means of those that went on. A control (the run's start in the
 * held-out race, and a pooled optimizer's own point beside it) is never stopped: it plays every seed, so whatever is set against it is paired on every seed
 * the other played. Which racers go on depends only on stored games, so a resumed race goes the same way.
 */

export interface RacingConfig {
  rounds: number;
  keep: number;
}

/** The seeds cut into `rounds` consecutive slices, as equal as possible (earlier ones larger). */
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

/** How many of `alive` racers go on to the next slice. */
export function survivors(alive: number, keep: number): number {
  return Math.max(1, Math.ceil(alive * keep - 1e-9));
}

/**
 * Games a race of `racers` over `seeds` plays: Σ over slices of (racers still in) × (slice size); with
 * `controls` of them controls, those play every seed and the others race (the games planned, in one place).
 */
export function raceCost(racers: number, seeds: number, racing: RacingConfig | null | undefined, controls = 0): number {
  if (!racing) return racers * seeds;
  const controlled = Math.min(controls, racers);
  let alive = racers - controlled;
  let cost = controlled * seeds;
  for (const slice of raceSlices(Array.from({ length: seeds }, (_, i) => i), racing.rounds)) {
    cost += alive * slice.length;
    alive = alive > 0 ? survivors(alive, racing.keep) : 0;
  }
  return cost;
}

/** The round a racer reached (1 … rounds) from how many of the race's seeds it played, in slice order. */
export function roundReached(played: number, seeds: number, racing: RacingConfig | null | undefined): number {
  if (!racing) return 1;
  let round = 0;
  let upTo = 0;
  for (const slice of raceSlices(Array.from({ length: seeds }, (_, i) => i), racing.rounds)) {
    upTo += slice.length;
    if (played >= upTo) round++;
    else break;
  }
  return Math.max(1, round);
}

/**
 * The round a generation's candidate reached in its fitness race: one that played no game of it (an elite carried
 * over without replaying, reevaluateElites false) ranks in the top round by the fitness it brought, as one that
 * played every seed: it raced through an earlier generation.
 */
export function generationRound(played: number, seeds: number, racing: RacingConfig | null | undefined): number {
  return roundReached(played === 0 ? seeds : played, seeds, racing);
}

/** A racer's standing: the round it reached, then its value (higher is better in both). */
export interface Standing {
  round: number;
  value: number;
}

/** Orders standings best first: the later round first, then the higher value (NaN last). */
export function byRoundThenValue(a: Standing, b: Standing): number {
  return b.round - a.round || (Number.isNaN(a.value) ? -Infinity : b.value - a.value) || 0;
}

/**
 * The racers that go on: the best `keep` fraction by `value` (higher is better); ties go to the earlier racer,
 * so the choice is the same on every run.
 */
export function selectSurvivors<T extends { idx: number }>(alive: readonly T[], value: (c: T) => number, keep: number): T[] {
  const ranked = [...alive].sort((a, b) => value(b) - value(a) || a.idx - b.idx);
  return ranked.slice(0, survivors(alive.length, keep)).sort((a, b) => a.idx - b.idx);
}

/**
 * A race over some seeds: every racer plays the first slice, the best `keep` fraction by their games so far the
 * next, and so on (without racing: one slice, every seed). The `controls` are never stopped. `play` plays a
 * slice for the racers still in (only what is not stored yet); `value` reads a racer's stored games over the
 * seeds played so far, so a resumed race goes the same way. Returns the round each racer reached (the last
 * round: it played every seed).
 */
export async function race<C>(
  racers: readonly C[],
  seeds: readonly number[],
  racing: RacingConfig | null | undefined,
  play: (alive: readonly C[], slice: readonly number[]) => Promise<void>,
  value: (racer: C, upTo: ReadonlySet<number>) => number,
  controls: readonly C[] = [],
): Promise<Map<C, number>> {
  const slices = racing ? raceSlices(seeds, racing.rounds) : [seeds];
  const reached = new Map<C, number>(racers.map((c) => [c, 0]));
  let alive = [...racers];
  for (let r = 0; r < slices.length; r++) {
    await play(alive, slices[r]);
    for (const c of alive) reached.set(c, r + 1);
    if (r === slices.length - 1) break;
    const upTo = new Set(slices.slice(0, r + 1).flat());
    const others = alive.filter((c) => !controls.includes(c));
    const kept = new Set(selectSurvivors(others.map((c, idx) => ({ c, idx })), ({ c }) => value(c, upTo), racing!.keep).map(({ c }) => c));
    alive = alive.filter((c) => controls.includes(c) || kept.has(c));
  }
  return reached;
}
