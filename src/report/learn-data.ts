/**
 * What the dashboard shows of learning runs: the list, and one run's curve (checkpoints with their training
 * time, moves, the last training games' and the held-out games' summaries).
 */
import type { LearnConfig } from '../learn/config';
import type { CheckpointStats } from '../learn/ntuple/network-run';
import { describeShape } from '../learn/ntuple/shape';
import { networkShapeOf } from '../learn/config';
import { statusOf, type LearnCheckpoint, type LearnRun, type Store } from '../store/store';

export interface LearnItem {
  id: number;
  name: string;
  status: string;
  /** "4 tuples of 6 cells, one stage", or "line tables". */
  network: string;
  /** An n-tuple network (it plays on its own: the viewer can watch it), or line tables (terms added to weights). */
  ntuple: boolean;
  games: number;
  total: number;
  /** The latest held-out greedy mean (n-tuple networks), else the latest checkpoint's training mean. */
  latestMean: number | null;
}

export interface LearnPoint {
  games: number;
  /** Training minutes (n-tuple networks; null for line tables). */
  minutes: number | null;
  /** Processor minutes of training (n-tuple networks whose checkpoints count them; else null). */
  cpuMinutes: number | null;
  recentMean: number;
  heldOutMean: number | null;
  stats: CheckpointStats | null;
}

function networkOf(config: LearnConfig): string {
  const shape = networkShapeOf(config);
  return shape ? describeShape(shape) : 'line tables';
}

/** A run as the list shows it, from its latest checkpoint. */
function learnItem(r: LearnRun, last: LearnCheckpoint | undefined): LearnItem {
  const stats = (last?.stats ?? null) as CheckpointStats | null;
  const config = r.storedConfig as LearnConfig;
  // A run marked running whose process is gone (kill -9) is stopped: it goes on from its last checkpoint.
  return { id: r.id, name: r.name, status: statusOf(r).status, network: networkOf(config), ntuple: networkShapeOf(config) !== null, games: last?.games ?? 0, total: config.games, latestMean: stats?.heldOut?.mean ?? last?.meanScore ?? null };
}

export function listLearnItems(store: Store): LearnItem[] {
  return store.listLearnRuns().map((r) => learnItem(r, store.learnCurve(r.id).at(-1)));
}

/** One run and its curve (its checkpoints read once; the other runs not at all). */
export function learnDetail(store: Store, id: number): { run: LearnItem; curve: LearnPoint[] } {
  const checkpoints = store.learnCurve(id);
  const run = learnItem(store.requireLearnRun(id), checkpoints.at(-1));
  const curve = checkpoints.map((c) => {
    const stats = (c.stats ?? null) as CheckpointStats | null;
    return { games: c.games, minutes: stats ? stats.trainSeconds / 60 : null, cpuMinutes: stats?.cpuSeconds !== undefined ? stats.cpuSeconds / 60 : null, recentMean: c.meanScore, heldOutMean: stats?.heldOut?.mean ?? null, stats };
  });
  return { run, curve };
}
