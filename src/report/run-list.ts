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
  /** Seconds left at the pace of the generations done so far (running runs only). */
  etaSec: number | null;
  error: string | null;
}

/** The planned generations and optimizer, read without the config schema (runs must start fast). */
function plan(stored: unknown): { generations: number; optimizer: string } {
  const c = (stored as { config: { optimizer: { generations: number; kind?: string } } }).config.optimizer;
  return { generations: c.generations, optimizer: c.kind ?? 'ga' };
}

export function runListItem(r: RunSummary, now = Date.now()): RunListItem {
  const { generations, optimizer } = plan(r.storedConfig);
  const end = r.finishedAt ?? (r.status === 'running' ? now : r.lastActivity);
  const elapsed = end === null ? null : (end - r.createdAt) / 1000;
  const eta = r.status === 'running' && r.generations > 0 && elapsed !== null ? (elapsed / r.generations) * Math.max(0, generations - r.generations) : null;
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
    error: r.error,
  };
}

export function listRunItems(store: Store): RunListItem[] {
  const now = Date.now();
  return store.listRuns().map((r) => runListItem(r, now));
}

