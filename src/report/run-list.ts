/**
 * A run as one line of a list (`tune2048 runs`, the dashboard's runs page):
 * read without the config schema, so listing stays fast.
 */
import type { RunSummary, Store } from '../store/store';

export interface RunListItem {
  id: number;
  name: string;
  status: string;
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
  /** Validation games played and planned (the finalists and the start on the held-out seeds). */
  validation: { done: number; total: number };
  error: string | null;
}

/** The planned generations, optimizer and validation games, read without the config schema (runs must start fast). */
function plan(stored: unknown): { generations: number; optimizer: string; validationGames: number } {
  const config = (stored as { config: { optimizer: { generations: number; kind?: string }; validation?: { finalists?: number; games?: number } } }).config;
  const v = config.validation ?? {};
  // Validation plays the finalists and the start (a finalist that is the start is played once: this is the most).
  return { generations: config.optimizer.generations, optimizer: config.optimizer.kind ?? 'ga', validationGames: ((v.finalists ?? 0) + 1) * (v.games ?? 0) };
}

export function runListItem(r: RunSummary, now = Date.now()): RunListItem {
  const { generations, optimizer, validationGames } = plan(r.storedConfig);
  const end = r.finishedAt ?? (r.status === 'running' ? now : r.lastActivity);
  const elapsed = end === null ? null : (end - r.createdAt) / 1000;
  const phase = r.status !== 'running' ? null : r.generations >= generations ? 'validation' : 'fitness';
  const fitnessGames = r.gamesPlayed - r.validationGames;
  const validationLeft = Math.max(0, validationGames - r.validationGames);
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
    status: r.status,
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
    validation: { done: r.validationGames, total: validationGames },
    error: r.error,
  };
}

export function listRunItems(store: Store): RunListItem[] {
  const now = Date.now();
  return store.listRuns().map((r) => runListItem(r, now));
}

