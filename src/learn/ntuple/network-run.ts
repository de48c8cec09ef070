/**
 * A learning run of an n-tuple network: trained by threads in WebAssembly to `games` games, checkpointed
 * every `checkpointEvery` games and when stopped. A checkpoint plays the held-out greedy games (the
 * curve), writes the network file beside the database (atomically, holding no database lock), then names
 * it in one short transaction and deletes the previous checkpoint's file: only the latest keeps tables.
 *
 * The tables and the number of the next game are the whole state (with temporal coherence, the
 * accumulators too: a second file beside the network file, its hash in the checkpoint's stats), so with
 * one thread a run stopped anywhere (Ctrl-C at a game boundary; kill -9: from its latest checkpoint) and
 * resumed ends with exactly the tables of a run never stopped.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync } from 'node:fs';
import { freemem } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Store } from '../../store/store';
import { InputError, RunLostError } from '../../util/errors';
import { suggest } from '../../util/command-hint';
import { DEFAULT_HELD_OUT, learningRateAt, networkShapeOf, nextRateChange, type LearnConfig } from '../config';
import type { LearnOptions, LearnOutcome } from '../learn-run';
import { runStartBoards } from '../late-starts';
import { formatBytes } from './machine';
import { fileHash, networkFileBytes, readNetworkShape } from './network-file';
import { describeShape, sameShape, type NetworkShape } from './shape';
import { C } from './machine';
import { NetworkTraining, type GamesSummary, type TrainingSnapshot } from './training';

export interface CheckpointStats {
  threads: number;
  /** Training moves and seconds of training (both summed over resumes; held-out games not counted). */
  moves: number;
  trainSeconds: number;
  /**
   * Processor seconds of this process (every thread) while it trained: the measure of training on a machine
   * shared with other work. It includes writing the previous checkpoint's files, done while the threads train.
   */
  cpuSeconds?: number;
  /** Wall seconds the threads waited between chunks (held-out games, copying the state for its write): a checkpoint's cost (summed over resumes). */
  pauseSeconds?: number;
  /** The last 1,000 training games. */
  recent: GamesSummary;
  /** The held-out greedy games (null at a stop: a Ctrl-C does not wait for them). */
  heldOut: GamesSummary | null;
  /** With temporal coherence: the SHA-256 of the accumulators file beside the network file (accumulatorsFile). */
  accumulatorsSha256?: string;
}

/** The folder of a database's network files: beside it, named after it. */
export function networksDir(storePath: string): string {
  return join(dirname(resolve(storePath)), `${basename(storePath)}.networks`);
}

/** A checkpoint's network file as stored (relative to the database's folder) and as a path. */
function checkpointFile(storePath: string, runId: number, games: number): { rel: string; abs: string } {
  const rel = join(`${basename(storePath)}.networks`, `learn-${runId}-${games}.bin`);
  return { rel, abs: storedNetworkPath(storePath, rel) };
}

/** The accumulators file (temporal coherence) beside a checkpoint's network file. */
function accumulatorsFile(networkFile: string): string {
  return networkFile.replace(/\.bin$/, '.accumulators');
}

/**
 * A stored network file's path: its name in the database's networks folder as the database is named now. The
 * stored folder name (the database's name when the file was written) is not used, so a database renamed or
 * moved together with its networks folder (x.sqlite and x.sqlite.networks to y.sqlite and y.sqlite.networks)
 * finds its files.
 */
export function storedNetworkPath(storePath: string, rel: string): string {
  return join(networksDir(storePath), basename(rel));
}

/** The network kept at `games` games (config keepNetworkEvery): a name of its own, which no later checkpoint deletes. */
export function keptNetworkFile(storePath: string, runId: number, games: number): string {
  return join(networksDir(storePath), `kept-${runId}-${games}.bin`);
}

/** Networks a run still has to keep from `done` games to its end, beyond the latest checkpoint's (which the last one shares). */
function keptAhead(config: LearnConfig, done: number): number {
  const every = config.keepNetworkEvery;
  if (!every) return 0;
  return Math.max(0, Math.floor(config.games / every) - Math.floor(done / every) - (config.games % every === 0 ? 1 : 0));
}

/**
 * Keeps the checkpoint's network file `file` at `games` under its kept name when `games` is a multiple of
 * keepNetworkEvery: a hard link (no byte copied; the data stays when the checkpoint's own name is deleted), a
 * copy where the file system has none (written aside and renamed: a kill leaves no half file under the name).
 */
