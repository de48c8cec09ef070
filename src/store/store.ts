/**
 * The one persistence API (Optuna's "storage"): only the parent process opens the database. WAL mode; every
 * write is one immediate transaction (a finished batch of games is one transaction), so kill -9 loses only games
 * in flight. Store is a thin facade over the parts, each a file: opening (open.ts), who holds a run
 * (holders.ts), tuning runs (tuning.ts), games (games.ts) and learning runs (learning.ts).
 */
import type Database from 'better-sqlite3';
import { hostname } from 'node:os';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema';
import type { StoreContext } from './context';
import { GameRecords } from './games';
import { Holders } from './holders';
import { LearningRecords } from './learning';
import { openDatabase, type OpenOptions } from './open';
import { TuningRecords } from './tuning';
import type { Candidate, FinalistPrediction, Game, GamePurpose, Generation, LearnCheckpoint, LearnRun, NewCandidate, PlayedGame, ResultKind, Run, RunGame, RunStatus, RunSummary, StoredResult, StoredResultRecord } from './records';

export { DEFAULT_DB } from '../util/command-hint';
export * from './records';
export { creationProblem, describeOpenError, type OpenOptions } from './open';
export { holderGone, STALE_HEARTBEAT_MS, statusOf } from './holders';

/** How often, and how far apart, a writer at its end tries to leave WAL mode while a reader has the file open. */
const LEAVE_WAL_ATTEMPTS = 12;
const LEAVE_WAL_WAIT_MS = 100;

export class Store {
  readonly path: string;
  readonly readonly: boolean;
  private readonly db: Database.Database;
  private readonly dispose: () => void;
  /** The tuning run this process holds (acquireRun): every write checks it still does. */
  private held: { id: number; pid: number; host: string } | null = null;
  private readonly runHolders: Holders;
  private readonly tuning: TuningRecords;
  private readonly games: GameRecords;
  private readonly learning: LearningRecords;

  private constructor(path: string, opened: ReturnType<typeof openDatabase>, readonly: boolean) {
    this.path = path;
    this.db = opened.db;
    this.dispose = opened.dispose;
    this.readonly = readonly;
    const ctx: StoreContext = { db: this.db, path, empty: opened.empty, schemaVersion: () => this.schemaVersion(), write: (fn) => this.write(fn) };
    this.runHolders = new Holders(this.db, 'runs', (id) => `run ${id}`);
    this.games = new GameRecords(ctx);
    this.learning = new LearningRecords(ctx, new Holders(this.db, 'learn_runs', (id) => `learning run ${id}`));
    this.tuning = new TuningRecords(ctx, this.games, () => this.learning.listLearnRuns().length);
  }

  static open(path: string, options: OpenOptions = {}): Store {
    const opened = openDatabase(path, options);
    const store = new Store(path, opened, options.readonly ?? false);
    if ((options.migrate ?? true) && !store.readonly) {
      try {
        store.migrate();
      } catch (e) {
        store.close();
        throw e;
      }
    }
    return store;
  }

