/**
 * The one persistence API (Optuna's "storage"): only the parent process opens
 * the database. WAL mode; every write is one immediate transaction (a finished
 * batch of games is one transaction), so kill -9 loses only games in flight.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { InputError } from '../util/errors';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema';

export const DEFAULT_DB = 'db/tune2048.sqlite';

export type RunStatus = 'running' | 'stopped' | 'failed' | 'finished';
export type GamePurpose = 'fitness' | 'validation';

export interface RunRow {
  id: number;
  name: string;
  config: string;
  config_hash: string;
  seed: number;
  status: RunStatus;
  owner_pid: number | null;
  owner_host: string | null;
  heartbeat_at: number | null;
  created_at: number;
  finished_at: number | null;
  best_candidate: number | null;
  error: string | null;
}

export interface GenerationRow {
  run_id: number;
  idx: number;
  state: string;
  status: 'open' | 'done';
  best_fitness: number | null;
  mean_fitness: number | null;
  stdev_fitness: number | null;
  games: number;
  started_at: number;
  finished_at: number | null;
}

export interface CandidateRow {
  id: number;
  run_id: number;
  generation: number;
  idx: number;
  genome: string;
  params: string;
  origin: string;
  parents: string;
  fitness: number | null;
  validation: number | null;
}

export interface GameRow {
  candidate_id: number;
  purpose: GamePurpose;
  seed: number;
  score: number;
  max_tile: number;
  moves: number;
  ms: number;
}

export interface NewCandidate {
  genome: number[];
  params: Record<string, number>;
  origin: string;
  parents: number[];
}

export interface RunSummary extends RunRow {
  generations: number;
  best_fitness: number | null;
  games_played: number;
}

/** A run another live process is working on. */
export class RunBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunBusyError';
  }
}

/** A holder whose heartbeat is older than this is stale, even if its pid exists. */
export const STALE_HEARTBEAT_MS = 60_000;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface OpenOptions {
  /** Create the file (and its folder) when missing; read-only commands pass false. */
  create?: boolean;
  /** Apply pending migrations (default true). Tests pass false to build old files. */
  migrate?: boolean;
}

export class Store {
  readonly path: string;
  private readonly db: Database.Database;

  private constructor(path: string, db: Database.Database) {
    this.path = path;
    this.db = db;
  }

  static open(path: string, options: OpenOptions = {}): Store {
    const { create = true, migrate = true } = options;
    if (!existsSync(path)) {
      if (!create) throw new InputError(`no database at "${path}" (start a run with "tune2048 tune", or pass --db)`);
      mkdirSync(dirname(path), { recursive: true });
    }
    let db: Database.Database;
    try {
      db = new Database(path);
      db.pragma('busy_timeout = 5000');
      const appId = db.pragma('application_id', { simple: true }) as number;
      const version = db.pragma('user_version', { simple: true }) as number;
      const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
      if (appId !== APPLICATION_ID && (appId !== 0 || tables > 0)) {
        db.close();
        throw new InputError(`"${path}" is not a tune2048 database (it holds other data); refusing to touch it`);
      }
      if (version > SCHEMA_VERSION) {
        db.close();
        throw new InputError(`"${path}" has schema version ${version}, newer than this tune2048 understands (${SCHEMA_VERSION}); upgrade tune2048`);
      }
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      const store = new Store(path, db);
      if (migrate) store.migrate();
      return store;
    } catch (e) {
      if (e instanceof InputError) throw e;
      const code = (e as { code?: string }).code;
      if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw new InputError(`"${path}" is not a SQLite database`);
      throw e;
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

  /** Checkpoints the WAL into the main file and closes. Safe to call twice. */
  close(): void {
    if (!this.db.open) return;
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.db.close();
    }
  }

  // ---- runs ----

  createRun(run: { name: string; config: string; configHash: string; seed: number }): number {
    const info = this.db
      .prepare('INSERT INTO runs (name, config, config_hash, seed, status, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(run.name, run.config, run.configHash, run.seed, 'stopped', Date.now());
    return Number(info.lastInsertRowid);
  }

  getRun(id: number): RunRow | undefined {
    return this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
  }

  requireRun(id: number): RunRow {
    const run = this.getRun(id);
    if (!run) throw new InputError(`no run ${id} in "${this.path}" (see "tune2048 runs")`);
    return run;
  }

  listRuns(): RunSummary[] {
    return this.db
      .prepare(
        `SELECT r.*,
           (SELECT count(*) FROM generations g WHERE g.run_id = r.id AND g.status = 'done') AS generations,
           (SELECT max(c.fitness) FROM candidates c WHERE c.run_id = r.id) AS best_fitness,
           (SELECT count(*) FROM games x JOIN candidates c ON c.id = x.candidate_id WHERE c.run_id = r.id) AS games_played
         FROM runs r ORDER BY r.id`,
      )
      .all() as RunSummary[];
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
        if (run.status === 'running' && run.owner_pid !== null && !(run.owner_pid === pid && run.owner_host === host)) {
          const fresh = run.heartbeat_at !== null && now - run.heartbeat_at < STALE_HEARTBEAT_MS;
          const alive = run.owner_host !== host || pidAlive(run.owner_pid);
          if (fresh && alive) {
            const age = ((now - (run.heartbeat_at ?? now)) / 1000).toFixed(0);
            throw new RunBusyError(`run ${id} is held by pid ${run.owner_pid} on ${run.owner_host} (heartbeat ${age}s ago); stop it first or wait`);
          }
        }
        this.db
          .prepare("UPDATE runs SET status = 'running', owner_pid = ?, owner_host = ?, heartbeat_at = ?, error = NULL WHERE id = ?")
          .run(pid, host, now, id);
      })
      .immediate();
  }

