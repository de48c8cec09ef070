/** Helpers for tuning tests: temporary databases, configs, and a run's rows minus timing. */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, RunConfig } from '../../src/tuner/config/config';
import { createRun } from '../../src/tuner/run/run-problem';
import { Tuner, type TuneOptions } from '../../src/tuner/run/tuner';
import { Store } from '../../src/store/store';

export function tempDb(): string {
  return join(mkdtempSync(join(tmpdir(), 'tune2048-db-')), 'test.sqlite');
}

/** Depth-0 (greedy) games: a whole run takes well under a second of play. */
export const SMOKE = {
  seed: 11,
  space: {
    start: 'nneonneo',
    params: {
      empty: { min: 0, max: 2000 },
      merges: { min: 0, max: 3000 },
      monotonicity: { min: 1, max: 500, scale: 'log' },
    },
  },
  optimizer: { population: 6, generations: 3, elitism: 1, tournament: 2 },
  fitness: { games: 6, depth: 0 },
  validation: { finalists: 2, games: 8 },
  pool: { batchGames: 2 },
};

export function smokeConfig(overrides: Record<string, unknown> = {}): RunConfig {
  return parseConfig({ ...SMOKE, ...overrides });
}

export async function tuneToEnd(dbPath: string, config: RunConfig, options: Partial<TuneOptions> = {}, runId?: number) {
  const store = Store.open(dbPath);
  try {
    const id = runId ?? createRun(store, config, 'test');
    const outcome = await new Tuner(store, id, { workers: 2, ...options }).run(runId !== undefined);
    return { id, outcome };
  } finally {
    store.close();
  }
}

/** Everything a run stored, minus wall-clock fields: two equal dumps mean the same run. */
export function dumpRun(dbPath: string, runId: number) {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return {
      run: db.prepare('SELECT name, config, config_hash, seed, status, best_candidate FROM runs WHERE id = ?').get(runId),
      generations: db.prepare('SELECT idx, state, status, best_fitness, mean_fitness, stdev_fitness, games FROM generations WHERE run_id = ? ORDER BY idx').all(runId),
      // From schema 11 a candidate may also hold the model's prediction and the second held-out set's value: kept where set,
      // so a run without them dumps alike in a database of any schema.
      candidates: (db.prepare('SELECT * FROM candidates WHERE run_id = ? ORDER BY id').all(runId) as Record<string, unknown>[]).map(({ id, generation, idx, genome, params, origin, parents, fitness, validation, prediction, confirmation }) => ({
        id, generation, idx, genome, params, origin, parents, fitness, validation,
        ...(prediction != null ? { prediction } : {}),
        ...(confirmation != null ? { confirmation } : {}),
      })),
      games: db
        .prepare('SELECT g.candidate_id, g.purpose, g.seed, g.score, g.max_tile, g.moves FROM games g JOIN candidates c ON c.id = g.candidate_id WHERE c.run_id = ? ORDER BY 1, 2, 3')
        .all(runId),
    };
  } finally {
    db.close();
  }
}

/** Slow enough (depth-1 games, small batches) to be caught mid-run by a signal. */
export const SLOW = { ...SMOKE, optimizer: { population: 6, generations: 8, elitism: 1, tournament: 2 }, fitness: { games: 12, depth: 1 }, pool: { batchGames: 2 } };

/** A config file anyone can read (some tests run the CLI as an unprivileged user). */
export function writeConfig(data: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-cfg-'));
  chmodSync(dir, 0o755);
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify(data), { mode: 0o644 });
  return path;
}

/** One row of a query on a database another process may be writing (undefined before its schema exists). */
/** Every row of a query on a finished database (read-only). */
export function all<T>(db: string, sql: string): T[] {
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return conn.prepare(sql).all() as T[];
  } finally {
    conn.close();
  }
}

export function peek<T>(db: string, sql: string): T | undefined {
  if (!existsSync(db)) return undefined;
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return conn.prepare(sql).get() as T;
  } catch {
    return undefined; // schema not created yet
  } finally {
    conn.close();
  }
}

export const gamesIn = (db: string) => peek<{ n: number }>(db, 'SELECT count(*) AS n FROM games')?.n ?? 0;

/**
 * A run of `config` on 1 worker straight through, and the same run on 2 workers stopped (as Ctrl-C does)
 * once the database holds each of `stops` games and resumed after each: their dumps, to be compared.
 * `expectStopped`: every session must really have stopped (its run returned "stopped").
 */
export async function straightAndStopped(config: RunConfig, stops: readonly number[], expectStopped = false) {
  const straightDb = tempDb();
  const straight = await tuneToEnd(straightDb, config, { workers: 1 });
  const db = tempDb();
  const store = Store.open(db);
  const id = createRun(store, config, 'test');
  store.close();
  const sessions: string[] = [];
  for (const stopAt of stops) {
    const s = Store.open(db);
    const tuner: Tuner = new Tuner(s, id, {
      workers: 2,
      onProgress: () => {
        if ((s.connectionForTests().prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n >= stopAt) tuner.stop();
      },
    });
    sessions.push((await tuner.run(true)).status);
    s.close();
  }
  await tuneToEnd(db, config, { workers: 2 }, id);
  if (expectStopped && sessions.some((x) => x !== 'stopped')) throw new Error(`a session did not stop: ${sessions.join(', ')}`);
  return { straight: dumpRun(straightDb, straight.id), straightStatus: straight.outcome.status, stopped: dumpRun(db, id) };
}
