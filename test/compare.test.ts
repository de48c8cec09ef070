import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import seedrandom from 'seedrandom';
import { bootstrapMeanCI95, erfc, meanWithCI95, normalTwoSidedP, wilcoxonSignedRank } from '../src/util/stats';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizePlayed } from '../src/compare/compare';
import { ROOT, runCli, startCli, waitFor, waitForOutput } from './helpers/cli';
import { peek, SMOKE, tempDb, writeConfig } from './helpers/runs';

describe('statistics', () => {
  it('erfc matches known values, tails included', () => {
    expect(erfc(0)).toBeCloseTo(1, 7);
    expect(erfc(1)).toBeCloseTo(0.157299207, 7);
    expect(erfc(-1)).toBeCloseTo(1.842700793, 7);
    expect(erfc(5) / 1.5374597944e-12).toBeCloseTo(1, 5);
    expect(normalTwoSidedP(1.959964)).toBeCloseTo(0.05, 6);
  });

  it('Wilcoxon signed-rank: a worked example by hand', () => {
    // |d| ranks 1..15; the negatives -48 and -67 hold ranks 10 and 14, so W+ = 120 - 24 = 96.
    const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
    const r = wilcoxonSignedRank(d);
    expect(r.n).toBe(15);
    expect(r.wPlus).toBe(96);
    const z = (96 - 60) / Math.sqrt((15 * 16 * 31) / 24);
    expect(r.z).toBeCloseTo(z, 10);
    expect(r.p).toBeCloseTo(0.0409, 3);
  });

  it('Wilcoxon drops zero differences and averages tied ranks', () => {
    const r = wilcoxonSignedRank([0, 3, -3, 3, 0]);
    // |d| = 3,3,3 tie at rank 2; W+ = 4; ties correct the variance: 3*4*7/24 - (27-3)/48 = 3
    expect(r).toMatchObject({ n: 3, wPlus: 4 });
    expect(r.z).toBeCloseTo((4 - 3) / Math.sqrt(3), 10);
    expect(wilcoxonSignedRank([0, 0]).p).toBe(1);
  });

  it('normal and bootstrap intervals cover the mean and shrink with n', () => {
    const rng = seedrandom.alea('ci');
    const xs = Array.from({ length: 400 }, () => rng() * 100);
    const ci = meanWithCI95(xs);
    const boot = bootstrapMeanCI95(xs, seedrandom.alea('b'));
    expect(ci.low).toBeLessThan(ci.mean);
    expect(ci.high).toBeGreaterThan(ci.mean);
    expect(Math.abs(boot.low - ci.low)).toBeLessThan(1);
    expect(Math.abs(boot.high - ci.high)).toBeLessThan(1);
    expect(bootstrapMeanCI95(xs, seedrandom.alea('b'))).toEqual(boot); // seeded
  });

  it("a pair's interval is its own: the same whatever else is compared beside it, mirrored when its two are swapped", () => {
    const rng = seedrandom.alea('pairs');
    const games = () => Array.from({ length: 60 }, (_, k) => ({ seed: 100 + k, score: Math.round(rng() * 100_000), maxTile: 2048, moves: 1000, ms: 100 }));
    const [a, b, c] = [games(), games(), games()];
    const pair = (labels: string[], played: (typeof a)[], x: string, y: string) => summarizePlayed(labels.map((label) => ({ label })), played, 7).pairs.find((p) => p.a === x && p.b === y)!;
    const alone = pair(['A', 'B'], [a, b], 'A', 'B');
    expect(alone.ciMethod).toBe('bootstrap');
    expect(pair(['C', 'A', 'B'], [c, a, b], 'A', 'B').ci95).toEqual(alone.ci95);
    const swapped = pair(['B', 'A'], [b, a], 'B', 'A');
    expect(swapped.ci95.low).toBeCloseTo(-alone.ci95.high, 9);
    expect(swapped.ci95.high).toBeCloseTo(-alone.ci95.low, 9);
    // Another pair of the same run draws its own resamples.
    const other = pair(['A', 'C'], [a, c], 'A', 'C');
    expect(other.ci95.high - other.ci95.low).not.toBeCloseTo(alone.ci95.high - alone.ci95.low, 6);
  });
});

