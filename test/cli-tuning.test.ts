import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../src/tuner/config/config';
import { runCli, runPrinted, startCli, waitFor } from './helpers/cli';
import { all, dumpRun, gamesIn, peek, SLOW, SMOKE, tempDb, tuneToEnd, writeConfig } from './helpers/runs';




describe('tune, runs, show, export from the command line', () => {
  it('tune prints the run id first; the exported weights play unchanged', () => {
    const db = tempDb();
    // Every progress line (in a log, a short phase's are left out: TUNE2048_PROGRESS=every keeps them).
    const r = runCli(['tune', '-c', writeConfig(SMOKE), '--db', db, '--workers', '2'], { env: { ...process.env, TUNE2048_PROGRESS: 'every' } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('run 1');
    expect(r.stdout).toMatch(/generation 2 \(3 of 3\): best/);
    // progress on stderr: this generation's ETA and the run's, known once a game of the session is done
    expect(r.stderr).toMatch(/generation 0 \(1 of 3\) \[.*\] 0\/36 games \| best in-sample - \| ETA unknown \(whole run: unknown left\)/);
    expect(r.stderr).toMatch(/generation 2 \(3 of 3\) \[.*\] \d+\/36 games \| best in-sample [\d.]+ \| ETA \S+ \(whole run: \d[^)]* left\)/);
    const runs = JSON.parse(runCli(['runs', '--db', db, '--json']).stdout);
    expect(runs).toEqual([expect.objectContaining({ id: 1, status: 'finished', generation: 3, generations: 3, gamesPlayed: 18 * 6 + (2 + 1) * 8 })]);
    const show = JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout);
    expect(show.generations).toHaveLength(3);
    expect(show.generations[0]).toEqual(expect.objectContaining({ generation: 0, status: 'done', games: 36, stepSize: 0.1 }));
    // the best's 95% half-width, by the textbook formula over its stored games: Student's t with n − 1 = 5 degrees
    // of freedom (t₀.₉₇₅,₅ = 2.5705818356363155, scipy.stats.t.ppf(0.975, 5))
    const bestId = peek<{ id: number }>(db, 'SELECT id FROM candidates WHERE generation = 0 ORDER BY fitness DESC, idx LIMIT 1')!.id;
    const xs = all<{ score: number }>(db, `SELECT score FROM games WHERE candidate_id = ${bestId} AND purpose = 'fitness'`).map((g) => g.score);
    expect(xs).toHaveLength(6);
    const m = xs.reduce((a, x) => a + x, 0) / xs.length;
    const half = (2.5705818356363155 * Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1))) / Math.sqrt(xs.length);
    expect(show.generations[0].bestHalfWidth).toBeCloseTo(half, 6);
    // the real share of generation 0's spread: variance of the candidates' means less their mean sd² / n
    const byCandidate = new Map<number, number[]>();
    for (const g of all<{ candidate_id: number; score: number }>(db, "SELECT candidate_id, score FROM games JOIN candidates c ON c.id = candidate_id WHERE c.generation = 0 AND purpose = 'fitness'"))
      byCandidate.set(g.candidate_id, [...(byCandidate.get(g.candidate_id) ?? []), g.score]);
    const avg = (v: number[]) => v.reduce((a, x) => a + x, 0) / v.length;
    const variance = (v: number[]) => v.reduce((a, x) => a + (x - avg(v)) ** 2, 0) / (v.length - 1);
    const groups = [...byCandidate.values()];
    const observed = variance(groups.map(avg));
    const noise = avg(groups.map((v) => variance(v) / v.length));
    expect(show.generations[0].signalShare).toBeCloseTo(Math.max(0, observed - noise) / observed, 9);
    expect(runCli(['show', '1', '--db', db]).stdout).toMatch(new RegExp(`^0 +${show.generations[0].best.toFixed(1)} +±${((100 * half) / show.generations[0].best).toFixed(1)}%`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`generation 0 \\(1 of 3\\): best ${show.generations[0].best.toFixed(1)} ±${((100 * half) / show.generations[0].best).toFixed(1)}%`));
    const out = join(mkdtempSync(join(tmpdir(), 'tune2048-w-')), 'best.json');
    expect(runCli(['export', '1', '--db', db, '--out', out]).code).toBe(0);
    const weights = JSON.parse(readFileSync(out, 'utf8'));
    expect(weights.provenance).toEqual(expect.objectContaining({ run: 1, search: { depth: 0, cprob: 0.0001 } }));
    const play = runCli(['play', '-w', out, '-n', '2', '-d', '0', '--json']);
    expect(play.code).toBe(0);
    expect(JSON.parse(play.stdout).summary.games).toBe(2);
  });

  it('--json prints one event per line', () => {
    const db = tempDb();
    const r = runCli(['tune', '-c', writeConfig(SMOKE), '--db', db, '--json']);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l).event);
    expect(events).toEqual(['run-started', 'generation-finished', 'generation-finished', 'generation-finished', 'validation-finished', 'run-finished']);
  });

  // The surrogate on the synthetic player: games that sleep 20 ms (no CPU), so a kill lands mid-run; it reads its history back on resume.
  const SURROGATE_SLOW = {
    ...SLOW,
    optimizer: { kind: 'surrogate', population: 8, generations: 12 },
    fitness: { player: 'synthetic', synthetic: { optimum: { empty: 900, merges: 400, monotonicity: 30 }, width: 1, gameMs: 20 } },
    validation: { finalists: 2, games: 20 },
    pool: { batchGames: 4 },
  };
  /** Strength against cost: the synthetic player's cost grows with merges; the front is validated at the end. */
  const NSGA2_SLOW = {
    ...SLOW,
    optimizer: { kind: 'nsga2', population: 6, generations: 8 },
    fitness: { games: 6, cost: 'nodes', player: 'synthetic', synthetic: { optimum: { empty: 900, merges: 2000, monotonicity: 30 }, width: 1, gameMs: 10, cost: { weight: 'merges', nodes: 20, growth: 0.001 } } },
    validation: { front: 4, games: 10 },
    pool: { batchGames: 3 },
  };
  /**
   * The model within a budget (synthetic, cost growing with merges), its finalists raced and the winner confirmed on a
   * second held-out set: kills in the model's generations, in the race and in the confirmation.
   */
  const MODEL_SLOW = {
    ...SLOW,
    optimizer: { kind: 'model', population: 4, games: 2 },
    fitness: { budget: 60, cost: 'nodes', maxCost: 60, player: 'synthetic', synthetic: { optimum: { empty: 900, merges: 2000, monotonicity: 30 }, width: 1, gameMs: 30, cost: { weight: 'merges', nodes: 20, growth: 0.001 } } },
    validation: { finalists: 2, games: 12, race: { rounds: 2, keep: 0.5 }, confirm: 10 },
    pool: { batchGames: 2 },
  };
  it.each([
    ['the model within a budget, raced and confirmed (the kills in its generations, its race, its second set)', MODEL_SLOW, [25, 75, 90]],
    ['the GA', SLOW, [30, 200, 420]],
    ['the surrogate (synthetic player)', SURROGATE_SLOW, [30, 90, 150]],
    ['NSGA-II, to the same validated front', NSGA2_SLOW, [20, 130, 300]],
  ])('kill -9 at several points, each time resumed: equals the uninterrupted run (%s)', async (_name, data, kills) => {
    const config = writeConfig(data);
    const reference = tempDb();
    const straight = await tuneToEnd(reference, parseConfig(data), { workers: 1 });
    const db = tempDb();
    let args = ['tune', '-c', config, '--db', db, '--workers', '2', '--name', 'test'];
    for (const killAt of kills) {
      const run = startCli(args);
      await waitFor(() => gamesIn(db) >= killAt);
      run.child.kill('SIGKILL');
      await run.done;
      expect(peek<{ status: string }>(db, 'SELECT status FROM runs')?.status).toBe('running'); // it really died mid-run
      args = ['resume', '1', '--db', db, '--workers', '2'];
    }
    const resumed = runCli(['resume', '1', '--db', db]);
    expect(resumed.code).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(reference, straight.id));
  });

  it('a second tuner on a live run is refused, Ctrl-C stops with 130, resume finishes it', async () => {
    const db = tempDb();
    const run = startCli(['tune', '-c', writeConfig(SLOW), '--db', db, '--workers', '2']);
    await waitFor(() => gamesIn(db) >= 10);
    const second = runCli(['resume', '1', '--db', db]);
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(new RegExp(`run 1 is held by pid ${run.child.pid}`));
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/run 1 stopped; resume it with: tune2048 resume 1/);
    expect(peek<{ status: string }>(db, 'SELECT status FROM runs')?.status).toBe('stopped');
    const before = gamesIn(db);
    expect(before).toBeGreaterThanOrEqual(10);
    const early = runCli(['export', '1', '--db', db]);
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/run 1 has no validated best yet \(status stopped\); finish it with: tune2048 resume 1 --db /);
    // show says how to go on, and counts the stopped generation's games as runs does.
    const shown = runCli(['show', '1', '--db', db]).stdout;
    const hint = shown.match(/^no validated best yet: the run is stopped; it goes on with: (tune2048 .*)$/m)![1];
    expect(hint).toBe(`tune2048 resume 1 --db ${db}`);
    // Whichever generation the stop fell in, an open one counts the games stored for it.
    const generations = (JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout) as { generations: { generation: number; status: string; games: number }[] }).generations;
    for (const g of generations.filter((x) => x.status !== 'done')) {
      const stored = peek<{ n: number }>(db, `SELECT count(*) AS n FROM games JOIN candidates ON candidates.id = games.candidate_id WHERE candidates.generation = ${g.generation} AND games.purpose = 'fitness'`)!.n;
      expect(g.games).toBe(stored);
    }
    expect(runPrinted(hint).code).toBe(0);
    expect(peek<{ status: string }>(db, 'SELECT status FROM runs')?.status).toBe('finished');
  });

  it.each([
    [['tune', '-c', 'configs/no-such.json'], /cannot read config file/],
    [['tune', '-c', 'package.json'], /config "package.json": /],
    [['resume', '9', '--db', 'db/none-here.sqlite'], /no database at/],
    [['show', 'x'], /<run> must be an integer/],
    [['export', '1', '--db', 'package.json'], /is not a SQLite database|not a tune2048 database/],
  ])('bad input %j exits 2 with one line', (args, message) => {
    const r = runCli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
  });

  it('a missing run is named', () => {
    const db = tempDb();
    runCli(['tune', '-c', writeConfig(SMOKE), '--db', db]);
    const missing = runCli(['show', '7', '--db', db]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no run 7 in/);
  });

});