  /** Applies migrations user_version+1 .. SCHEMA_VERSION, each in its own transaction. */
  migrate(upTo = SCHEMA_VERSION): void {
    const current = this.schemaVersion();
    for (let v = current; v < upTo; v++) {
      this.db
        .transaction(() => {
          this.db.exec(MIGRATIONS[v]);
          this.db.pragma(`user_version = ${v + 1}`);
          this.db.pragma(`application_id = ${APPLICATION_ID}`);
        })
        .immediate();
    }
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /**
   * Closes. A writer first checkpoints the WAL into the main file and, when no one else has the file
   * open, turns WAL off: a file at rest then needs no -wal or -shm beside it, so readers can open it
   * in a read-only folder or mount, and never create those files (which SQLite would give the file's
   * own read-only mode, breaking every later open). The next writer turns WAL on again.
   * A failure here (a full disk, a reader still open) loses nothing: the WAL keeps every commit.
   * Safe to call twice.
   */
  close(): void {
    if (!this.db.open) return;
    try {
      if (!this.readonly) {
        this.db.pragma('wal_checkpoint(TRUNCATE)');
        this.leaveWal();
      }
    } catch {
      // the WAL stays beside the file; the next open reads it
    } finally {
      this.db.close();
      this.dispose();
    }
  }

  /**
   * journal_mode = DELETE, which needs the file to itself. SQLite answers "locked" at once (busy_timeout does
   * not apply) while any reader has it open; this project's readers (learn show --follow, the dashboard) open
   * it for one look at a time, so a few tries over a second find it free. Someone holding it longer: it stays
   * in WAL mode (throws), losing nothing.
   */
  private leaveWal(): void {
    this.db.pragma('busy_timeout = 0');
    for (let attempt = 1; ; attempt++) {
      try {
        this.db.pragma('journal_mode = DELETE');
        return;
      } catch (e) {
        if (attempt >= LEAVE_WAL_ATTEMPTS || !String((e as { code?: string }).code).startsWith('SQLITE_BUSY')) throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, LEAVE_WAL_WAIT_MS);
      }
    }
  }

  /** A write transaction (immediate) that first checks this process still holds its run. */
  private write<T>(fn: () => T): T {
    return this.db
      .transaction(() => {
        if (this.held) this.runHolders.check(this.held.id, this.held.pid, this.held.host);
        return fn();
      })
      .immediate();
  }

  // ---- who holds a tuning run (holders.ts) ----

  /**
   * Makes this process the run's holder. Refuses (RunBusyError) while another
   * live process holds it; a dead pid on this host or an old heartbeat is stale
   * and taken over.
   */
  acquireRun(id: number, pid = process.pid, host = hostname(), now = Date.now()): void {
    this.runHolders.acquire(id, () => this.requireRun(id), pid, host, now, (run) => {
      // A generation left open by a stop: the time since the last holder's last sign of life is no play of it.
      if (run.heartbeatAt !== null) this.db.prepare("UPDATE generations SET paused_ms = paused_ms + max(0, ? - max(?, started_at)) WHERE run_id = ? AND status = 'open'").run(now, run.heartbeatAt, id);
    });
    this.held = { id, pid, host };
  }

  /** Renews the holder's heartbeat; throws RunLostError when another process has taken the run over. */
  heartbeat(id: number, now = Date.now()): void {
    this.write(() => this.runHolders.beat(id, now));
  }

  /** Gives the run up with its final status, unless another process has taken it over meanwhile. */
  releaseRun(id: number, status: Exclude<RunStatus, 'running'>, error: string | null = null): void {
    const held = this.held;
    if (!held || held.id !== id) return;
    this.held = null;
    this.runHolders.release(id, held.pid, held.host, status, error);
  }

  // ---- tuning (tuning.ts) ----

  createRun(run: { name: string; storedConfig: unknown; configHash: string; seed: number }): number {
    return this.tuning.createRun(run);
  }

  getRun(id: number): Run | undefined {
    return this.tuning.getRun(id);
  }

  setStoredConfigPart(id: number, key: string, value: unknown): void {
    this.tuning.setStoredConfigPart(id, key, value);
  }

  requireRun(id: number): Run {
    return this.tuning.requireRun(id);
  }

  listRuns(): RunSummary[] {
    return this.tuning.listRuns();
  }

  /** The run's summary (listRuns's figures for one run). */
  requireRunSummary(id: number): RunSummary {
    return this.tuning.requireRunSummary(id);
  }

  /** The runs of a name, oldest first (a race finds its runs again by name). */
  findRunsByName(name: string): Run[] {
    return this.tuning.findRunsByName(name);
  }

  /** Where the run's last session played (a queue as displayed, null: local workers); undefined: never recorded. */
  lastQueue(runId: number): string | null | undefined {
    return this.tuning.lastQueue(runId);
  }

