/**
 * A run as one line of a list (`tune2048 runs`, the dashboard's runs page):
 * read without the config schema, so listing stays fast.
 */
import { plannedValidationGames, validationControls, type ValidationPlan } from '../tuner/selection/validation-plan';
import { statusOf, type RunSummary, type Store } from '../store/store';
import { loadRunProblem } from '../tuner/run/run-problem';
import { validationProgress, type ValidationProgress } from '../tuner/selection/validation';
import { plannedGenerations, type RunConfig } from '../tuner/config/config';

export interface RunListItem {
  id: number;
  name: string;
  /** As every view says it: a run whose process is gone (kill -9) is stopped. */
  status: string;
  /** Marked running, but its process is gone: it goes on from what is stored (resume). */
  processGone: boolean;
  optimizer: string;
  /** Generations done, and planned. */
  generation: number;
  generations: number;
  games: number;
  validatedBest: number | null;
  bestInSample: number | null;
  bestCandidate: number | null;
  startedAt: number;
  elapsedSec: number | null;
  /** Seconds left at the pace of the games played so far (running runs only). */
  etaSec: number | null;
  /** What a running run does now: its generations, or, once they are done, validating its finalists and start. */
  phase: 'fitness' | 'validation' | null;
  /** Validation games played and planned (the finalists or front points, and the start, on the held-out seeds): src/tuner/selection/validation.ts; null before the generations are done. */
  validation: ValidationProgress | null;
  error: string | null;
}

/** The planned generations, optimizer and validation games, read without the config schema (runs must start fast). */
function plan(stored: unknown): { generations: number; optimizer: string; validationGames: number } {
  const config = (stored as { config: { optimizer: { generations: number; kind?: string }; validation?: ValidationPlan; fitness?: { cost?: string } } }).config;
  const kind = config.optimizer.kind ?? 'ga';
  const twoObjectives = config.fitness?.cost !== undefined && (kind === 'nsga2' || kind === 'random');
  const v = config.validation ?? {};
  // Validation plays the finalists (or the front's points) and the start (a finalist that is the start is played once: this is the most).
  return { generations: plannedGenerations(config as unknown as RunConfig), optimizer: kind, validationGames: plannedValidationGames(v, (twoObjectives ? (v.front ?? 10) : (v.finalists ?? 3)) + 1, twoObjectives, validationControls(kind)) };
}

/** A run as a list shows it; `validation`: its progress (validationProgress), null before its generations are done. */
export function runListItem(r: RunSummary, validation: ValidationProgress | null, now = Date.now()): RunListItem {
  const { generations, optimizer, validationGames } = plan(r.storedConfig);
  const { status, processGone } = statusOf(r);
  const end = r.finishedAt ?? (status === 'running' ? now : r.lastActivity);
  const elapsed = end === null ? null : (end - r.createdAt) / 1000;
  const phase = status !== 'running' ? null : validation !== null ? 'validation' : 'fitness';
  const fitnessGames = r.gamesPlayed - r.validationGames;
  // Before the set is chosen, the games it will take as planned (finalists and start); then the set's own.
  const validationLeft = validation !== null ? validation.total - validation.done : Math.max(0, validationGames - r.validationGames);
  // The rest of the generations at their pace so far, then the validation games at the pace of a game so far.
  const eta =
    phase === null || elapsed === null || r.gamesPlayed === 0
      ? null
      : phase === 'validation'
        ? (elapsed / r.gamesPlayed) * validationLeft
        : r.generations > 0
          ? (elapsed / r.generations) * (generations - r.generations) + (fitnessGames > 0 ? (elapsed / r.gamesPlayed) * validationLeft : 0)
          : null;
  return {
    id: r.id,
    name: r.name,
    status,
    processGone,
    optimizer,
    generation: r.generations,
    generations,
    games: r.gamesPlayed,
    validatedBest: r.bestValidation,
    bestInSample: r.bestFitness,
    bestCandidate: r.bestCandidate,
    startedAt: r.createdAt,
    elapsedSec: elapsed,
    etaSec: eta,
    phase,
    validation,
    error: r.error,
  };
}

/** A run's validation progress, read only for runs past their generations (the others have none yet). */
function validationOf(store: Store, r: RunSummary): ValidationProgress | null {
  if (r.generations < plan(r.storedConfig).generations && r.validationGames === 0 && r.bestCandidate === null) return null;
  return validationProgress(store, loadRunProblem(store, r.id));
}

export function listRunItems(store: Store): RunListItem[] {
  const now = Date.now();
  return store.listRuns().map((r) => runListItem(r, validationOf(store, r), now));
}

/** One run as listRunItems gives it. */
export function runItem(store: Store, id: number): RunListItem {
  const r = store.requireRunSummary(id);
  return runListItem(r, validationOf(store, r));
}