function keepIfDue(config: LearnConfig, storePath: string, runId: number, games: number, file: string): void {
  const every = config.keepNetworkEvery;
  if (!every || games === 0 || games % every !== 0) return;
  const kept = keptNetworkFile(storePath, runId, games);
  if (existsSync(kept)) return;
  try {
    linkSync(file, kept);
  } catch {
    try {
      copyFileSync(file, `${kept}.part`);
      renameSync(`${kept}.part`, kept);
    } catch (e) {
      rmSync(`${kept}.part`, { force: true });
      throw e;
    }
  }
}

/** Of a run's checkpoints (`curve`, as store.learnCurve gives them), the games of those whose network it has kept, oldest first: its kept files there now. */
export function keptNetworks(storePath: string, runId: number, curve: readonly { games: number }[]): number[] {
  return curve.map((c) => c.games).filter((games) => existsSync(keptNetworkFile(storePath, runId, games)));
}

/** A checkpoint's files, as many bytes as training holds in memory: the network file, and with coherence its accumulators (twice its tables). */
function checkpointBytes(shape: NetworkShape, coherence: boolean): number {
  return (coherence ? 3 : 1) * networkFileBytes(shape);
}

/**
 * Refuses to start a network the machine cannot hold, saying how much it needs: its memory (the tables in
 * one WebAssembly memory, three times over with temporal coherence's accumulators), and on the database's
 * disk two checkpoints' files (a checkpoint's files are written before the previous one's go) and the
 * networks it is to keep. Called before anything is created; a config of line tables has nothing to check.
 */
export function checkNetworkResources(config: LearnConfig, storePath: string): void {
  const shape = networkShapeOf(config);
  if (!shape) return;
  const coherence = config.coherence ?? false;
  const bytes = checkpointBytes(shape, coherence);
  if (bytes > freemem() + 256 * 2 ** 20) throw new InputError(`the network (${describeShape(shape)}${coherence ? ', with temporal coherence accumulators' : ''}) needs ${formatBytes(bytes)} of memory to train and this machine has ${formatBytes(freemem())} free`);
  checkDisk(dirname(resolve(storePath)), shape, coherence, keptAhead(config, 0));
}

function checkDisk(dir: string, shape: NetworkShape, coherence: boolean, kept: number): void {
  // Two checkpoints' files (the next is written before the previous goes), each with its accumulators under
  // coherence, and the networks the run is still to keep (keepNetworkEvery).
  const need = 2 * checkpointBytes(shape, coherence) + kept * networkFileBytes(shape);
  let free: number;
  try {
    const s = statfsSync(dir);
    free = s.bavail * s.bsize;
  } catch {
    return; // a file system that cannot say: the write will tell
  }
  const keeping = kept > 0 ? ` and ${kept} kept network${kept === 1 ? '' : 's'} of ${formatBytes(networkFileBytes(shape))} (keepNetworkEvery)` : '';
  if (free < need) throw new InputError(`a checkpoint of this network needs ${formatBytes(need)} free on the disk of "${dir}" (two checkpoints' files of ${formatBytes(checkpointBytes(shape, coherence))}${keeping}); it has ${formatBytes(free)}`);
}

/** Network files of this run no checkpoint names (a kill between writing one and naming it, or before deleting the old one), and a kept network's copy a kill left half written. */
function removeStrays(dir: string, runId: number, keep: string | null): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const kept = keep === null ? [] : [keep, accumulatorsFile(keep)];
  const stray = (name: string) => (name.startsWith(`learn-${runId}-`) && !kept.includes(name)) || (name.startsWith(`kept-${runId}-`) && name.endsWith('.part'));
  for (const name of names) if (stray(name)) rmSync(join(dir, name), { force: true });
}

export interface NetworkProgress {
  games: number;
  total: number;
  movesPerSecond: number;
  recent: GamesSummary;
  heldOut: GamesSummary | null;
}

/**
 * Before a resume changes anything: the latest checkpoint's network file is there and holds this run's
 * network (its header's shape), and with temporal coherence its accumulators file is there; with `whole`,
 * both files are the very ones the checkpoint stored (their SHA-256, a read of each: what `learn resume`
 * checks before it raises a target, so that a refused resume leaves the run as it was). One line naming the
 * file otherwise.
 */