describe('tune2048 compare', () => {
  it('plays the same seeds for every contender and tests each pair', () => {
    const r = runCli(['compare', 'nneonneo', 'snake3', 'java-l', '-n', '30', '-d', '0', '--seed', '500', '--workers', '2', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.contenders.map((c: any) => c.label)).toEqual(['nneonneo', 'snake3', 'java-l']);
    for (const c of out.contenders) expect(c.games.map((g: any) => g.seed)).toEqual(Array.from({ length: 30 }, (_, i) => 500 + i));
    expect(out.pairs.map((p: any) => `${p.a}-${p.b}`)).toEqual(['nneonneo-snake3', 'nneonneo-java-l', 'snake3-java-l']);
    const [a, b] = out.contenders;
    const diff = a.games.reduce((s: number, g: any, i: number) => s + g.score - b.games[i].score, 0) / 30;
    expect(out.pairs[0].meanDiff).toBeCloseTo(diff, 9);
    expect(out.pairs[0].wilcoxon.p).toBeGreaterThan(0);
    // how much the seeds paired them, by the textbook formulas
    const xs: number[] = a.games.map((g: any) => g.score);
    const ys: number[] = b.games.map((g: any) => g.score);
    const avg = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
    const [mx, my] = [avg(xs), avg(ys)];
    const rho = avg(xs.map((x, i) => (x - mx) * (ys[i] - my))) / Math.sqrt(avg(xs.map((x) => (x - mx) ** 2)) * avg(ys.map((y) => (y - my) ** 2)));
    expect(out.pairs[0].pairing.correlation).toBeCloseTo(rho, 9);
    const d = xs.map((x, i) => x - ys[i]);
    const sdDiff = Math.sqrt(d.reduce((s, x) => s + (x - avg(d)) ** 2, 0) / (d.length - 1));
    expect(out.pairs[0].pairing.gamesFor5Percent).toBe(Math.ceil(((1.96 * sdDiff) / (0.05 * avg([...xs, ...ys]))) ** 2));
    // At 80 % power (the printed figure): ((z_0.975 + z_0.8)·sd/δ)².
    expect(out.pairs[0].pairing.gamesFor5PercentPower80).toBe(Math.ceil((((1.959964 + 0.841621) * sdDiff) / (0.05 * avg([...xs, ...ys]))) ** 2));
    const text = runCli(['compare', 'nneonneo', 'snake3', '-n', '30', '-d', '0', '--seed', '500', '--workers', '2']).stdout;
    expect(text).toMatch(/seed correlation\s+games for ±5% \(80% power\)/);
    expect(text).toMatch(new RegExp(`nneonneo − snake3 .* ${rho.toFixed(2)}\\s+${out.pairs[0].pairing.gamesFor5PercentPower80}`));
  });

  it('a contender at a depth of its own (@dN): played there, labelled so; the others at --depth', () => {
    const r = runCli(['compare', 'nneonneo@d1', 'snake3', 'nneonneo', '-n', '6', '-d', '0', '--seed', '500', '--workers', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.contenders.map((c: any) => c.label)).toEqual(['nneonneo@d1', 'snake3', 'nneonneo']);
    const alone = (depth: string) => JSON.parse(runCli(['play', '-w', 'nneonneo', '-n', '6', '-d', depth, '--seed', '500', '--workers', '1', '--json']).stdout).games.map((g: any) => g.score);
    expect(out.contenders[0].games.map((g: any) => g.score)).toEqual(alone('1'));
    expect(out.contenders[2].games.map((g: any) => g.score)).toEqual(alone('0'));
    expect(out.contenders.map((c: any) => c.depth)).toEqual([1, 0, 0]);
    // The heading states no depth the contenders do not share; a column gives each one's.
    const text = runCli(['compare', 'nneonneo@d1', 'snake3', '-n', '6', '-d', '0', '--seed', '500', '--workers', '2']).stdout;
    expect(text).toMatch(/^6 paired games per contender, seeds 500\.\.505, cprob 0\.0001 \(depths in the table\)$/m);
    expect(text).toMatch(/^contender\s+depth\s+mean/m);
    expect(text).toMatch(/^nneonneo@d1\s+1\s/m);
    expect(runCli(['compare', 'nneonneo', 'snake3', '-n', '2', '-d', '0', '--workers', '1']).stdout).toMatch(/^2 paired games per contender, seeds 1000000\.\.1000001, depth 0, cprob 0\.0001$/m);
    const bad = runCli(['compare', 'nneonneo@dx', 'snake3', '-n', '2']);
    expect([bad.code, bad.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(bad.stderr).toMatch(/nneonneo@dx/);
  });

  it('a contender at a chance cutoff of its own (@cP, after @dN or alone): played there, labelled so; a bad one is one line', () => {
    const r = runCli(['compare', 'nneonneo@d2@c0.05', 'nneonneo@d2', '-n', '3', '--seed', '40', '--workers', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.contenders.map((c: any) => c.label)).toEqual(['nneonneo@d2@c0.05', 'nneonneo@d2']);
    const alone = (cprob: string) => JSON.parse(runCli(['play', '-w', 'nneonneo', '-n', '3', '-d', '2', '--cprob', cprob, '--seed', '40', '--workers', '1', '--json']).stdout).games.map((g: any) => [g.score, g.nodes]);
    expect(out.contenders[0].games.map((g: any) => [g.score, g.nodes])).toEqual(alone('0.05'));
    expect(out.contenders[1].games.map((g: any) => [g.score, g.nodes])).toEqual(alone('0.0001'));
    expect(runCli(['compare', 'nneonneo@c0.05', 'nneonneo', '-n', '2', '-d', '0', '--workers', '1']).stdout).toMatch(/^2 paired games per contender, seeds 1000000\.\.1000001, depth 0, cprob 0\.0001 unless @c says$/m);
    const bad = runCli(['compare', 'nneonneo@d2@c1', 'snake3', '-n', '2']);
    expect([bad.code, bad.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(bad.stderr).toMatch(/nneonneo@d2@c1: the cutoff after @c must be a number from 0 to/);
  });

  it('sweep plays the same seeds at each depth', () => {
    const r = runCli(['sweep', 'snake3', '--depths', '0,1', '-n', '4', '--seed', '77', '--workers', '2', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.depths.map((d: any) => d.depth)).toEqual([0, 1]);
    expect(out.depths.every((d: any) => d.summary.games === 4)).toBe(true);
  });

  it('the search\'s cost, nodes a game, is the same in one process, on one worker or two, and a run stores it with its games', () => {
    const nodes = (extra: string[]) => (JSON.parse(runCli(['play', '-w', 'tuned-d1', '-d', '2', '-n', '4', '-s', '30', '--json', ...extra]).stdout) as { games: { nodes: number }[] }).games.map((g) => g.nodes);
    const here = nodes([]);
    expect(here.every((n) => n > 1000)).toBe(true);
    expect(nodes(['--workers', '2'])).toEqual(here);
    expect(nodes(['--workers', '3'])).toEqual(here);
    // A game's count does not depend on the games its process played before.
    expect((JSON.parse(runCli(['play', '-w', 'tuned-d1', '-d', '2', '-n', '2', '-s', '32', '--json']).stdout) as { games: { nodes: number }[] }).games.map((g) => g.nodes)).toEqual(here.slice(2));
    const db = tempDb();
    expect(runCli(['tune', '-c', writeConfig({ ...SMOKE, fitness: { games: 6, depth: 1 } }), '--db', db, '--workers', '2']).code).toBe(0);
    expect(peek<{ n: number }>(db, 'SELECT count(*) AS n FROM games WHERE nodes IS NULL OR nodes <= 0')!.n).toBe(0);
  });

  it('needs two weight sets that exist', () => {
    expect(runCli(['compare', 'nneonneo']).stderr).toMatch(/compare needs two or more weight sets/);
    const r = runCli(['compare', 'nneonneo', 'nope-weights', '-n', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown weights preset or file "nope-weights"/);
  });

  it('--sprt plays fixed steps of pairs until the test decides, the same with 1 or 2 workers', () => {
    const args = ['compare', 'nneonneo', 'flat', '--sprt', '-d', '0', '--step', '10', '--max-games', '200', '--json'];
    const two = JSON.parse(runCli([...args, '--workers', '2']).stdout);
    const one = JSON.parse(runCli([...args, '--workers', '1']).stdout);
    expect(two.decision).toBe('H1');
    expect(two.trajectory.at(-1).llr).toBeGreaterThanOrEqual(two.trajectory.at(-1).upper);
    expect(two.trajectory.slice(0, -1).every((t: { llr: number; upper: number; lower: number }) => t.llr < t.upper && t.llr > t.lower)).toBe(true);
    expect(two.settings.games).toBe(10 * two.trajectory.length);
    expect(one.trajectory).toEqual(two.trajectory);
    expect(runCli(['compare', 'nneonneo', 'flat', 'snake3', '--sprt']).stderr).toMatch(/exactly two weight sets/);
    expect(runCli(['compare', 'nneonneo', 'flat', '--sprt', '--ratio0', '1.2', '--ratio1', '1.1']).code).toBe(2);
  });

  it('--db keeps every finished batch: killed mid-way (kill -9), the same command goes on from them to the uninterrupted result', async () => {
    const args = ['compare', 'nneonneo', 'tuned-d1', '-n', '40', '-d', '1', '--seed', '600', '--workers', '2', '--json'];
    const strip = (out: string) => {
      const r = JSON.parse(out);
      return { contenders: r.contenders.map((c: any) => ({ label: c.label, games: c.games.map(({ ms: _ms, ...g }: any) => g) })), pairs: r.pairs };
    };
    const whole = runCli(args);
    expect(whole.code, whole.stderr).toBe(0);

    const db = tempDb();
    const rows = () => peek<{ n: number }>(db, 'SELECT count(*) AS n FROM compare_games')?.n ?? 0;
    const run = startCli([...args, '--db', db]);
    await waitFor(() => rows() >= 10); // a first batch is kept
    run.child.kill('SIGKILL');
    await run.done;
    const kept = new Map((peekAll(db) as { seed: number; ms: number }[]).map((g) => [`${g.seed}`, g.ms]));
    expect(kept.size).toBeGreaterThanOrEqual(10);

    const again = runCli([...args, '--db', db]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/going on from the games .* holds of this comparison/);
    expect(strip(again.stdout)).toEqual(strip(whole.stdout));
    expect(rows()).toBe(80); // each game kept once
    // The kept games were not played again: their times are the ones stored before.
    const reused = JSON.parse(again.stdout).contenders.flatMap((c: any) => c.games).filter((g: any) => kept.get(`${g.seed}`) === g.ms);
    expect(reused.length).toBeGreaterThanOrEqual(Math.min(kept.size, 10));

    // Other settings are other games.
    expect(runCli(['compare', 'nneonneo', 'tuned-d1', '-n', '5', '-d', '0', '--seed', '600', '--workers', '2', '--db', db]).code).toBe(0);
    expect(rows()).toBe(90);
  });

  it('Ctrl-C on compare --db: the pairs finished are shown as a table marked STOPPED (exit 130), and the command it prints goes on from the games kept', async () => {
    const db = tempDb();
    const rows = () => peek<{ n: number }>(db, 'SELECT count(*) AS n FROM compare_games')?.n ?? 0;
    const args = ['compare', 'nneonneo', 'tuned-d1', '-n', '60', '-d', '1', '--seed', '640', '--workers', '2', '--db', db];
    const run = startCli(args);
    await waitFor(() => rows() >= 20); // a batch of each contender is kept
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    const finished = Number(/^STOPPED: (\d+) of 60 paired games per contender finished/m.exec(r.stdout)?.[1]);
    expect(finished).toBeGreaterThanOrEqual(10);
    expect(finished).toBeLessThan(60);
    expect(r.stdout).toMatch(/^nneonneo − tuned-d1 /m); // the pair's test on what finished
    expect(peek<{ n: number }>(db, 'SELECT count(*) AS n FROM results')?.n ?? 0).toBe(0); // a partial comparison is never stored as one
    const hint = /the same command goes on from there: (tune2048 .*)$/m.exec(r.stderr)?.[1];
    expect(hint).toBe(`tune2048 ${args.slice(0).join(' ')}`);
    const again = runCli(hint!.split(' ').slice(1));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/going on from the games/);
    expect(again.stdout).toMatch(/^60 paired games per contender/m);
    expect(rows()).toBe(120);
  });

  it('Ctrl-C on compare without --db says its games were not kept (and a long one says so at its start); on sweep --db it shows the depths finished and goes on', async () => {
    const run = startCli(['compare', 'nneonneo', 'tuned-d1', '-n', '500', '-d', '1', '--seed', '640', '--workers', '2']);
    await waitForOutput(run, 'stderr', /without --db the games are kept only until the command ends/);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toMatch(/^STOPPED: \d+ of 500 paired games per contender finished/m);
    expect(r.stderr).toMatch(/its games were not kept \(no --db\): run it with --db FILE to keep them across a stop/);

    const db = tempDb();
    const rows = () => peek<{ n: number }>(db, 'SELECT count(*) AS n FROM compare_games')?.n ?? 0;
    const args = ['sweep', 'nneonneo', '--depths', '0,1', '-n', '60', '--seed', '640', '--workers', '2', '--db', db];
    const sweep = startCli(args);
    await waitFor(() => rows() >= 70); // depth 0 done, depth 1 started
    sweep.child.kill('SIGTERM');
    const s = await sweep.done;
    expect(s.code, s.stderr).toBe(130);
    expect(s.stdout).toMatch(/^STOPPED: nneonneo: 60 games per depth, seeds 640\.\.699; depth 1 stopped at \d+ games, not shown$/m);
    expect(s.stdout).toMatch(/^0\s+\d+/m);
    const hint = /the same command goes on from there: (tune2048 .*)$/m.exec(s.stderr)?.[1];
    const again = runCli(hint!.split(' ').slice(1));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/going on from the games/);
    expect(again.stdout).toMatch(/^1\s+\d+/m);
    expect(rows()).toBe(120);
  });

  it('--db knows a player by what changes play: a weight set with another name and description reuses its stored games', () => {
    const db = tempDb();
    const rows = () => peek<{ n: number }>(db, 'SELECT count(*) AS n FROM compare_games')?.n ?? 0;
    const args = ['-n', '6', '-d', '1', '--seed', '700', '--workers', '1', '--db', db, '--json'];
    const first = runCli(['compare', 'nneonneo', 'tuned-d1', ...args]);
    expect(first.code, first.stderr).toBe(0);
    expect(rows()).toBe(12);
    // The same weights relabelled (a preset's description edited, a copy renamed): the same player.
    const relabelled = { ...JSON.parse(readFileSync(join(ROOT, 'configs', 'weights', 'nneonneo.json'), 'utf8')), name: 'renamed', description: 'edited' };
    const file = join(mkdtempSync(join(tmpdir(), 'tune2048-w-')), 'renamed.json');
    writeFileSync(file, JSON.stringify(relabelled));
    const again = runCli(['compare', file, 'tuned-d1', ...args]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/going on from the games/);
    expect(rows()).toBe(12); // nothing new was played
    const scores = (out: string) => JSON.parse(out).contenders.map((c: any) => c.games.map((g: any) => g.score));
    expect(scores(again.stdout)).toEqual(scores(first.stdout));
    // Times per move are this run's only: every game stored, none measured now (the table says so).
    expect(JSON.parse(first.stdout).contenders.map((c: any) => c.timing.games)).toEqual([6, 6]);
    expect(JSON.parse(again.stdout).contenders.map((c: any) => c.timing)).toEqual([null, null]);
    expect(runCli(['compare', file, 'tuned-d1', ...args.filter((a) => a !== '--json')]).stdout).toMatch(/^renamed .* \(stored\)\s+\d+$/m); // its nodes a move come back from the database too
    // A weight that changes play is another player; the other contender's games stay stored.
    writeFileSync(file, JSON.stringify({ ...relabelled, empty: relabelled.empty + 1 }));
    const changed = runCli(['compare', file, 'tuned-d1', ...args]);
    expect(changed.code).toBe(0);
    expect(rows()).toBe(18);
    expect(JSON.parse(changed.stdout).contenders.map((c: any) => c.timing?.games ?? null)).toEqual([6, null]);
  });
});

/** Every kept comparison game of a database. */
function peekAll(db: string): unknown[] {
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return conn.prepare('SELECT seed, ms FROM compare_games').all();
  } finally {
    conn.close();
  }
}
