/**
 * A learning run: trains its line network to `games` games, storing a checkpoint (the network and the
 * curve) every `checkpointEvery` games and when stopped. The network and the number of the next game are
 * the whole state, so a run stopped anywhere (Ctrl-C, kill -9: it goes on from its latest checkpoint)
 * and resumed ends with exactly the tables of a run never stopped.
 */
import { InputError } from '../util/errors';
import type { Board } from '../engine/board';
import { createRng } from '../engine/spawn';
import type { Store } from '../store/store';
import { parseLearnConfig, type LearnConfig } from './config';
import { runStartBoards } from './late-starts';
import { emptyNetwork, type LineNetwork } from './line-network';
import { decodeNetwork, encodeNetwork } from './table-file';
import { runNetworkLearning, type NetworkProgress } from './ntuple/network-run';
import { trainGame } from './td';

export interface LearnProgress {
  games: number;
  total: number;
  /** Mean score of the training games since the last checkpoint. */
  recentMean: number;
}

/**
 * The late-start boards of a config (src/player/late-boards.ts; injected, so learn/ needs no player); null
 * when a stop came while collecting them (the run is then stopped where it was).
 */
export type StartBoards = (starts: NonNullable<LearnConfig['starts']>, seed: number, on?: { shouldStop?: () => boolean }) => Promise<Board[] | null>;

export interface LearnOptions {
  /** Required when the config has `starts`. */
  startBoards?: StartBoards;
  onProgress?: (p: LearnProgress) => void;
  /** Asked between games: true stops the run at this game boundary (stored, resumable). */
  shouldStop?: () => boolean;
  /** Test hook: called after each stored checkpoint. */
  onCheckpoint?: (games: number) => void;
  /** N-tuple networks: training threads (default: the config's, else 1). */
  threads?: number;
  /** N-tuple networks: progress with moves/s, the last games' rates and the held-out mean. */
  onNetworkProgress?: (p: NetworkProgress) => void;
}

export interface LearnOutcome {
  status: 'finished' | 'stopped';
  games: number;
  config: LearnConfig;
  /** Mean score of the last checkpoint's games. */
  recentMean: number;
}

/** Yields to the event loop this often, so signals are seen while the CPU trains. */
const SLICE_MS = 50;

/** The network a run goes on from, and its next game. */
export function learnState(store: Store, runId: number): { net: LineNetwork; games: number } {
  const last = store.lastLearnCheckpoint(runId);
  if (last?.tableFile) throw new Error(`learning run ${runId} is an n-tuple network: its tables are in a network file`);
  if (!last?.tables) return { net: emptyNetwork(), games: 0 };
  return { net: decodeNetwork(last.tables, `learning run ${runId}'s checkpoint at ${last.games} games`), games: last.games };
}

export async function runLearning(store: Store, runId: number, options: LearnOptions = {}): Promise<LearnOutcome> {
  const run = store.requireLearnRun(runId);
  const config = parseLearnConfig(run.storedConfig, `learning run ${runId}'s stored config`);
  if (config.network) return runNetworkLearning(store, runId, config, options);
  store.acquireLearnRun(runId);
  const start = learnState(store, runId);
  const net = start.net;
  let games = start.games;
  let lateStarts: Board[] = [];
  /** Game g's start: one of the late boards for a seeded share of games, else a new game. */
  const startOf = (g: number): Board | undefined =>
    config.starts && createRng(`${config.seed}:share:${g}`)() < config.starts.share ? lateStarts[g % lateStarts.length] : undefined;
  let sum = 0;
  let count = 0;
  let top = 0;
  let recentMean = store.learnCurve(runId).at(-1)?.meanScore ?? 0;
  let savedAt = games;
  const save = () => {
    if (games === savedAt) return;
    recentMean = sum / count;
    store.saveLearnCheckpoint({ runId, games, meanScore: recentMean, maxTile: 2 ** top, tables: encodeNetwork(net), at: Date.now() });
    savedAt = games;
    sum = count = top = 0;
    options.onCheckpoint?.(games);
  };
  try {
    const found = await runStartBoards(store, runId, config, options);
    if (found === null) {
      store.releaseLearnRun(runId, 'stopped');
      return { status: 'stopped', games, config, recentMean };
    }
    lateStarts = found;
    let sliceStart = performance.now();
    while (games < config.games && !options.shouldStop?.()) {
      const g = trainGame(net, config.seed + games, config.learningRate, startOf(games));
      games++;
      sum += g.score;
      count++;
      top = Math.max(top, g.maxRank);
      if (games % config.checkpointEvery === 0 || games === config.games) save();
      if (performance.now() - sliceStart > SLICE_MS) {
        options.onProgress?.({ games, total: config.games, recentMean: count > 0 ? sum / count : recentMean });
        await new Promise((r) => setImmediate(r));
        sliceStart = performance.now();
      }
    }
    save();
    const status = games >= config.games ? 'finished' : 'stopped';
    store.releaseLearnRun(runId, status);
    return { status, games, config, recentMean };
  } catch (e) {
    store.releaseLearnRun(runId, 'failed', (e as Error).message);
    throw e;
  }
}

/**
 * What `learn resume` changes in a run's config before it goes on: the games to train to (--games, above those
 * played) and, for a network, a learning rate from the latest checkpoint on (--learning-rate: the changes the
 * config planned from there replaced). Refuses in one line what cannot be.
 */
export function resumePlan(runId: number, config: LearnConfig, done: number, opts: { games?: number; learningRate?: number }): { games: number; rateChanges: LearnConfig['rateChanges'] } {
  if (opts.games !== undefined && opts.games <= done) throw new InputError(`--games ${opts.games} is not above the ${done} games learning run ${runId} has already played`);
  const games = opts.games ?? config.games;
  let rateChanges = config.rateChanges;
  if (opts.learningRate !== undefined) {
    if (!config.network) throw new InputError(`--learning-rate is for n-tuple networks; learning run ${runId} learns line tables`);
    if (done === 0) throw new InputError(`learning run ${runId} has no checkpoint yet: set "learningRate" in its config instead`);
    if (games <= done) throw new InputError(`learning run ${runId} has played all its ${config.games} games: add --games N (above ${done}) to train on at another rate`);
    // The new rate holds from the checkpoint on: changes the config planned from there are replaced.
    rateChanges = [...(config.rateChanges ?? []).filter((c) => c.games < done), { games: done, learningRate: opts.learningRate }];
  }
  return { games, rateChanges };
}
