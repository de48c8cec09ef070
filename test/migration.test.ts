/**
 * A database written by tune2048 before this schema (test/fixtures/db/schema4.sql: made at commit
 * 4a94172, schema 4: one run stopped mid-generation, one finished, a comparison, a sweep and a race
 * checkpoint in one table told apart by JSON, compare --db games under the old memo key) is read as it
 * is by readers, upgraded by writers, and resumed to exactly the rows today's code writes — and the run
 * the old code finished equals, row for row, the same run played by today's code.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src/store/store';
import { SCHEMA_VERSION } from '../src/store/schema';
import { createRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
import { runCli } from './helpers/cli';
import { legacyMemoKey } from '../src/compare/memo';
import { playerSpec } from '../src/player/spec';
import { loadWeights } from '../src/heuristic/weights';
import { all, dumpRun, smokeConfig, tempDb } from './helpers/runs';

/** The search build (package version : sha1 of build/search.wasm) that made the fixture's compare games. */
const FIXTURE_BUILD = '0.1.0:f1a234a250f52f79f326108e49f768595603fc85';

/**
 * java-l's description and source as the fixture's day had them: the old key hashed the whole spec, words
 * included (today's key hashes only what changes play), so its games are under these.
 */
const FIXTURE_JAVA_L = {
  description: 'Seed 001 (Alvestad, NTNU 2015, Java): h(b) = sum of weight * rank (the stored exponent, not the tile value) over the L-shaped pattern of figure 2: 16^0..16^3 down the left column, 16^3..16^6 along the bottom row toward the bottom-right corner, 0 elsewhere. Exact.',
  source: 'seed 001, "AI programming: Module 4 - Using Expectimax to play 2048" (the Java player): Heuristic function, figure 2',
};

/** A fresh copy of the schema-4 database. */
function oldDatabase(): string {
  const path = tempDb();
  const db = new Database(path);
  db.exec(readFileSync(join(__dirname, 'fixtures', 'db', 'schema4.sql'), 'utf8'));
  db.close();
  return path;
}

/** The run `config` (seed) played from scratch by today's code, under `name`. */
async function freshRun(name: string, seed: number) {
  const path = tempDb();
  const store = Store.open(path);
  try {
    const id = createRun(store, smokeConfig({ seed }), name);
    expect((await new Tuner(store, id, { workers: 2 }).run(false)).status).toBe('finished');
    return { path, id };
  } finally {
    store.close();
  }
}

/**
 * dumpRun with every candidate id replaced by its place (generation:idx): the file holds two runs, so its
 * ids of one run are offset by the other's.
 */
function placedRun(path: string, run: number) {
  const dump = dumpRun(path, run) as { run: any; generations: unknown[]; candidates: any[]; games: any[] };
  const place = new Map(dump.candidates.map((c) => [c.id, `${c.generation}:${c.idx}`]));
  return {
    run: { ...dump.run, best_candidate: place.get(dump.run.best_candidate) },
    generations: dump.generations,
    candidates: dump.candidates.map(({ id, ...c }) => ({ ...c, id: place.get(id), parents: (JSON.parse(c.parents) as number[]).map((p) => place.get(p)) })),
    games: dump.games.map((g) => ({ ...g, candidate_id: place.get(g.candidate_id) })),
  };
}

