/**
 * How many held-out games validation plays, counted in one place: the tuner's progress bar, the views' "N of M
 * held-out games" and the ETAs of runs and the dashboard all read it. Pure and schema-free (runs are listed
 * before any config is parsed).
 */
import { raceCost, type RacingConfig } from './racing';

/** The validation section of a config, as stored (defaults as the schema's). */
export interface ValidationPlan {
  finalists?: number;
  front?: number;
  games?: number;
  race?: RacingConfig | null;
  confirm?: number;
}

/**
 * Held-out games of a validation: `racers` (the finalists and the start; absent: the config's finalists and the
 * start, the most) over the held-out seeds, raced with `controls` of them (the start, …) playing every seed, and with a
 * second set, the choice and its rival (the start, or the best other finalist) on its seeds.
 */
export function plannedValidationGames(v: ValidationPlan, racers = (v.finalists ?? 3) + 1, twoObjectives = false, controls = 1): number {
  const games = v.games ?? 100;
  const race = twoObjectives ? null : (v.race ?? null);
  const confirm = !twoObjectives && v.confirm !== undefined ? v.confirm * Math.min(2, racers) : 0;
  return raceCost(racers, games, race, controls) + confirm;
}

/**
 * The controls of an optimizer's held-out race, never stopped: the start, and for an optimizer whose own point is
 * what may be chosen over it (the surrogate: optimizer.pooled without finalists of its own, selection/verdict.ts
 * ownPoint) that point too (the most: when its point is the start, one).
 */
export function validationControls(optimizerKind: string | undefined): number {
  return optimizerKind === 'surrogate' ? 2 : 1;
}