export function checkCheckpointFiles(store: Store, runId: number, config: LearnConfig, { whole = false } = {}): void {
  const shape = networkShapeOf(config);
  const last = store.lastLearnCheckpoint(runId);
  if (!shape || !last?.tableFile) return;
  const path = storedNetworkPath(store.path, last.tableFile);
  const found = readNetworkShape(path); // a missing or foreign file says so in one line
  if (!sameShape(found, shape)) throw new InputError(`learning run ${runId}'s network file "${path}" holds another network (${describeShape(found)}) than the run's (${describeShape(shape)}): written by another config; put back the file its checkpoint at ${last.games} games wrote`);
  const accumulators = accumulatorsFile(path);
  if (config.coherence && !existsSync(accumulators)) throw new InputError(`learning run ${runId}'s accumulators file "${accumulators}" is missing: its checkpoint at ${last.games} games wrote it beside the network file, and the run goes on from both`);
  if (!whole) return;
  const notThe = (file: string, what: string, found: string, stored: string) => new InputError(`learning run ${runId}'s ${what} "${file}" is not the one its checkpoint at ${last.games} games stored (sha256 ${found.slice(0, 12)}…, stored ${stored.slice(0, 12)}…)`);
  const hash = fileHash(path);
  if (hash !== last.tableSha256) throw notThe(path, 'network file', hash, String(last.tableSha256));
  const storedAccumulators = (last.stats as CheckpointStats | null)?.accumulatorsSha256;
  if (config.coherence && storedAccumulators) {
    const sum = fileHash(accumulators, 'accumulators file');
    if (sum !== storedAccumulators) throw notThe(accumulators, 'accumulators file', sum, storedAccumulators);
  }
}

