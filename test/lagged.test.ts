/**
 * Lagged proposals (optimizer.lag, issue 80): no generation barrier. Point k is proposed from the points before
 * k − lag only, so the run is the same rows for any number of workers and across kill -9; a lag that leaves nothing
 * to learn from, or racing (no rivals to race), is refused.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/tuner/config/config';
import { runCli, startCli, waitFor } from './helpers/cli';
import { all, dumpRun, peek, tempDb, tuneToEnd, writeConfig } from './helpers/runs';

const LANDSCAPE = { optimum: { empty: 450, merges: 600, monotonicity: 60, sumPower: 4 }, width: 1.2, peak: 140_000, floor: 0.2, cv: 0.4, gameMs: 0 };
const SPACE = { start: 'tuned-d1', params: { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 }, monotonicity: { min: 1, max: 1000, scale: 'log' }, sumPower: { min: 1, max: 5 } } };

function lagged(lag: number, extra: { budget?: number; seed?: number } = {}) {
  return {
    name: 'lagged',
    seed: extra.seed ?? 4,
    space: SPACE,
    optimizer: { kind: 'model', population: 3, games: 4, initial: 6, lag },
    fitness: { budget: extra.budget ?? 160, player: 'synthetic', synthetic: LANDSCAPE },
    validation: { finalists: 2, games: 20 },
    pool: { batchGames: 2 },
  };
}

describe('lagged proposals', () => {
  it('are the same rows for 1, 2 and 5 workers; each point stands on the points before k − lag, and on no later one', async () => {
    const dumps = [];
    for (const workers of [1, 2, 5]) {
      const db = tempDb();
      const { id, outcome } = await tuneToEnd(db, parseConfig(lagged(3)), { workers });
      expect(outcome.status).toBe('finished');
      dumps.push({ db, id, dump: dumpRun(db, id) });
    }
    expect(dumps[1].dump).toEqual(dumps[0].dump);
    expect(dumps[2].dump).toEqual(dumps[0].dump);
    const { db, id } = dumps[0];
    // 160 games / 4 a point: 40 points, each a generation of one candidate.
    const rows = all<{ idx: number; state: string; genome: string; origin: string }>(db, `SELECT g.idx, g.state, c.genome, c.origin FROM generations g JOIN candidates c ON c.run_id = g.run_id AND c.generation = g.idx WHERE g.run_id = ${id} ORDER BY g.idx`);
    expect(rows).toHaveLength(40);
    expect(rows.slice(0, 7).map((r) => r.origin)).toEqual(['start', ...Array(6).fill('design')]);
    const modelled = rows.filter((r) => JSON.parse(r.state).decision === 'model');
    expect(modelled.length).toBeGreaterThan(20);
    for (const r of modelled) {
      // The fit stood on exactly the distinct points of the generations before idx − lag (the window holds them all).
      const before = new Set(rows.filter((x) => x.idx < r.idx - 3).map((x) => x.genome)); // a replay is the same genome
      expect(JSON.parse(r.state).points, `point ${r.idx}`).toBe(before.size);
    }
    // Every (population + 1)-th model point replays the recommendation; the rest are draws.
    expect(rows.filter((r) => r.origin === 'mean').length).toBeGreaterThan(4);
    expect(rows.filter((r) => r.origin === 'model').length).toBeGreaterThan(15);
  });

  it('kill -9 mid-run, then resume: the same rows as a run never stopped', async () => {
    const config = writeConfig(lagged(2, { budget: 240, seed: 9 }));
    const straight = tempDb();
    expect(runCli(['tune', '-c', config, '--db', straight, '--workers', '2']).code).toBe(0);
    const killed = tempDb();
    const run = startCli(['tune', '-c', config, '--db', killed, '--workers', '2']);
    await waitFor(() => (peek<{ n: number }>(killed, "SELECT count(*) AS n FROM generations WHERE status = 'done'")?.n ?? 0) >= 25);
    run.child.kill('SIGKILL');
    await run.done;
    expect(peek<{ status: string }>(killed, 'SELECT status FROM runs WHERE id = 1')?.status).not.toBe('finished');
    const resumed = runCli(['resume', '1', '--db', killed, '--workers', '1']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(dumpRun(killed, 1)).toEqual(dumpRun(straight, 1));
    // show: a row a round of (population + 1) points, not a table of one-candidate generations.
    const shown = runCli(['show', '1', '--db', straight]).stdout;
    expect(shown).toMatch(/^points\s+best point \(in-sample\)\s+games\s+the model at the round's end$/m);
    expect(shown).toMatch(/^56–59\s+\d+/m);
    expect(shown).toMatch(/^\(lagged: each point proposed from the points before it but the last 2; a round is 4 points\)$/m);
    expect(shown).not.toMatch(/^generation\s+best \(in-sample\)/m);
  });

  it('a batch that fails while other points play: the run fails naming that failure, not the stop it caused, and resumes to the same rows', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const straight = tempDb();
    const { id } = await tuneToEnd(straight, parseConfig(lagged(4)), { workers: 2 });
    const db = tempDb();
    process.env.TUNE2048_TEST_MARKER = join(mkdtempSync(join(tmpdir(), 'tune2048-lag-crash-')), 'served');
    process.env.TUNE2048_TEST_LIMIT = '13';
    try {
      const crashed = await tuneToEnd(db, parseConfig(lagged(4)), { workers: 2, pool: { workerPath: join(__dirname, 'fixtures', 'workers', 'crash-after.ts') } });
      expect(crashed.outcome.status).toBe('failed');
      expect(crashed.outcome.error).toMatch(/died/);
      expect(crashed.outcome.error).not.toMatch(/runner stopped/);
    } finally {
      delete process.env.TUNE2048_TEST_MARKER;
      delete process.env.TUNE2048_TEST_LIMIT;
    }
    const resumed = await tuneToEnd(db, parseConfig(lagged(4)), { workers: 2 }, 1);
    expect(resumed.outcome.status).toBe('finished');
    expect(dumpRun(db, 1)).toEqual(dumpRun(straight, id));
  });

  it.each([
    ['a lag below 1', lagged(0), /field "optimizer\.lag": must be at least 1, received 0/],
    ['a lag the budget leaves no point to learn from', lagged(37), /field "optimizer\.lag": 37 leaves no point to be proposed from a model among the run's 40 \(fitness\.budget 160 \/ optimizer\.games 4\)/],
    ['racing', { ...lagged(2), fitness: { ...lagged(2).fitness, racing: { rounds: 2, keep: 0.5 } } }, /lagged points play alone, with no rivals to race/],
  ])('%s: one line, exit 2, no database', (_name, config, message) => {
    const db = tempDb();
    const r = runCli(['tune', '-c', writeConfig(config), '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(existsSync(db)).toBe(false);
  });
});
