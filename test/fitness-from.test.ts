/**
 * tune --fitness-from: a run started from another run's generations is, row for row, the run its own config
 * plays from scratch (the generations are fixed by the config and seed; only the validation is played), and
 * what it cannot copy is refused in one line, exit 2, with nothing created.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Store } from '../src/store/store';
import { parseConfig } from '../src/tuner/config/config';
import { generationsDiffer, parseFitnessFrom } from '../src/tuner/run/fitness-from';
import { createRun } from '../src/tuner/run/run-problem';
import { runCli } from './helpers/cli';
import { all, dumpRun, tempDb, writeConfig } from './helpers/runs';

const LANDSCAPE = { optimum: { empty: 450, merges: 600, monotonicity: 60, sumPower: 4 }, width: 1.2, peak: 140_000, floor: 0.2, cv: 0.4, gameMs: 0, cost: { weight: 'sumPower', nodes: 10, growth: 1 } };
const SPACE = { start: 'tuned-d1', params: { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 }, monotonicity: { min: 1, max: 1000, scale: 'log' }, sumPower: { min: 1, max: 5 } } };
const FITNESS = { budget: 200, player: 'synthetic', cost: 'nodes', maxCost: 150, synthetic: LANDSCAPE };
/** The model within a budget, its finalists raced and the winner confirmed (as budget-network). */
const RACED = { name: 'raced', seed: 5, space: SPACE, optimizer: { kind: 'model', population: 7, games: 4 }, fitness: FITNESS, validation: { finalists: 3, games: 60, race: { rounds: 3, keep: 0.5 }, confirm: 40 }, pool: { batchGames: 4 } };
/** The same search, its finalists and the start validated plainly. */
const PLAIN = { ...RACED, name: 'plain', validation: { finalists: 3, games: 60 } };
/** NSGA-II: its state names candidates by id, so the copy must keep them. */
const FRONT = { name: 'front', seed: 5, space: SPACE, optimizer: { kind: 'nsga2', population: 6, generations: 4 }, fitness: { ...FITNESS, budget: undefined, games: 4 }, validation: { front: 3, games: 40 }, pool: { batchGames: 4 } };

function tune(config: unknown, db: string, ...extra: string[]) {
  return runCli(['tune', '-c', writeConfig(config), '--db', db, '--workers', '2', ...extra]);
}