  heartbeat(id: number, now = Date.now()): void {
    this.db.prepare('UPDATE runs SET heartbeat_at = ? WHERE id = ? AND owner_pid = ?').run(now, id, process.pid);
  }

  releaseRun(id: number, status: Exclude<RunStatus, 'running'>, error: string | null = null): void {
    this.db
      .prepare('UPDATE runs SET status = ?, owner_pid = NULL, owner_host = NULL, heartbeat_at = NULL, error = ?, finished_at = ? WHERE id = ?')
      .run(status, error, status === 'finished' ? Date.now() : null, id);
  }

  setBestCandidate(runId: number, candidateId: number): void {
    this.db.prepare('UPDATE runs SET best_candidate = ? WHERE id = ?').run(candidateId, runId);
  }

  // ---- generations and candidates ----

  getGeneration(runId: number, idx: number): GenerationRow | undefined {
    return this.db.prepare('SELECT * FROM generations WHERE run_id = ? AND idx = ?').get(runId, idx) as GenerationRow | undefined;
  }

  listGenerations(runId: number): GenerationRow[] {
    return this.db.prepare('SELECT * FROM generations WHERE run_id = ? ORDER BY idx').all(runId) as GenerationRow[];
  }

  /** Inserts a generation and its candidates atomically, unless it already exists. */
  insertGeneration(runId: number, idx: number, state: unknown, candidates: readonly NewCandidate[]): void {
    this.db
      .transaction(() => {
        if (this.getGeneration(runId, idx)) return;
        this.db
          .prepare("INSERT INTO generations (run_id, idx, state, status, started_at) VALUES (?, ?, ?, 'open', ?)")
          .run(runId, idx, JSON.stringify(state), Date.now());
        const insert = this.db.prepare(
          'INSERT INTO candidates (run_id, generation, idx, genome, params, origin, parents) VALUES (?, ?, ?, ?, ?, ?, ?)',
        );
        candidates.forEach((c, i) => insert.run(runId, idx, i, JSON.stringify(c.genome), JSON.stringify(c.params), c.origin, JSON.stringify(c.parents)));
      })
      .immediate();
  }

  finishGeneration(
    runId: number,
    idx: number,
    fitness: readonly { id: number; fitness: number }[],
    stats: { best: number; mean: number; stdev: number; games: number },
  ): void {
    this.db
      .transaction(() => {
        const set = this.db.prepare('UPDATE candidates SET fitness = ? WHERE id = ?');
        for (const f of fitness) set.run(f.fitness, f.id);
        this.db
          .prepare(
            "UPDATE generations SET status = 'done', best_fitness = ?, mean_fitness = ?, stdev_fitness = ?, games = ?, finished_at = ? WHERE run_id = ? AND idx = ?",
          )
          .run(stats.best, stats.mean, stats.stdev, stats.games, Date.now(), runId, idx);
      })
      .immediate();
  }

  getCandidates(runId: number, generation: number): CandidateRow[] {
    return this.db.prepare('SELECT * FROM candidates WHERE run_id = ? AND generation = ? ORDER BY idx').all(runId, generation) as CandidateRow[];
  }

  getCandidate(id: number): CandidateRow | undefined {
    return this.db.prepare('SELECT * FROM candidates WHERE id = ?').get(id) as CandidateRow | undefined;
  }

  setValidation(candidateId: number, value: number): void {
    this.db.prepare('UPDATE candidates SET validation = ? WHERE id = ?').run(value, candidateId);
  }

  // ---- comparisons ----

  insertComparison(runId: number | null, result: unknown): number {
    if (runId !== null) this.requireRun(runId);
    const info = this.db.prepare('INSERT INTO comparisons (run_id, created_at, result) VALUES (?, ?, ?)').run(runId, Date.now(), JSON.stringify(result));
    return Number(info.lastInsertRowid);
  }

  /** A run's stored comparisons, oldest first, as parsed JSON. */
  listComparisons(runId: number): { id: number; created_at: number; result: unknown }[] {
    return (this.db.prepare('SELECT id, created_at, result FROM comparisons WHERE run_id = ? ORDER BY id').all(runId) as { id: number; created_at: number; result: string }[]).map(
      (r) => ({ ...r, result: JSON.parse(r.result) }),
    );
  }

  // ---- games ----

  /** Stores one finished batch in one immediate transaction; a game already stored is left as it is. */
  insertGames(rows: readonly GameRow[]): void {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO games (candidate_id, purpose, seed, score, max_tile, moves, ms) VALUES (@candidate_id, @purpose, @seed, @score, @max_tile, @moves, @ms)',
    );
    this.db.transaction(() => rows.forEach((r) => insert.run(r))).immediate();
  }

  getGames(candidateId: number, purpose: GamePurpose): GameRow[] {
    return this.db.prepare('SELECT * FROM games WHERE candidate_id = ? AND purpose = ? ORDER BY seed').all(candidateId, purpose) as GameRow[];
  }

  /** Every game of a run, in a stable order (for comparisons and reports). */
  runGames(runId: number): (GameRow & { generation: number; idx: number })[] {
    return this.db
      .prepare(
        `SELECT g.*, c.generation, c.idx FROM games g JOIN candidates c ON c.id = g.candidate_id
         WHERE c.run_id = ? ORDER BY c.generation, c.idx, g.purpose, g.seed`,
      )
      .all(runId) as (GameRow & { generation: number; idx: number })[];
  }

  /** Raw SQL access for tests and migrations. */
  get raw(): Database.Database {
    return this.db;
  }
}