export async function runNetworkLearning(
  store: Store,
  runId: number,
  config: LearnConfig,
  options: LearnOptions & { threads?: number; onNetworkProgress?: (p: NetworkProgress) => void },
): Promise<LearnOutcome> {
  const shape = networkShapeOf(config)!;
  const threads = options.threads ?? config.threads ?? 1;
  const dir = networksDir(store.path);
  mkdirSync(dir, { recursive: true });
  const coherence = config.coherence ?? false;
  checkDisk(dir, shape, coherence, keptAhead(config, store.lastLearnCheckpoint(runId)?.games ?? 0));
  checkCheckpointFiles(store, runId, config);
  const before = store.requireLearnRun(runId);
  store.acquireLearnRun(runId);
  let training: NetworkTraining | null = null;
  // Until the checkpoint is loaded nothing is trained: a file found wrong then leaves the run as it was, not failed.
  let loaded = false;
  try {
    const boards = await runStartBoards(store, runId, config, options);
    if (boards === null) {
      // Stopped while collecting the late starts: nothing trained, the run stays where it was.
      store.releaseLearnRun(runId, 'stopped');
      const last = store.lastLearnCheckpoint(runId);
      return { status: 'stopped', games: last?.games ?? 0, config, recentMean: (last?.stats as CheckpointStats | null)?.recent.mean ?? 0 };
    }
    const starts = config.starts ? { boards, share: config.starts.share } : undefined;
    training = new NetworkTraining({ shape, threads, seed: config.seed, learningRate: config.learningRate, heldOut: config.heldOut ?? DEFAULT_HELD_OUT, starts, coherence, lambda: config.lambda, restarts: config.restarts });
    const last = store.lastLearnCheckpoint(runId);
    let moves0 = 0;
    let seconds0 = 0;
    let cpu0 = 0;
    let pause0 = 0;
    let heldOut: GamesSummary | null = null;
    if (last?.tableFile) {
      const path = storedNetworkPath(store.path, last.tableFile);
      const hash = training.load(path, `learning run ${runId}'s checkpoint at ${last.games} games ("${path}")`);
      if (hash !== last.tableSha256) throw new InputError(`learning run ${runId}'s network file "${path}" is not the one its checkpoint stored (sha256 ${hash.slice(0, 12)}…, stored ${String(last.tableSha256).slice(0, 12)}…)`);
      const stats = last.stats as CheckpointStats | null;
      if (coherence) {
        const at = accumulatorsFile(path);
        if (!stats?.accumulatorsSha256) throw new InputError(`learning run ${runId}'s checkpoint at ${last.games} games names no temporal coherence accumulators file`);
        const sum = training.loadAccumulators(at, `learning run ${runId}'s accumulators at ${last.games} games ("${at}")`);
        if (sum !== stats.accumulatorsSha256) throw new InputError(`learning run ${runId}'s accumulators file "${at}" is not the one its checkpoint stored (sha256 ${sum.slice(0, 12)}…, stored ${stats.accumulatorsSha256.slice(0, 12)}…)`);
      }
      training.games = last.games;
      moves0 = stats?.moves ?? 0;
      seconds0 = stats?.trainSeconds ?? 0;
      cpu0 = stats?.cpuSeconds ?? 0;
      pause0 = stats?.pauseSeconds ?? 0;
      heldOut = stats?.heldOut ?? null;
    } else if (last) {
      throw new InputError(`learning run ${runId}'s latest checkpoint holds no network file`);
    }
    loaded = true;
    removeStrays(dir, runId, last?.tableFile ? basename(last.tableFile) : null);
    // A kill between a checkpoint and its keeping: kept now, from the same file.
    if (last?.tableFile) keepIfDue(config, store.path, runId, last.games, storedNetworkPath(store.path, last.tableFile));
    let trainMs = 0;
    let chunkStart: number | null = null; // while the threads train: progress counts the chunk under way
    let cpuUs = 0;
    // Wall time between chunks (held-out games, the state's copy, waiting for a write): what checkpoints cost the threads.
    let pauseMs = 0;
    let pauseStart: number | null = null;
    let savedAt = training.games;
    const stats = (held: GamesSummary | null): CheckpointStats => ({
      threads,
      moves: moves0 + training!.movesDone(),
      trainSeconds: seconds0 + trainMs / 1000,
      cpuSeconds: cpu0 + cpuUs / 1e6,
      pauseSeconds: pause0 + pauseMs / 1000,
      recent: training!.recent(1000),
      heldOut: held,
    });
    const progress = () => {
      const done = Atomics.load(training!.machine.control, C.DONE) >>> 0;
      options.onNetworkProgress?.({
        games: done,
        total: config.games,
        movesPerSecond: ((ms) => (ms > 0 ? training!.movesDone() / (ms / 1000) : 0))(trainMs + (chunkStart === null ? 0 : performance.now() - chunkStart)),
        // Mid-chunk, the games before the count finished: exact on one thread; with several, a game still in
        // play may sit in the window (at most threads − 1 of 1,000) with the ring's older result.
        recent: training!.recent(1000, Math.max(done, training!.games)),
        heldOut,
      });
    };
    // A checkpoint's files are written while the next chunk trains, from a copy of the state taken at the
    // chunk's end (the same bytes as a write with the threads idle); one write at a time, stored in order.
    let writing: Promise<void> | null = null;
    let failure: { error: unknown } | null = null;
    const storeCheckpoint = async (state: TrainingSnapshot, s: CheckpointStats) => {
      const file = checkpointFile(store.path, runId, state.games);
      let previous: string | null;
      try {
        const sums = await training!.write(state, file.abs, accumulatorsFile(file.abs));
        if (sums.accumulatorsSha256) s.accumulatorsSha256 = sums.accumulatorsSha256;
        previous = store.saveLearnCheckpoint({ runId, games: state.games, meanScore: s.recent.mean, maxTile: s.recent.maxTile, tables: null, tableFile: file.rel, tableSha256: sums.sha256, stats: s, at: Date.now() });
      } catch (e) {
        rmSync(file.abs, { force: true });
        rmSync(accumulatorsFile(file.abs), { force: true });
        throw e;
      }
      keepIfDue(config, store.path, runId, state.games, file.abs);
      if (previous) {
        const old = storedNetworkPath(store.path, previous);
        rmSync(old, { force: true });
        rmSync(accumulatorsFile(old), { force: true });
      }
      options.onCheckpoint?.(state.games);
    };
    /** Waits for the checkpoint being written; its error (a full disk) is the run's. */
    const written = async () => {
      await writing;
      writing = null;
      if (failure) throw failure.error;
    };
    /** A checkpoint at a chunk's end; `goingOn`: more games follow, so its files may be written while they train. */
    const save = async (goingOn: boolean) => {
      if (training!.games === savedAt) return written();
      const stopped = training!.stopped;
      if (!stopped && config.heldOut?.games !== 0) heldOut = await training!.heldOut();
      await written();
      const s = stats(stopped ? null : heldOut);
      const copy = goingOn ? training!.snapshot() : null;
      savedAt = training!.games;
      writing = storeCheckpoint(copy ?? training!.live(), s).catch((e) => {
        failure = { error: e };
        training!.stop();
      });
      if (!copy) await written();
    };
    // The threads train while this thread waits: it stays free for signals and progress.
    const timer = setInterval(() => {
      if (options.shouldStop?.()) training!.stop();
      progress();
    }, 200);
    try {
      while (training.games < config.games && !training.stopped) {
        // A chunk ends at a checkpoint or where the learning rate changes (so a change falls between games alike on any resume).
        const limit = Math.min(config.games, (Math.floor(training.games / config.checkpointEvery) + 1) * config.checkpointEvery, nextRateChange(config, training.games));
        training.setLearningRate(learningRateAt(config, training.games));
        const t = (chunkStart = performance.now());
        if (pauseStart !== null) pauseMs += t - pauseStart;
        const cpu = process.cpuUsage();
        await training.trainTo(limit);
        trainMs += (pauseStart = performance.now()) - t;
        chunkStart = null;
        const used = process.cpuUsage(cpu);
        cpuUs += used.user + used.system;
        if (options.shouldStop?.()) training.stop();
        await save(training.games < config.games && !training.stopped);
      }
      await save(false);
    } finally {
      clearInterval(timer);
      // An error left a write under way: let it end (it removes its own files when it fails; it never rejects) before the memory goes.
      await writing;
    }
    const status = training.games >= config.games ? 'finished' : 'stopped';
    store.releaseLearnRun(runId, status);
    return { status, games: training.games, config, recentMean: training.recent(1000).mean };
  } catch (e) {
    // Best effort: on a full disk the database may refuse this write too, and the first error is the one to tell.
    if (!(e instanceof RunLostError)) {
      try {
        if (!loaded && e instanceof InputError) store.releaseLearnRun(runId, before.status === 'running' ? 'stopped' : before.status, before.error);
        else store.releaseLearnRun(runId, 'failed', (e as Error).message);
      } catch {
        // the run stays 'running' under this dead process: the next resume takes it over
      }
    }
    throw e;
  } finally {
    await training?.close();
  }
}

