/**
 * The training of one n-tuple network: its memory, its threads, the games done, the summaries a curve is
 * made of (the last training games; held-out greedy games), and its tables to and from a network file.
 */
import { REACH_TILES } from '../../compare/summary';
import type { Board } from '../../engine/board';
import { NetworkMachine, type RestartRule } from './machine';
import { freemem } from 'node:os';
import { readAccumulatorsFile, readNetworkFile, writeAccumulatorsFile, writeAccumulatorsFileAsync, writeNetworkFile, writeNetworkFileAsync } from './network-file';
import { sameShape, type NetworkShape } from './shape';
import { InputError } from '../../util/errors';
import { Trainer } from './trainer';

export interface TrainingSettings {
  shape: NetworkShape;
  threads: number;
  /** Training game g is played on seed + g. */
  seed: number;
  /** The TD step on a board's value per unit of error, spread over its reads (8 per tuple). */
  learningRate: number;
  /** Held-out greedy games on evalSeed + 0..games−1, at each checkpoint (0: none). */
  heldOut: { games: number; seed: number };
  starts?: { boards: readonly Board[]; share: number };
  /** Temporal coherence learning: each entry's step scaled by |E| / A of its own errors (accumulators kept in memory and in checkpoints). */
  coherence?: boolean;
  /** TD(λ) backward over each episode at its end (absent: online TD(0)). */
  lambda?: number;
  /** Restarts: episodes from boards of the one before (machine.ts RestartRule). */
  restarts?: RestartRule;
  /** Ask for huge pages for the tables (default true; a benchmark turns it off to measure them). */
  hugePages?: boolean;
}

/** The tiles whose rates a checkpoint keeps: the ones play and compare report. */
export const RATE_TILES = REACH_TILES;

/** A checkpoint's state: the tables and accumulators in file order, after `games` games. */
export interface TrainingSnapshot {
  games: number;
  tables: Float32Array[];
  accumulators: Float32Array[];
}

export interface GamesSummary {
  games: number;
  /** Training games with restarts: their episodes in all (absent otherwise). */
  episodes?: number;
  mean: number;
  /** Share of games reaching each tile of RATE_TILES (in that order). */
  rates: number[];
  /** The largest tile any of them reached. */
  maxTile: number;
}

export function summarize(results: readonly { score: number; maxRank: number; episodes?: number }[]): GamesSummary {
  const n = results.length;
  const episodes = results.reduce((s, r) => s + (r.episodes ?? 0), 0);
  const mean = n === 0 ? 0 : results.reduce((s, r) => s + r.score, 0) / n;
  const rates = RATE_TILES.map((tile) => (n === 0 ? 0 : results.filter((r) => 2 ** r.maxRank >= tile).length / n));
  const maxTile = results.reduce((m, r) => Math.max(m, r.maxRank > 0 ? 2 ** r.maxRank : 0), 0);
  return episodes > n ? { games: n, episodes, mean, rates, maxTile } : { games: n, mean, rates, maxTile };
}

/** The TD step per entry of a learning rate: the rate spread over a value's reads (8 symmetric boards per tuple). */
function stepOf(rate: number, shape: NetworkShape): number {
  return rate / (8 * shape.tuples.length);
}

export class NetworkTraining {
  readonly machine: NetworkMachine;
  private trainer: Trainer | null = null;
  /** Training games done: every game below this number. */
  games = 0;
  /** The checkpoints' copy of the state (snapshot), once made. */
  private copy: ArrayBuffer | null = null;
  /** The first game this process trained: the ring holds no result of the games before it (a resumed run). */
  private firstPlayed: number | null = null;

  constructor(readonly settings: TrainingSettings) {
    this.machine = new NetworkMachine(settings.shape, {
      threads: settings.threads,
      trainSeed: settings.seed,
      evalSeed: settings.heldOut.seed,
      step: stepOf(settings.learningRate, settings.shape),
      evalCapacity: settings.heldOut.games,
      starts: settings.starts,
      coherence: settings.coherence,
      lambda: settings.lambda,
      restarts: settings.restarts,
      hugePages: settings.hugePages,
    });
  }

  private threads(): Trainer {
    return (this.trainer ??= new Trainer(this.machine));
  }