  setLastQueue(runId: number, queue: string | null): void {
    this.tuning.setLastQueue(runId, queue);
  }

  setBestCandidate(runId: number, candidateId: number): void {
    this.tuning.setBestCandidate(runId, candidateId);
  }

  getGeneration(runId: number, idx: number): Generation | undefined {
    return this.tuning.getGeneration(runId, idx);
  }

  listGenerations(runId: number): Generation[] {
    return this.tuning.listGenerations(runId);
  }

  /** Inserts a generation and its candidates atomically, unless it already exists. */
  insertGeneration(runId: number, idx: number, state: unknown, candidates: readonly NewCandidate[]): void {
    this.tuning.insertGeneration(runId, idx, state, candidates);
  }

  finishGeneration( runId: number, idx: number, fitness: readonly { id: number; fitness: number }[], stats: { best: number; mean: number; stdev: number; games: number }, ): void {
    this.tuning.finishGeneration(runId, idx, fitness, stats);
  }

  /**
   * Another run's generation copied into run `runId` as it stood (tune --fitness-from): its state, figures and
   * times, its candidates under their own ids (states and parents name them) with their fitness, and their
   * fitness games; in one transaction.
   */
  copyGeneration(runId: number, g: Generation, candidates: readonly Candidate[], games: readonly Game[]): void {
    this.tuning.copyGeneration(runId, g, candidates, games);
  }

  /** Whether any candidate of any run has an id from `lo` to `hi`. */
  candidateIdsTaken(lo: number, hi: number): boolean {
    return this.tuning.candidateIdsTaken(lo, hi);
  }

  /** A generation's candidates, in their order. */
  getCandidates(runId: number, generation: number): Candidate[] {
    return this.tuning.getCandidates(runId, generation);
  }

  getCandidate(id: number): Candidate | undefined {
    return this.tuning.getCandidate(id);
  }

  /** The candidates validated on held-out games (the finalists), best validation first. */
  validatedCandidates(runId: number): Candidate[] {
    return this.tuning.validatedCandidates(runId);
  }

  setValidation(candidateId: number, value: number): void {
    this.tuning.setValidation(candidateId, value);
  }

  /** The model's finalists with its predictions, in one transaction (validation begins: the set is fixed from here, on every resume). */
  setPredictions(predictions: readonly { candidateId: number; prediction: FinalistPrediction }[]): void {
    this.tuning.setPredictions(predictions);
  }

  /** A run's finalists as the model chose them (with its predictions), in their order; empty before validation began or for other optimizers. */
  predictedFinalists(runId: number): Candidate[] {
    return this.tuning.predictedFinalists(runId);
  }

  setConfirmation(candidateId: number, value: number): void {
    this.tuning.setConfirmation(candidateId, value);
  }

  /** Keeps a result (a comparison, a sweep, a race checkpoint), tied to a run or not; its id. */
  insertResult(runId: number | null, stored: StoredResult): number {
    return this.tuning.insertResult(runId, stored);
  }

  /** A run's stored results of one kind, oldest first. */
  listResults<K extends ResultKind>(runId: number, kind: K): StoredResultRecord<K>[] {
    return this.tuning.listResults(runId, kind);
  }

  // ---- games (games.ts) ----

  /** The games of a comparison's player (compare --db) among these seeds, by seed. */
  comparisonGames(player: string, seeds: readonly number[]): Map<number, PlayedGame> {
    return this.games.comparisonGames(player, seeds);
  }

  /** Keeps a finished batch of a comparison's games in one transaction (a game already kept stays as it is). */
  keepComparisonGames(player: string, games: readonly PlayedGame[]): void {
    this.games.keepComparisonGames(player, games);
  }

  /** Stores one finished batch in one immediate transaction; a game already stored is left as it is. */
  insertGames(games: readonly Game[]): void {
    this.games.insertGames(games);
  }