export function describeNetworkRun(config: LearnConfig): string {
  const changes = (config.rateChanges ?? []).map((c) => `, ${c.learningRate} from game ${c.games.toLocaleString('en-US')}`).join('');
  const r = config.restarts;
  const restarts = r ? `restarts at ${r.at} of the last episode while it made more than ${r.minMoves} moves${r.maxInRow ? `, at most ${r.maxInRow} in a row` : ''}, ` : '';
  return `${describeShape(networkShapeOf(config)!)}; ${config.lambda !== undefined ? `TD(λ = ${config.lambda}), ` : ''}${restarts}${config.coherence ? 'temporal coherence, ' : ''}learning rate ${config.learningRate}${changes}`;
}

/**
 * A network run's network file and the hash its checkpoint stored: the latest checkpoint's (`unfinished`: the run
 * is not finished and no --at was given), or with `at` the one kept at that many games (config keepNetworkEvery).
 * Refuses in one line a run without a checkpoint, or an `at` it kept no network at (naming those it kept).
 */
export function networkAt(store: Store, runId: number, at?: number): { path: string; sha256: string; games: number; unfinished: boolean } {
  const run = store.requireLearnRun(runId);
  const last = store.lastLearnCheckpoint(runId);
  if (!last?.tableFile) throw new InputError(`learning run ${runId} has no checkpoint yet: resume it first (${suggest(`learn resume ${runId}`, store.path)})`);
  if (at === undefined || at === last.games) return { path: storedNetworkPath(store.path, last.tableFile), sha256: last.tableSha256!, games: last.games, unfinished: run.status !== 'finished' && at === undefined };
  const curve = store.learnCurve(runId);
  const kept = keptNetworks(store.path, runId, curve);
  const held = [...new Set([...kept, last.games])].sort((a, b) => a - b);
  const which = `it holds the network${held.length === 1 ? '' : 's'} at ${held.join(', ')} games`;
  const point = curve.find((c) => c.games === at);
  if (!point) throw new InputError(`--at: learning run ${runId} has no checkpoint at ${at} games (${which})`);
  const path = keptNetworkFile(store.path, runId, at);
  if (!kept.includes(at)) {
    const every = (run.storedConfig as LearnConfig).keepNetworkEvery;
    throw new InputError(`--at: learning run ${runId} kept no network at ${at} games (${every ? `its config keeps one every ${every} games` : 'its config sets no keepNetworkEvery'}; ${which})`);
  }
  return { path, sha256: point.tableSha256!, games: at, unfinished: false };
}
