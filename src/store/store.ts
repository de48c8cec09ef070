/**
 * The one persistence API (Optuna's "storage"): only the parent process opens
 * the database. WAL mode; every write is one immediate transaction (a finished
 * batch of games is one transaction), so kill -9 loses only games in flight.
 */
import Database from 'better-sqlite3';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { hostname, tmpdir } from 'node:os';
import { describeFsError, InputError, RunBusyError, RunLostError } from '../util/errors';
import { pidAlive } from '../util/proc';
import { DEFAULT_DB, suggest } from '../util/command-hint';
import { APPLICATION_ID, MIGRATIONS, OLDEST_READABLE_SCHEMA, SCHEMA_VERSION } from './schema';
import {
  decodeCandidate,
  decodeGeneration,
  decodeLearnCheckpoint,
  decodeLearnRun,
  decodeRun,
  decodeRunSummary,
  decodeStoredGame,
  gameColumns,
  type Candidate,
  type CandidateRow,
  type FinalistPrediction,
  type Game,
  type GamePurpose,
  type Generation,
  type GenerationRow,
  type Holder,
  type LearnCheckpoint,
  type LearnCheckpointRow,
  type LearnRun,
  type LearnRunRow,
  type NewCandidate,
  type PlayedGame,
  type ResultKind,
  type Run,
  type RunGame,
  type RunRow,
  type RunStatus,
  type RunSummary,
  type RunSummaryRow,
  type StoredResult,
  type StoredResultRecord,
} from './records';

export { DEFAULT_DB } from '../util/command-hint';

export * from './records';

/** How often, and how far apart, a writer at its end tries to leave WAL mode while a reader has the file open. */
const LEAVE_WAL_ATTEMPTS = 12;
const LEAVE_WAL_WAIT_MS = 100;

/** A holder whose heartbeat is older than this is stale, even if its pid exists. */
export const STALE_HEARTBEAT_MS = 60_000;

/**
 * A run marked running whose process is gone (kill -9, a crash, the machine restarted): its holder was on
 * this host and its pid is dead. (On another host nothing tells; its heartbeat goes stale.)
 */
export function holderGone(run: Holder): boolean {
  return run.status === 'running' && run.ownerPid !== null && run.ownerHost === hostname() && !pidAlive(run.ownerPid);
}

/**
 * A run's status as every view says it: one marked running whose process is gone is stopped (it goes on
 * from what is stored). `processGone` says why, for the views that explain it.
 */
export function statusOf(run: Holder): { status: RunStatus; processGone: boolean } {
  const processGone = holderGone(run);
  return { status: processGone ? 'stopped' : run.status, processGone };
}

export interface OpenOptions {
  /** Create the file (and its folder) when missing (default true; ignored when readonly). */
  create?: boolean;
  /**
   * Read only (runs, show, export, report): never writes, never creates, works on a read-only file,
   * folder or mount, and never stands in a writer's way.
   */
  readonly?: boolean;
  /** Apply pending migrations (default true). Tests pass false to build old files. */
  migrate?: boolean;
  /** Run quick_check first (default true). A server re-opening a file it checked at start skips it. */
  check?: boolean;
  /** What the command looks for (a missing database's message says how to start one): tuning runs (default) or learning runs. */
  purpose?: 'tuning' | 'learning';
}

/** The one-line problem with opening `path` for writing, or null (checked before SQLite tries). */
/**
 * Why a database could not be created at `path` (which does not exist yet), creating nothing: the nearest
 * existing folder above it must be a writable folder. A command checks this before its work, and creates
 * the file only when it has something to keep.
 */