describe('tune --fitness-from', () => {
  it.each([
    ['the model: raced and confirmed, then validated plainly', RACED, PLAIN],
    ['the model: validated plainly, then raced and confirmed', PLAIN, RACED],
    ['NSGA-II: three points validated, then two on fewer seeds', FRONT, { ...FRONT, name: 'front-2', validation: { front: 2, games: 30 } }],
  ])('%s: the copy plays what the config plays from scratch, to the row', (_name, first, second) => {
    const source = tempDb();
    expect(tune(first, source).code).toBe(0);
    // The synthetic player's games take no time: the source's recorded times are set apart (ms is no part of a
    // run's dump), so a game carried over is told from one played again.
    const db = new Database(source);
    db.prepare("UPDATE games SET ms = 1000 + seed % 997 WHERE purpose = 'fitness'").run();
    db.prepare("UPDATE games SET ms = 5000 + seed % 997 WHERE purpose <> 'fitness'").run();
    // As an external player's run keeps them: moves of held-out games, for the viewer (a built-in player's run keeps none).
    db.prepare("INSERT INTO game_moves (candidate_id, purpose, seed, moves) SELECT candidate_id, purpose, seed, 'udlr' || seed FROM games WHERE purpose = 'validation'").run();
    db.close();
    const scratch = tempDb();
    expect(tune(second, scratch).code).toBe(0);
    const copied = tempDb();
    const r = tune(second, copied, '--fitness-from', `${source}:1`);
    expect(r.code, r.stderr).toBe(0);
    const generations = all<{ n: number }>(source, 'SELECT count(*) AS n FROM generations')[0].n;
    const games = all<{ n: number }>(source, "SELECT count(*) AS n FROM games WHERE purpose = 'fitness'")[0].n;
    expect(r.stderr).toContain(`copied ${generations} generations (${games.toLocaleString('en-US')} fitness games) from run 1 of ${source}; playing the validation`);
    expect(dumpRun(copied, 1)).toEqual(dumpRun(scratch, 1));
    // Only the validation was played here: the fitness games are the source's, recorded times and all.
    const ms = (db: string) => all<{ ms: number }>(db, "SELECT ms FROM games WHERE purpose = 'fitness' ORDER BY candidate_id, seed").map((g) => g.ms);
    expect(ms(copied)).toEqual(ms(source));
    expect(ms(copied).every((x) => x >= 1000)).toBe(true);
    // And the validation differs from the source's where the configs do.
    const heldOut = (db: string) => all<{ candidate_id: number; seed: number; ms: number }>(db, "SELECT candidate_id, seed, ms FROM games WHERE purpose <> 'fitness' ORDER BY 1, 2");
    expect(heldOut(copied).map(({ ms: _ms, ...g }) => g)).not.toEqual(heldOut(source).map(({ ms: _ms, ...g }) => g));
    // A held-out game the source played (the same candidate, the same seed) was stored, not played again: its recorded time is the source's.
    const before = new Map(heldOut(source).map((g) => [`${g.candidate_id}:${g.seed}`, g.ms]));
    const reused = heldOut(copied).filter((g) => before.get(`${g.candidate_id}:${g.seed}`) === g.ms && g.ms >= 5000).length;
    expect(reused).toBeGreaterThan(0);
    expect(reused).toBe(heldOut(copied).filter((g) => before.has(`${g.candidate_id}:${g.seed}`)).length);
    // What the source did not play was played here.
    expect(heldOut(copied).filter((g) => !before.has(`${g.candidate_id}:${g.seed}`)).every((g) => g.ms < 5000)).toBe(true);
    // A reused held-out game comes with its kept moves; a game played here keeps what its player gives (none).
    const moves = (db: string) => all<{ candidate_id: number; seed: number; moves: string }>(db, "SELECT candidate_id, seed, moves FROM game_moves WHERE purpose = 'validation' ORDER BY 1, 2");
    const sourceValidation = new Set(all<{ candidate_id: number; seed: number }>(source, "SELECT candidate_id, seed FROM games WHERE purpose = 'validation'").map((g) => `${g.candidate_id}:${g.seed}`));
    const reusedValidation = all<{ candidate_id: number; seed: number }>(copied, "SELECT candidate_id, seed FROM games WHERE purpose = 'validation' ORDER BY 1, 2").filter((g) => sourceValidation.has(`${g.candidate_id}:${g.seed}`));
    expect(reusedValidation.length).toBeGreaterThan(0);
    expect(moves(copied)).toEqual(reusedValidation.map((g) => ({ ...g, moves: `udlr${g.seed}` })));
  });

  it('refuses in one line, exit 2, creating nothing: a missing file or run, an unfinished run, other generations, taken numbers', () => {
    const source = tempDb();
    expect(tune(PLAIN, source).code).toBe(0);
    const target = () => tempDb();
    const refused = (config: unknown, from: string, db = target()) => {
      const before = existsSync(db) ? all<{ n: number }>(db, 'SELECT count(*) AS n FROM runs')[0].n : null;
      const r = tune(config, db, '--fitness-from', from);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(db) ? all<{ n: number }>(db, 'SELECT count(*) AS n FROM runs')[0].n : null).toBe(before);
      return r.stderr.trim();
    };
    expect(refused(RACED, `${source}.absent`)).toMatch(/^tune2048: .*absent/);
    expect(refused(RACED, `${source}:7`)).toMatch(/no run 7 in/);
    expect(refused({ ...RACED, fitness: { ...FITNESS, budget: 400 } }, source)).toBe(
      `tune2048: --fitness-from: run 1 in "${source}" played other generations than this config would: fitness.budget: 400 against 200 (only validation, name, description and pool may differ)`,
    );
    expect(refused({ ...RACED, seed: 6 }, source)).toMatch(/: seed: 6 against 5 \(/);
    // The source's own database: its candidates' numbers are taken there.
    expect(refused(RACED, source, source)).toMatch(/already holds candidates numbered 1–\d+, as run 1 of .* numbers its own .*: give --db a new file$/);
    // A run that has not finished (here: created, never played).
    const store = Store.open(source);
    try {
      createRun(store, parseConfig(PLAIN), 'unplayed');
    } finally {
      store.close();
    }
    expect(refused(RACED, `${source}:2`)).toMatch(/run 2 in .* is \w+, not finished: its generations may not be all there \(finish it first: tune2048 resume 2 --db /);
  });

  it('reads FILE or FILE:RUN, and compares only what plays the generations', () => {
    expect(parseFitnessFrom('runs/a.sqlite')).toEqual({ path: 'runs/a.sqlite' });
    expect(parseFitnessFrom('runs/a.sqlite:12')).toEqual({ path: 'runs/a.sqlite', runId: 12 });
    const stored = (c: Record<string, unknown>) => ({ config: parseConfig(c) });
    expect(generationsDiffer(stored(RACED), stored({ ...PLAIN, description: 'other', pool: { batchGames: 1 } }))).toBeNull();
    expect(generationsDiffer(stored(RACED), stored({ ...RACED, optimizer: { kind: 'model', population: 8, games: 4 } }))).toBe('optimizer.population: 7 against 8');
  });
});