  /** A run's kept moves of held-out games (an external player's, for the viewer), by "candidate:seed". */
  runMoves(runId: number): Map<string, string> {
    return this.games.runMoves(runId);
  }

  /** A candidate's held-out game with its stored moves and the highest score (null: none kept, e.g. a built-in player's). */
  bestReplay(candidateId: number): { seed: number; score: number; moves: number; moveList: string } | null {
    return this.games.bestReplay(candidateId);
  }

  /** A candidate's games of one purpose, in seed order. */
  getGames(candidateId: number, purpose: GamePurpose): Game[] {
    return this.games.getGames(candidateId, purpose);
  }

  /**
   * The games of one purpose of a generation's candidates, in one read: candidate id → its games in seed
   * order (a candidate with none is absent).
   */
  generationGames(runId: number, generation: number, purpose: GamePurpose): Map<number, Game[]> {
    return this.games.generationGames(runId, generation, purpose);
  }

  /** Every game of a run in one read, in a stable order (generation, candidate, purpose, seed). */
  runGames(runId: number): RunGame[] {
    return this.games.runGames(runId);
  }

  // ---- learning (learning.ts) ----

  createLearnRun(run: { name: string; storedConfig: unknown }): number {
    return this.learning.createLearnRun(run);
  }

  requireLearnRun(id: number): LearnRun {
    return this.learning.requireLearnRun(id);
  }

  listLearnRuns(): LearnRun[] {
    return this.learning.listLearnRuns();
  }

  /** Rewrites a learning run's stored config (`learn resume --games/--learning-rate`); a finished run becomes stopped again. */
  updateLearnConfig(id: number, change: (config: Record<string, unknown>) => Record<string, unknown>): void {
    this.learning.updateLearnConfig(id, change);
  }

  /** Makes this process the learning run's holder (the rules of acquireRun). */
  acquireLearnRun(id: number, pid = process.pid, host = hostname(), now = Date.now()): void {
    this.learning.acquireLearnRun(id, pid, host, now);
  }

  /**
   * Stores a checkpoint (the tables of the previous one dropped: only the latest is resumed from), if this
   * process still holds the run. A line network's tables go in the row; an n-tuple network's file was
   * written beside the database first (outside this transaction: writing 268 MB holds no lock) and is named.
   * Returns the network file the previous checkpoint named, now unreferenced (the caller deletes it).
   */
  saveLearnCheckpoint(c: Omit<LearnCheckpoint, 'tables'> & { tables: Uint8Array | null }, pid = process.pid, host = hostname()): string | null {
    return this.learning.saveLearnCheckpoint(c, pid, host);
  }

  /** The run's curve, oldest first (tables left out). */
  learnCurve(id: number): LearnCheckpoint[] {
    return this.learning.learnCurve(id);
  }

  /** The checkpoint a run goes on from (the latest, with its tables), or undefined before the first. */
  lastLearnCheckpoint(id: number): LearnCheckpoint | undefined {
    return this.learning.lastLearnCheckpoint(id);
  }

  /** A learning run's stored late-start boards (learn/late-starts.ts encodes them), or null before their first collection. */
  learnStarts(id: number): Buffer | null {
    return this.learning.learnStarts(id);
  }

  /** Stores a learning run's late-start boards, if this process holds the run. */
  saveLearnStarts(id: number, boards: Uint8Array, pid = process.pid, host = hostname()): void {
    this.learning.saveLearnStarts(id, boards, pid, host);
  }

  /** Gives the learning run up with its final status (if this process still holds it). */
  releaseLearnRun(id: number, status: Exclude<RunStatus, 'running'>, error: string | null = null, pid = process.pid, host = hostname()): void {
    this.learning.releaseLearnRun(id, status, error, pid, host);
  }

  /**
   * The SQLite connection itself, for tests only: fault injection (a page limit standing in for a full
   * disk) and checks of the file. Production code reads and writes through the methods above.
   */
  connectionForTests(): Database.Database {
    return this.db;
  }
}