export function creationProblem(path: string): string | null {
  let dir = dirname(resolve(path));
  for (;;) {
    try {
      if (!statSync(dir).isDirectory()) return `cannot create database "${path}": "${dir}" is a file, not a folder`;
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot create database "${path}": ${describeFsError(e)}`;
      // One rule for every path a user names (as --out's): a folder named must exist; only the default db/ is made.
      if (!isDefaultDatabase(path)) return missingFolder(path);
      dir = dirname(dir);
    }
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    return `cannot create database "${path}": its folder is not writable (${describeFsError(e)})`;
  }
  return null;
}

/** Whether a path is the default database's (db/tune2048.sqlite where the command runs): its folder is made when missing. */
function isDefaultDatabase(path: string): boolean {
  return resolve(path) === resolve(DEFAULT_DB);
}

/** A named database's folder that is not there: refused, as every command refuses a missing folder it is given (export --out). */
function missingFolder(path: string): string {
  return `cannot create database "${path}": the folder "${dirname(path)}" does not exist (make it first, or name a database in an existing folder)`;
}

/** A missing database, said with the command that starts what the command asked about in it. */
function missingDatabase(path: string, purpose: OpenOptions['purpose']): string {
  const start = purpose === 'learning' ? suggest(['learn', 'start', '-c', 'learn-ntuple-small'], path) : suggest(['tune', '-c', 'quick'], path);
  return `no database at "${path}": start ${purpose === 'learning' ? 'a learning run' : 'a run'} in it with ${start}, or name another with --db`;
}

function writeProblem(path: string, create: boolean, purpose: OpenOptions['purpose']): string | null {
  let exists = true;
  try {
    if (statSync(path).isDirectory()) return `database "${path}" is a folder, not a file`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot open database "${path}": ${describeFsError(e)}`;
    exists = false;
  }
  if (!exists) {
    if (!create) return missingDatabase(path, purpose);
    if (!existsSync(dirname(resolve(path)))) {
      if (!isDefaultDatabase(path)) return missingFolder(path);
      try {
        mkdirSync(dirname(resolve(path)), { recursive: true });
      } catch (e) {
        return `cannot create database "${path}": ${describeFsError(e)}`;
      }
    }
  }
  // SQLite writes the file and, in WAL mode, a -wal and a -shm file beside it.
  for (const [what, target] of [['the database', path], ['its folder', dirname(resolve(path))]] as const) {
    if (what === 'the database' && !exists) continue;
    try {
      accessSync(target, constants.W_OK);
    } catch (e) {
      return `cannot write database "${path}": ${what} is not writable (${describeFsError(e)})`;
    }
  }
  return null;
}

/** An error from SQLite at open or first read, as a one-line InputError naming the file. */
export function describeOpenError(path: string, e: unknown): Error {
  if (e instanceof InputError) return e;
  const code = (e as { code?: string }).code ?? '';
  if (code === 'SQLITE_NOTADB') return new InputError(`"${path}" is not a SQLite database`);
  if (code.startsWith('SQLITE_CORRUPT')) return new InputError(`"${path}" is damaged (${(e as Error).message}); refusing to use it: restore a backup or pass another --db`);
  if (code.startsWith('SQLITE_CANTOPEN')) return new InputError(`cannot open database "${path}": ${(e as Error).message}`);
  if (code.startsWith('SQLITE_READONLY')) return new InputError(`cannot write database "${path}": ${(e as Error).message}`);
  if (code === 'SQLITE_FULL') return new InputError(`cannot write database "${path}": the disk is full`);
  return e as Error;
}

/**
 * A read-only connection to `path`. A file in WAL mode (a writer killed, or one that could not leave WAL
 * mode at its end) needs a -shm file beside it; in a read-only folder SQLite can create none and refuses
 * the file ("attempt to write a readonly database"). Then the file and its -wal are read from a private
 * copy in the temporary folder (removed by `dispose`): a read never writes beside the database.
 */
function openReadonly(path: string): { db: Database.Database; dispose: () => void } {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('user_version', { simple: true }); // the first read is where a WAL file without its -shm fails
    return { db, dispose: () => undefined };
  } catch (e) {
    if (db?.open) db.close();
    const code = (e as { code?: string }).code ?? '';
    if (code !== 'SQLITE_READONLY_DIRECTORY' && code !== 'SQLITE_CANTOPEN' && code !== 'SQLITE_READONLY_CANTINIT') throw e;
    const copy = mkdtempSync(join(tmpdir(), 'tune2048-read-'));
    const dispose = () => rmSync(copy, { recursive: true, force: true });
    try {
      const target = join(copy, basename(path));
      copyFileSync(path, target);
      if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${target}-wal`);
      const copied = new Database(target, { readonly: true, fileMustExist: true });
      return { db: copied, dispose };
    } catch {
      dispose();
      throw e;
    }
  }
}

/** Refuses (RunBusyError) a run another live process holds; a dead pid on this host or an old heartbeat is stale. */
function refuseIfHeld(what: string, run: Holder, pid: number, host: string, now: number): void {
  if (run.status !== 'running' || run.ownerPid === null || (run.ownerPid === pid && run.ownerHost === host)) return;
  const fresh = run.heartbeatAt !== null && now - run.heartbeatAt < STALE_HEARTBEAT_MS;
  const alive = run.ownerHost !== host || pidAlive(run.ownerPid);
  if (fresh && alive) {
    const age = ((now - (run.heartbeatAt ?? now)) / 1000).toFixed(0);
    throw new RunBusyError(`${what} is held by pid ${run.ownerPid} on ${run.ownerHost} (heartbeat ${age}s ago); stop it first or wait`);
  }
}

export class Store {
  readonly path: string;
  readonly readonly: boolean;
  private readonly db: Database.Database;
  /** An empty file opened read-only: it holds no runs (and no tables). */
  private readonly empty: boolean;
  /** The run this process holds (acquireRun): every write checks it still does. */
  private held: { id: number; pid: number; host: string } | null = null;

  /** Removes what opening needed outside the database's folder (a read-only copy), after close. */
  private dispose: () => void = () => undefined;

  private constructor(path: string, db: Database.Database, readonly: boolean, empty: boolean) {
    this.path = path;
    this.db = db;
    this.readonly = readonly;
    this.empty = empty;
  }

  /** A stored result's kind: its column from schema 5, else (a reader of an older file) the JSON's own field. */
  private kindSql(): string {
    return this.schemaVersion() >= 5 ? 'kind' : "coalesce(json_extract(result, '$.kind'), 'comparison')";
  }

  static open(path: string, options: OpenOptions = {}): Store {
    const { create = true, readonly = false, migrate = true, check: quickCheck = true } = options;
    if (!readonly) {
      const problem = writeProblem(path, create, options.purpose);
      if (problem) throw new InputError(problem);
    } else {
      try {
        if (statSync(path).isDirectory()) throw new InputError(`database "${path}" is a folder, not a file`);
      } catch (e) {
        if (e instanceof InputError) throw e;
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new InputError(missingDatabase(path, options.purpose));
        throw new InputError(`cannot open database "${path}": ${describeFsError(e)}`);
      }
    }
    let db: Database.Database | null = null;
    let dispose = () => {};
    try {
      if (readonly) ({ db, dispose } = openReadonly(path));
      else db = new Database(path);
      db.pragma('busy_timeout = 5000');
      const appId = db.pragma('application_id', { simple: true }) as number;
      const version = db.pragma('user_version', { simple: true }) as number;
      const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
      if (appId !== APPLICATION_ID && (appId !== 0 || tables > 0)) {
        throw new InputError(`"${path}" is not a tune2048 database (it holds other data); refusing to touch it`);
      }
      if (version > SCHEMA_VERSION) {
        throw new InputError(`"${path}" has schema version ${version}, newer than this tune2048 understands (${SCHEMA_VERSION}); upgrade tune2048`);
      }
      const empty = readonly && tables === 0; // a writer migrates an empty file to the schema
      if (readonly && !empty && version < OLDEST_READABLE_SCHEMA) {
        throw new InputError(`"${path}" has schema version ${version}, older than this tune2048's (${SCHEMA_VERSION}); a writing command upgrades it (e.g. tune2048 resume <run> --db ${path})`);
      }
      // Before anything is written: a damaged file is refused, not written into (and not read as if whole).
      const check = quickCheck ? (db.pragma('quick_check(3)') as { quick_check: string }[]).map((r) => r.quick_check).filter((line) => !line.startsWith('***')) : ['ok'];
      if (check[0] !== 'ok') throw new InputError(`"${path}" is damaged (SQLite quick_check: ${check[0]}); refusing to use it: restore a backup or pass another --db`);
      if (!readonly) {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        db.pragma('foreign_keys = ON');
      }
      const store = new Store(path, db, readonly, empty);
      store.dispose = dispose;
      if (migrate && !readonly) store.migrate();
      return store;
    } catch (e) {
      if (db?.open) db.close();
      dispose();
      throw describeOpenError(path, e);
    }
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

  /** Inside a write of a run this process holds: throws RunLostError if another process took the run over. */
  private checkHeld(): void {
    const held = this.held;
    if (!held) return;
    const row = this.db.prepare('SELECT owner_pid, owner_host, heartbeat_at FROM runs WHERE id = ?').get(held.id) as
      | { owner_pid: number | null; owner_host: string | null }
      | undefined;
    if (row?.owner_pid === held.pid && row.owner_host === held.host) return;
    const who = row?.owner_pid != null ? `pid ${row.owner_pid} on ${row.owner_host}` : 'another process';
    throw new RunLostError(`run ${held.id} was taken over by ${who} while this process was paused or silent; this process stops and writes nothing more`);
  }

  /** A write transaction (immediate) that first checks this process still holds its run. */
  private write<T>(fn: () => T): T {
    return this.db
      .transaction(() => {
        this.checkHeld();
        return fn();
      })
      .immediate();
  }

  // ---- runs ----

  createRun(run: { name: string; storedConfig: unknown; configHash: string; seed: number }): number {
    const info = this.db
      .prepare('INSERT INTO runs (name, config, config_hash, seed, status, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(run.name, JSON.stringify(run.storedConfig), run.configHash, run.seed, 'stopped', Date.now());
    return Number(info.lastInsertRowid);
  }

  getRun(id: number): Run | undefined {
    if (this.empty) return undefined;
    const row = this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    return row && decodeRun(row);
  }

  requireRun(id: number): Run {
    const run = this.getRun(id);
    if (!run) {
      // A database of learning runs only: point there rather than at an empty list.
      const learning = this.listRuns().length === 0 ? this.listLearnRuns().length : 0;
      throw new InputError(`no run ${id} in "${this.path}" (${learning > 0 ? `it holds ${learning} learning run${learning === 1 ? '' : 's'}: see "${suggest('learn show', this.path)}"` : `see "${suggest('runs', this.path)}"`})`);
    }
    return run;
  }

  listRuns(): RunSummary[] {
    if (this.empty) return [];
    return (
      this.db
        .prepare(
          `SELECT r.*,
             (SELECT count(*) FROM generations g WHERE g.run_id = r.id AND g.status = 'done') AS generations,
             (SELECT max(c.fitness) FROM candidates c WHERE c.run_id = r.id) AS best_fitness,
             (SELECT c.validation FROM candidates c WHERE c.id = r.best_candidate) AS best_validation,
             (SELECT max(max(g.started_at), coalesce(max(g.finished_at), 0)) FROM generations g WHERE g.run_id = r.id) AS last_activity,
             (SELECT count(*) FROM games x JOIN candidates c ON c.id = x.candidate_id WHERE c.run_id = r.id) AS games_played,
             (SELECT count(*) FROM games x JOIN candidates c ON c.id = x.candidate_id WHERE c.run_id = r.id AND x.purpose = 'validation') AS validation_games
           FROM runs r ORDER BY r.id`,
        )
        .all() as RunSummaryRow[]
    ).map(decodeRunSummary);
  }

  /** The run's summary (listRuns's figures for one run). */
  requireRunSummary(id: number): RunSummary {
    this.requireRun(id);
    return this.listRuns().find((r) => r.id === id)!;
  }

  /** The runs of a name, oldest first (a race finds its runs again by name). */
  findRunsByName(name: string): Run[] {
    if (this.empty) return [];
    return (this.db.prepare('SELECT * FROM runs WHERE name = ? ORDER BY id').all(name) as RunRow[]).map(decodeRun);
  }

  /**
   * Makes this process the run's holder. Refuses (RunBusyError) while another
   * live process holds it; a dead pid on this host or an old heartbeat is stale
   * and taken over.
   */
  acquireRun(id: number, pid = process.pid, host = hostname(), now = Date.now()): void {
    this.db
      .transaction(() => {
        const run = this.requireRun(id);
        refuseIfHeld(`run ${id}`, run, pid, host, now);
        // A generation left open by a stop: the time since the last holder's last sign of life is no play of it.
        if (run.heartbeatAt !== null) {
          this.db.prepare("UPDATE generations SET paused_ms = paused_ms + max(0, ? - max(?, started_at)) WHERE run_id = ? AND status = 'open'").run(now, run.heartbeatAt, id);
        }
        this.db
          .prepare("UPDATE runs SET status = 'running', owner_pid = ?, owner_host = ?, heartbeat_at = ?, error = NULL WHERE id = ?")
          .run(pid, host, now, id);
      })
      .immediate();
    this.held = { id, pid, host };
  }

  /** Renews the holder's heartbeat; throws RunLostError when another process has taken the run over. */
  heartbeat(id: number, now = Date.now()): void {
    this.write(() => this.db.prepare('UPDATE runs SET heartbeat_at = ? WHERE id = ?').run(now, id));
  }

  /** Gives the run up with its final status, unless another process has taken it over meanwhile. */
  releaseRun(id: number, status: Exclude<RunStatus, 'running'>, error: string | null = null): void {
    const held = this.held;
    if (!held || held.id !== id) return;
    this.held = null;
    this.db
      // heartbeat_at stays as the moment of release: a resume counts the time from there as a pause.
      .prepare('UPDATE runs SET status = ?, owner_pid = NULL, owner_host = NULL, heartbeat_at = ?, error = ?, finished_at = ? WHERE id = ? AND owner_pid = ? AND owner_host = ?')
      .run(status, Date.now(), error, status === 'finished' ? Date.now() : null, id, held.pid, held.host);
  }

  /** Where the run's last session played (a queue as displayed, null: local workers); undefined: never recorded. */
  lastQueue(runId: number): string | null | undefined {
    const row = this.db.prepare('SELECT last_queue FROM runs WHERE id = ?').get(runId) as { last_queue?: string | null } | undefined;
    return row && 'last_queue' in row ? row.last_queue : undefined;
  }

  setLastQueue(runId: number, queue: string | null): void {
    this.write(() => this.db.prepare('UPDATE runs SET last_queue = ? WHERE id = ?').run(queue, runId));
  }

  setBestCandidate(runId: number, candidateId: number): void {
    this.write(() => this.db.prepare('UPDATE runs SET best_candidate = ? WHERE id = ?').run(candidateId, runId));
  }

  // ---- generations and candidates ----

  getGeneration(runId: number, idx: number): Generation | undefined {
    const row = this.db.prepare('SELECT * FROM generations WHERE run_id = ? AND idx = ?').get(runId, idx) as GenerationRow | undefined;
    return row && decodeGeneration(row);
  }

  listGenerations(runId: number): Generation[] {
    return (this.db.prepare('SELECT * FROM generations WHERE run_id = ? ORDER BY idx').all(runId) as GenerationRow[]).map(decodeGeneration);
  }

  /** Inserts a generation and its candidates atomically, unless it already exists. */
  insertGeneration(runId: number, idx: number, state: unknown, candidates: readonly NewCandidate[]): void {
    this.write(() => {
      if (this.db.prepare('SELECT 1 FROM generations WHERE run_id = ? AND idx = ?').get(runId, idx)) return;
      this.db
        .prepare("INSERT INTO generations (run_id, idx, state, status, started_at) VALUES (?, ?, ?, 'open', ?)")
        .run(runId, idx, JSON.stringify(state), Date.now());
      const insert = this.db.prepare(
        'INSERT INTO candidates (run_id, generation, idx, genome, params, origin, parents) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      candidates.forEach((c, i) => insert.run(runId, idx, i, JSON.stringify(c.genome), JSON.stringify(c.params), c.origin, JSON.stringify(c.parents)));
    });
  }

  finishGeneration(
    runId: number,
    idx: number,
    fitness: readonly { id: number; fitness: number }[],
    stats: { best: number; mean: number; stdev: number; games: number },
  ): void {
    this.write(() => {
      const set = this.db.prepare('UPDATE candidates SET fitness = ? WHERE id = ?');
      for (const f of fitness) set.run(f.fitness, f.id);
      this.db
        .prepare(
          "UPDATE generations SET status = 'done', best_fitness = ?, mean_fitness = ?, stdev_fitness = ?, games = ?, finished_at = ? WHERE run_id = ? AND idx = ?",
        )
        .run(stats.best, stats.mean, stats.stdev, stats.games, Date.now(), runId, idx);
    });
  }

  /**
   * Another run's generation copied into run `runId` as it stood (tune --fitness-from): its state, figures and
   * times, its candidates under their own ids (states and parents name them) with their fitness, and their
   * fitness games; in one transaction.
   */
  copyGeneration(runId: number, g: Generation, candidates: readonly Candidate[], games: readonly Game[]): void {
    this.write(() => {
      this.db
        .prepare('INSERT INTO generations (run_id, idx, state, status, best_fitness, mean_fitness, stdev_fitness, games, started_at, finished_at, paused_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(runId, g.idx, JSON.stringify(g.state), g.status, g.bestFitness, g.meanFitness, g.stdevFitness, g.games, g.startedAt, g.finishedAt, g.pausedMs);
      const candidate = this.db.prepare('INSERT INTO candidates (id, run_id, generation, idx, genome, params, origin, parents, fitness) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      for (const c of candidates) candidate.run(c.id, runId, c.generation, c.idx, JSON.stringify(c.genome), JSON.stringify(c.params), c.origin, JSON.stringify(c.parents), c.fitness);
      this.putGames(games);
    });
  }

  /** Whether any candidate of any run has an id from `lo` to `hi`. */
  candidateIdsTaken(lo: number, hi: number): boolean {
    return this.db.prepare('SELECT 1 FROM candidates WHERE id BETWEEN ? AND ? LIMIT 1').get(lo, hi) !== undefined;
  }

  /** A generation's candidates, in their order. */
  getCandidates(runId: number, generation: number): Candidate[] {
    return (this.db.prepare('SELECT * FROM candidates WHERE run_id = ? AND generation = ? ORDER BY idx').all(runId, generation) as CandidateRow[]).map(decodeCandidate);
  }

  getCandidate(id: number): Candidate | undefined {
    const row = this.db.prepare('SELECT * FROM candidates WHERE id = ?').get(id) as CandidateRow | undefined;
    return row && decodeCandidate(row);
  }

  /** The candidates validated on held-out games (the finalists), best validation first. */
  validatedCandidates(runId: number): Candidate[] {
    return (this.db.prepare('SELECT * FROM candidates WHERE run_id = ? AND validation IS NOT NULL ORDER BY validation DESC').all(runId) as CandidateRow[]).map(decodeCandidate);
  }

  setValidation(candidateId: number, value: number): void {
    this.write(() => this.db.prepare('UPDATE candidates SET validation = ? WHERE id = ?').run(value, candidateId));
  }

  /** The model's finalists with its predictions, in one transaction (validation begins: the set is fixed from here, on every resume). */
  setPredictions(predictions: readonly { candidateId: number; prediction: FinalistPrediction }[]): void {
    this.write(() => {
      const set = this.db.prepare('UPDATE candidates SET prediction = ? WHERE id = ?');
      for (const p of predictions) set.run(JSON.stringify(p.prediction), p.candidateId);
    });
  }

  /** A run's finalists as the model chose them (with its predictions), in their order; empty before validation began or for other optimizers. */
  predictedFinalists(runId: number): Candidate[] {
    if (this.empty || this.schemaVersion() < 11) return [];
    const rows = this.db.prepare('SELECT * FROM candidates WHERE run_id = ? AND prediction IS NOT NULL ORDER BY id').all(runId) as CandidateRow[];
    return rows.map(decodeCandidate).sort((a, b) => b.prediction!.mean - a.prediction!.mean || a.id - b.id);
  }

  setConfirmation(candidateId: number, value: number): void {
    this.write(() => this.db.prepare('UPDATE candidates SET confirmation = ? WHERE id = ?').run(value, candidateId));
  }

  // ---- stored results: comparisons, sweeps, race checkpoints ----

  /** Keeps a result (a comparison, a sweep, a race checkpoint), tied to a run or not; its id. */
  insertResult(runId: number | null, stored: StoredResult): number {
    if (runId !== null) this.requireRun(runId);
    const info = this.db.prepare('INSERT INTO comparisons (run_id, created_at, kind, result) VALUES (?, ?, ?, ?)').run(runId, Date.now(), stored.kind, JSON.stringify(stored.result));
    return Number(info.lastInsertRowid);
  }

  /** A run's stored results of one kind, oldest first. */
  listResults<K extends ResultKind>(runId: number, kind: K): StoredResultRecord<K>[] {
    if (this.empty) return [];
    const kindOf = this.kindSql();
    const rows = this.db
      .prepare(`SELECT id, run_id AS runId, created_at AS createdAt, ${kindOf} AS kind, result FROM comparisons WHERE run_id = ? AND ${kindOf} = ? ORDER BY id`)
      .all(runId, kind) as { id: number; runId: number | null; createdAt: number; kind: K; result: string }[];
    return rows.map((r) => ({ ...r, result: JSON.parse(r.result) }) as StoredResultRecord<K>);
  }

  /** The games of a comparison's player (compare --db) among these seeds, by seed. */
  comparisonGames(player: string, seeds: readonly number[]): Map<number, PlayedGame> {
    const found = new Map<number, PlayedGame>();
    if (this.empty || seeds.length === 0) return found;
    const wanted = new Set(seeds);
    const rows = this.db
      .prepare(`SELECT seed, score, max_tile AS maxTile, moves, ms${this.countsNodes() ? ', nodes' : ''} FROM compare_games WHERE player = ? AND seed BETWEEN ? AND ?`)
      .all(player, Math.min(...seeds), Math.max(...seeds)) as PlayedGame[];
    for (const r of rows) if (wanted.has(r.seed)) found.set(r.seed, decodeStoredGame(r));
    return found;
  }

  /** Keeps a finished batch of a comparison's games in one transaction (a game already kept stays as it is). */
  keepComparisonGames(player: string, games: readonly PlayedGame[]): void {
    const insert = this.db.prepare('INSERT OR IGNORE INTO compare_games (player, seed, score, max_tile, moves, ms, nodes) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const g of games) insert.run(player, g.seed, g.score, g.maxTile, g.moves, g.ms, g.nodes ?? null);
    }).immediate();
  }

  // ---- games ----

  /** Stores one finished batch in one immediate transaction; a game already stored is left as it is. */
  insertGames(games: readonly Game[]): void {
    this.write(() => this.putGames(games));
  }

  /** Games stored inside the caller's transaction; a game already stored is left as it is. */
  private putGames(games: readonly Game[]): void {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO games (candidate_id, purpose, seed, score, max_tile, moves, ms, nodes, regret) VALUES (@candidateId, @purpose, @seed, @score, @maxTile, @moves, @ms, @nodes, @regret)',
    );
    // Moves are kept for held-out games only: those are the ones the viewer shows (fitness games are many).
    const keepMoves = this.db.prepare('INSERT OR IGNORE INTO game_moves (candidate_id, purpose, seed, moves) VALUES (?, ?, ?, ?)');
    for (const g of games) {
      insert.run({ candidateId: g.candidateId, purpose: g.purpose, seed: g.seed, score: g.score, maxTile: g.maxTile, moves: g.moves, ms: g.ms, nodes: g.nodes ?? null, regret: g.regret ?? null });
      if (g.moveList !== undefined && g.purpose === 'validation') keepMoves.run(g.candidateId, g.purpose, g.seed, g.moveList);
    }
  }

  /** A run's kept moves of held-out games (an external player's, for the viewer), by "candidate:seed". */
  runMoves(runId: number): Map<string, string> {
    if (this.empty || this.schemaVersion() < 7) return new Map(); // an older file kept none
    const rows = this.db
      .prepare("SELECT m.candidate_id AS candidateId, m.seed, m.moves FROM game_moves m JOIN candidates c ON c.id = m.candidate_id WHERE c.run_id = ? AND m.purpose = 'validation'")
      .all(runId) as { candidateId: number; seed: number; moves: string }[];
    return new Map(rows.map((r) => [`${r.candidateId}:${r.seed}`, r.moves]));
  }

  /** A candidate's held-out game with its stored moves and the highest score (null: none kept, e.g. a built-in player's). */
  bestReplay(candidateId: number): { seed: number; score: number; moves: number; moveList: string } | null {
    if (this.empty || this.schemaVersion() < 7) return null; // a read-only look at an older file: no moves kept there
    return (
      (this.db
        .prepare(
          `SELECT g.seed, g.score, g.moves, m.moves AS moveList FROM games g JOIN game_moves m ON m.candidate_id = g.candidate_id AND m.purpose = g.purpose AND m.seed = g.seed
           WHERE g.candidate_id = ? AND g.purpose = 'validation' ORDER BY g.score DESC, g.seed LIMIT 1`,
        )
        .get(candidateId) as { seed: number; score: number; moves: number; moveList: string } | undefined) ?? null
    );
  }

  /** A candidate's games of one purpose, in seed order. */
  getGames(candidateId: number, purpose: GamePurpose): Game[] {
    return (this.db.prepare(`SELECT ${gameColumns('', this.countsNodes(), this.keepsRegret())} FROM games WHERE candidate_id = ? AND purpose = ? ORDER BY seed`).all(candidateId, purpose) as Game[]).map(decodeStoredGame);
  }

  /**
   * The games of one purpose of a generation's candidates, in one read: candidate id → its games in seed
   * order (a candidate with none is absent).
   */
  generationGames(runId: number, generation: number, purpose: GamePurpose): Map<number, Game[]> {
    const byCandidate = new Map<number, Game[]>();
    const rows = this.db
      .prepare(
        `SELECT ${gameColumns('g', this.countsNodes(), this.keepsRegret())} FROM games g JOIN candidates c ON c.id = g.candidate_id
         WHERE c.run_id = ? AND c.generation = ? AND g.purpose = ? ORDER BY c.idx, g.seed`,
      )
      .all(runId, generation, purpose) as Game[];
    for (const g of rows.map(decodeStoredGame)) {
      const list = byCandidate.get(g.candidateId);
      if (list) list.push(g);
      else byCandidate.set(g.candidateId, [g]);
    }
    return byCandidate;
  }

  /** Every game of a run in one read, in a stable order (generation, candidate, purpose, seed). */
  runGames(runId: number): RunGame[] {
    return this.db
      .prepare(
        `SELECT ${gameColumns('g', this.countsNodes(), this.keepsRegret())}, c.generation, c.idx AS candidateIdx FROM games g JOIN candidates c ON c.id = g.candidate_id
         WHERE c.run_id = ? ORDER BY c.generation, c.idx, g.purpose, g.seed`,
      )
      .all(runId)
      .map((g) => decodeStoredGame(g as RunGame));
  }

  /** Whether games keep their search cost (schema 10 on; a reader of an older file reads none). */
  private countsNodes(): boolean {
    return !this.empty && this.schemaVersion() >= 10;
  }

  /** Whether games keep the decision screen's regret (schema 12 on). */
  private keepsRegret(): boolean {
    return !this.empty && this.schemaVersion() >= 12;
  }

  // ---- learning runs (tune2048 learn) ----

  /** Whether the file has learning runs' tables (a reader of a schema older than 6 sees none). */
  private hasLearnRuns(): boolean {
    return !this.empty && this.schemaVersion() >= 6;
  }

  createLearnRun(run: { name: string; storedConfig: unknown }): number {
    const info = this.db.prepare('INSERT INTO learn_runs (name, config, status, created_at) VALUES (?, ?, ?, ?)').run(run.name, JSON.stringify(run.storedConfig), 'stopped', Date.now());
    return Number(info.lastInsertRowid);
  }

  requireLearnRun(id: number): LearnRun {
    const row = this.hasLearnRuns() ? (this.db.prepare('SELECT * FROM learn_runs WHERE id = ?').get(id) as LearnRunRow | undefined) : undefined;
    if (!row) throw new InputError(`no learning run ${id} in "${this.path}" (see "${suggest('learn show', this.path)}")`);
    return decodeLearnRun(row);
  }

  listLearnRuns(): LearnRun[] {
    if (!this.hasLearnRuns()) return [];
    return (this.db.prepare('SELECT * FROM learn_runs ORDER BY id').all() as LearnRunRow[]).map(decodeLearnRun);
  }

  /** Rewrites a learning run's stored config (`learn resume --games/--learning-rate`); a finished run becomes stopped again. */
  updateLearnConfig(id: number, change: (config: Record<string, unknown>) => Record<string, unknown>): void {
    this.db
      .transaction(() => {
        const run = this.requireLearnRun(id);
        refuseIfHeld(`learning run ${id}`, run, process.pid, hostname(), Date.now()); // never under a process training it
        const config = change({ ...(run.storedConfig as Record<string, unknown>) });
        this.db.prepare("UPDATE learn_runs SET config = ?, status = CASE status WHEN 'finished' THEN 'stopped' ELSE status END, finished_at = NULL WHERE id = ?").run(JSON.stringify(config), id);
      })
      .immediate();
  }

  /** Makes this process the learning run's holder (the rules of acquireRun). */
  acquireLearnRun(id: number, pid = process.pid, host = hostname(), now = Date.now()): void {
    this.db
      .transaction(() => {
        refuseIfHeld(`learning run ${id}`, this.requireLearnRun(id), pid, host, now);
        this.db.prepare("UPDATE learn_runs SET status = 'running', owner_pid = ?, owner_host = ?, heartbeat_at = ?, error = NULL WHERE id = ?").run(pid, host, now, id);
      })
      .immediate();
  }

  /** Inside a write of a learning run: throws RunLostError unless this process (pid on host) still holds it. */
  private checkLearnHolder(id: number, pid: number, host: string): void {
    const row = this.db.prepare('SELECT owner_pid, owner_host FROM learn_runs WHERE id = ?').get(id) as { owner_pid: number | null; owner_host: string | null };
    if (row.owner_pid !== pid || row.owner_host !== host) throw new RunLostError(`learning run ${id} was taken over by another process; this process stops and writes nothing more`);
  }

  /**
   * Stores a checkpoint (the tables of the previous one dropped: only the latest is resumed from), if this
   * process still holds the run. A line network's tables go in the row; an n-tuple network's file was
   * written beside the database first (outside this transaction: writing 268 MB holds no lock) and is named.
   * Returns the network file the previous checkpoint named, now unreferenced (the caller deletes it).
   */
  saveLearnCheckpoint(c: Omit<LearnCheckpoint, 'tables'> & { tables: Uint8Array | null }, pid = process.pid, host = hostname()): string | null {
    return this.db
      .transaction(() => {
        this.checkLearnHolder(c.runId, pid, host);
        const previous = this.db.prepare('SELECT table_file FROM learn_checkpoints WHERE run_id = ? AND table_file IS NOT NULL').get(c.runId) as { table_file: string } | undefined;
        this.db.prepare('UPDATE learn_checkpoints SET tables = NULL, table_file = NULL WHERE run_id = ? AND (tables IS NOT NULL OR table_file IS NOT NULL)').run(c.runId);
        this.db
          .prepare('INSERT INTO learn_checkpoints (run_id, games, mean_score, max_tile, tables, table_file, table_sha256, stats, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(
            c.runId,
            c.games,
            c.meanScore,
            c.maxTile,
            c.tables && Buffer.from(c.tables.buffer, c.tables.byteOffset, c.tables.byteLength),
            c.tableFile ?? null,
            c.tableSha256 ?? null,
            c.stats === undefined || c.stats === null ? null : JSON.stringify(c.stats),
            c.at,
          );
        this.db.prepare('UPDATE learn_runs SET heartbeat_at = ? WHERE id = ?').run(Date.now(), c.runId);
        return previous && previous.table_file !== c.tableFile ? previous.table_file : null;
      })
      .immediate();
  }

  /** The run's curve, oldest first (tables left out). */
  learnCurve(id: number): LearnCheckpoint[] {
    if (!this.hasLearnRuns()) return [];
    const extra = this.schemaVersion() >= 8 ? ', table_file, table_sha256, stats' : '';
    return (this.db.prepare(`SELECT run_id, games, mean_score, max_tile, NULL AS tables${extra}, at FROM learn_checkpoints WHERE run_id = ? ORDER BY games`).all(id) as LearnCheckpointRow[]).map(decodeLearnCheckpoint);
  }

  /** The checkpoint a run goes on from (the latest, with its tables), or undefined before the first. */
  lastLearnCheckpoint(id: number): LearnCheckpoint | undefined {
    if (!this.hasLearnRuns()) return undefined;
    const held = this.schemaVersion() >= 8 ? 'tables IS NOT NULL OR table_file IS NOT NULL' : 'tables IS NOT NULL';
    const row = this.db.prepare(`SELECT * FROM learn_checkpoints WHERE run_id = ? AND (${held}) ORDER BY games DESC LIMIT 1`).get(id) as LearnCheckpointRow | undefined;
    return row && decodeLearnCheckpoint(row);
  }

  /** A learning run's stored late-start boards (learn/late-starts.ts encodes them), or null before their first collection. */
  learnStarts(id: number): Buffer | null {
    if (this.schemaVersion() < 9) return null;
    const row = this.db.prepare('SELECT boards FROM learn_starts WHERE run_id = ?').get(id) as { boards: Buffer } | undefined;
    return row?.boards ?? null;
  }

  /** Stores a learning run's late-start boards, if this process holds the run. */
  saveLearnStarts(id: number, boards: Uint8Array, pid = process.pid, host = hostname()): void {
    this.db
      .transaction(() => {
        this.checkLearnHolder(id, pid, host);
        this.db.prepare('INSERT OR REPLACE INTO learn_starts (run_id, boards) VALUES (?, ?)').run(id, Buffer.from(boards.buffer, boards.byteOffset, boards.byteLength));
      })
      .immediate();
  }

  /** Gives the learning run up with its final status (if this process still holds it). */
  releaseLearnRun(id: number, status: Exclude<RunStatus, 'running'>, error: string | null = null, pid = process.pid, host = hostname()): void {
    this.db
      .prepare('UPDATE learn_runs SET status = ?, owner_pid = NULL, owner_host = NULL, heartbeat_at = NULL, error = ?, finished_at = ? WHERE id = ? AND owner_pid = ? AND owner_host = ?')
      .run(status, error, status === 'finished' ? Date.now() : null, id, pid, host);
  }


  /**
   * The SQLite connection itself, for tests only: fault injection (a page limit standing in for a full
   * disk) and checks of the file. Production code reads and writes through the methods above.
   */
  connectionForTests(): Database.Database {
    return this.db;
  }

}