const version = (path: string) => all<{ user_version: number }>(path, 'PRAGMA user_version')[0].user_version;
/** export --json minus what names the time, the run's id or the candidate's (the ids differ between the two files). */
const exported = (db: string, run: number) => {
  const r = runCli(['export', String(run), '--db', db, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const { name: _n, description: _d, source: _s, provenance, ...weights } = JSON.parse(r.stdout, (key, value) => (key === 'exportedAt' ? undefined : value)).weights;
  const { run: _r, candidate: _c, ...rest } = provenance;
  return { ...weights, provenance: rest };
};

describe('a database from before the comparisons kind column (schema 4)', () => {
  it('readers read it as it is (runs, show, report, results by kind); the file stays at schema 4', () => {
    const path = oldDatabase();
    expect(version(path)).toBe(4);
    const reader = Store.open(path, { readonly: true });
    try {
      expect(reader.listRuns().map((r) => [r.name, r.status])).toEqual([
        ['before-kind', 'stopped'],
        ['finished-before', 'finished'],
      ]);
      expect(reader.listResults(2, 'comparison').map((c) => c.result.contenders.map((x) => x.label))).toEqual([['nneonneo', 'java-l']]);
      expect(reader.listResults(2, 'sweep').map((c) => c.result.weights)).toEqual(['nneonneo']);
      expect(reader.listResults(2, 'race-checkpoint').map((c) => c.result.holdout)).toEqual([1234.5]);
    } finally {
      reader.close();
    }
    const runs = runCli(['runs', '--db', path, '--json']);
    expect(runs.code, runs.stderr).toBe(0);
    expect(JSON.parse(runs.stdout)).toHaveLength(2);
    const show = runCli(['show', '2', '--db', path, '--json']);
    expect(show.code, show.stderr).toBe(0);
    const out = join(mkdtempSync(join(tmpdir(), 'tune2048-r-')), 'r.html');
    const report = runCli(['report', '2', '--db', path, '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('Depth sweep of nneonneo (4 games per depth)');
    expect(version(path)).toBe(4);
  });

  it('a writer upgrades it (each stored result gets its kind) and resumes the stopped run to the rows of an uninterrupted one', async () => {
    const path = oldDatabase();
    const store = Store.open(path);
    try {
      expect(store.schemaVersion()).toBe(SCHEMA_VERSION);
      expect((await new Tuner(store, 1, { workers: 2 }).run(true)).status).toBe('finished');
    } finally {
      store.close();
    }
    expect(all<{ run_id: number | null; kind: string }>(path, 'SELECT run_id, kind FROM comparisons ORDER BY id')).toEqual([
      { run_id: 2, kind: 'comparison' },
      { run_id: null, kind: 'comparison' },
      { run_id: 2, kind: 'sweep' },
      { run_id: 2, kind: 'race-checkpoint' },
    ]);
    const fresh = await freshRun('before-kind', 11);
    expect(placedRun(path, 1)).toEqual(placedRun(fresh.path, fresh.id));
    expect(exported(path, 1)).toEqual(exported(fresh.path, fresh.id));
  });

  it("the run the old code finished is, row for row and in its export, the run today's code plays (but for the start's validation, which the old code did not play)", async () => {
    const path = oldDatabase();
    const fresh = await freshRun('finished-before', 12);
    // Today's validation also plays the start (generation 0's first candidate) on the held-out seeds; the old run
    // stays as it finished: without those games, and without a verdict on the start.
    const today = placedRun(fresh.path, fresh.id);
    const start = '0:0';
    expect(today.candidates.find((c) => c.id === start)!.validation).not.toBeNull();
    expect(today.games.filter((g) => g.candidate_id === start && g.purpose === 'validation')).toHaveLength(8);
    const withoutStart = {
      ...today,
      candidates: today.candidates.map((c) => (c.id === start ? { ...c, validation: null } : c)),
      games: today.games.filter((g) => !(g.candidate_id === start && g.purpose === 'validation')),
    };
    expect(placedRun(path, 2)).toEqual(withoutStart);
    const { overStart, ...todayProvenance } = exported(fresh.path, fresh.id).provenance;
    expect(overStart).toMatchObject({ startIsBest: false, games: 8 });
    expect(exported(path, 2)).toEqual({ ...exported(fresh.path, fresh.id), provenance: { ...todayProvenance, overStart: null } });
  });

  it('compare --db finds the games the old code kept (under its old key) and plays none again', () => {
    const path = oldDatabase();
    const count = () => all<{ n: number }>(path, 'SELECT count(*) AS n FROM compare_games')[0].n;
    expect(count()).toBe(12);
    // The old key names the search build too (a new build may play differently: its games are not reused).
    // The fixture's games are of the build of its day; as if this build had played them, under the old key:
    const db = new Database(path);
    for (const name of ['nneonneo', 'java-l']) {
      const spec = playerSpec('expectimax', loadWeights(name), { depth: 0, cprob: 1e-4 });
      const then = name === 'java-l' ? { ...spec, weights: { ...spec.weights, ...FIXTURE_JAVA_L } } : spec;
      const moved = db.prepare('UPDATE compare_games SET player = ? WHERE player = ?').run(legacyMemoKey(spec), legacyMemoKey(then, FIXTURE_BUILD));
      expect(moved.changes).toBe(6);
    }
    db.close();
    const r = runCli(['compare', 'nneonneo', 'java-l', '-n', '6', '-d', '0', '--seed', '500', '--workers', '1', '--db', path, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/going on from the games/);
    expect(count()).toBe(12);
    const stored = JSON.parse(all<{ result: string }>(path, "SELECT result FROM comparisons WHERE run_id IS NULL ORDER BY id LIMIT 1")[0].result);
    expect(JSON.parse(r.stdout).contenders.map((c: { games: unknown[] }) => c.games)).toEqual(stored.contenders.map((c: { games: unknown[] }) => c.games));
  });
});