  /** The learning rate of the games trained from now on (a run's rateChanges). */
  setLearningRate(rate: number): void {
    this.machine.setStep(stepOf(rate, this.settings.shape));
  }

  /** Trains up to game `limit` (or a stop); returns the games done. */
  async trainTo(limit: number): Promise<number> {
    this.firstPlayed ??= this.games;
    this.games = await this.threads().train(this.games, limit);
    return this.games;
  }

  /** The held-out greedy games (no learning). */
  async heldOut(): Promise<GamesSummary> {
    return summarize(await this.threads().evaluate(this.settings.heldOut.games));
  }

  /** The last `count` training games before game `upTo` that this process played (all of them when fewer). */
  recent(count = 1000, upTo = this.games): GamesSummary {
    const from = Math.max(this.firstPlayed ?? this.games, upTo - count);
    return summarize(Array.from({ length: upTo - from }, (_, k) => this.machine.trainingGame(from + k)));
  }

  movesDone(): number {
    return this.machine.movesDone();
  }

  stop(): void {
    this.trainer?.stop();
  }

  get stopped(): boolean {
    return this.trainer?.stopped ?? false;
  }

  /** Writes the tables atomically; returns the file's SHA-256. */
  save(path: string): string {
    return writeNetworkFile(path, this.settings.shape, this.machine.tables());
  }

  /** Reads tables of this network's shape into its memory; returns the file's SHA-256. */
  load(path: string, origin = `network file "${path}"`): string {
    const expected = JSON.stringify(this.settings.shape);
    const file = readNetworkFile(path, (shape) => {
      if (!sameShape(shape, this.settings.shape)) {
        throw new InputError(`${origin} holds a network of another shape than ${expected}: written by another config`);
      }
      return this.machine.tables();
    });
    return file.sha256;
  }

  /** Writes the temporal coherence accumulators atomically (a run with coherence); returns the file's SHA-256. */
  saveAccumulators(path: string): string {
    return writeAccumulatorsFile(path, this.settings.shape, this.machine.accumulators());
  }

  /**
   * The state a checkpoint writes (the tables, with coherence the accumulators), copied out of the
   * training's memory so the threads may go on training while it is written: one buffer, allocated at the
   * first call and reused (3.2 GB for the four-stage 4×6 network with coherence). Null when the machine has
   * not that much memory to spare: the checkpoint is then written from the memory itself, the threads idle.
   */
  snapshot(): TrainingSnapshot | null {
    const { tables, accumulators } = this.live();
    const bytes = [...tables, ...accumulators].reduce((n, t) => n + t.byteLength, 0);
    if (!this.copy) {
      // Spare memory: the copy, and a quarter of it again for whatever else the machine runs.
      if (freemem() < 1.25 * bytes + 512 * 2 ** 20) return null;
      this.copy = new ArrayBuffer(bytes);
    }
    let at = 0;
    const copyOf = (t: Float32Array) => {
      const c = new Float32Array(this.copy!, at, t.length);
      c.set(t);
      at += t.byteLength;
      return c;
    };
    return { games: this.games, tables: tables.map(copyOf), accumulators: accumulators.map(copyOf) };
  }

  /** The state as it is in memory (nothing copied): for a checkpoint written while the threads idle. */
  live(): TrainingSnapshot {
    return { games: this.games, tables: this.machine.tables(), accumulators: this.settings.coherence ? this.machine.accumulators() : [] };
  }

  /** Writes a snapshot's network file (and accumulators file, with coherence) in the background; returns their SHA-256. */
  async write(snapshot: TrainingSnapshot, path: string, accumulatorsPath: string): Promise<{ sha256: string; accumulatorsSha256?: string }> {
    const sha256 = await writeNetworkFileAsync(path, this.settings.shape, snapshot.tables);
    if (!this.settings.coherence) return { sha256 };
    return { sha256, accumulatorsSha256: await writeAccumulatorsFileAsync(accumulatorsPath, this.settings.shape, snapshot.accumulators) };
  }

  /** Reads a run's temporal coherence accumulators into its memory; returns the file's SHA-256. */
  loadAccumulators(path: string, origin = `accumulators file "${path}"`): string {
    return readAccumulatorsFile(path, this.settings.shape, this.machine.accumulators(), origin);
  }

  async close(): Promise<void> {
    await this.trainer?.close();
    this.trainer = null;
    this.copy = null;
  }
}
