/**
 * tune2048 learn as a user runs it: start, stop (Ctrl-C, kill -9) and resume to the same tables as a run
 * never stopped; export a table file and weights that play through worker processes as in one process;
 * bad configs and exports refused with one line, nothing created.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startCli, waitFor } from './helpers/cli';
import { peek, SMOKE, tempDb, writeConfig } from './helpers/runs';

const dir = () => mkdtempSync(join(tmpdir(), 'tune2048-learn-cli-'));

function config(games: number, checkpointEvery: number): string {
  const path = join(dir(), 'learn.json');
  writeFileSync(path, JSON.stringify({ format: 'tune2048/learn', name: 'test lines', seed: 3, games, learningRate: 0.25, checkpointEvery }));
  return path;
}

/** The exported table file's bytes of learning run 1. */
function exported(db: string): Buffer {
  const out = join(dir(), 'lines.bin');
  const r = runCli(['learn', 'export', '1', '--db', db, '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(out);
}

const checkpoints = (db: string) => (existsSync(db) ? (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM learn_checkpoints WHERE run_id = 1')?.n ?? 0) : 0);

describe('tune2048 learn', () => {
  const games = 20000;
  const every = 500;
  let uninterrupted: Buffer;

  it('start runs to the end and says what to do next; show lists it and its curve', () => {
    const db = tempDb();
    const r = runCli(['learn', 'start', '-c', config(games, every), '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/learning run 1 \(test lines\) finished at 20000\/20000 games/);
    expect(r.stdout).toContain(`next: tune2048 learn export 1 --out lines-1.bin --db ${db}`);
    expect(runCli(['learn', 'show', '--db', db]).stdout).toMatch(/^id +name +status +games\n1 +test lines +finished +20000\/20000$/m);
    const curve = JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout) as { curve: { games: number; meanScore: number }[] };
    expect(curve.curve.map((c) => c.games)).toEqual(Array.from({ length: games / every }, (_, k) => (k + 1) * every));
    // It learns: the last checkpoint's games score well above the first's (greedy play from an empty network).
    expect(curve.curve.at(-1)!.meanScore).toBeGreaterThan(2 * curve.curve[0].meanScore);
    uninterrupted = exported(db);
    // Only the latest checkpoint keeps its tables.
    expect(peek<{ n: number }>(db, 'SELECT count(*) AS n FROM learn_checkpoints WHERE tables IS NOT NULL')!.n).toBe(1);
  });

  it('kill -9 after a checkpoint, then resume: the same tables, to the bit, as the run never stopped', async () => {
    const db = tempDb();
    const run = startCli(['learn', 'start', '-c', config(games, every), '--db', db]);
    await waitFor(() => checkpoints(db) >= 2);
    run.child.kill('SIGKILL');
    await run.done;
    const stored = peek<{ games: number }>(db, 'SELECT max(games) AS games FROM learn_checkpoints')!.games;
    expect(stored).toBeLessThan(games);
    const threads = runCli(['learn', 'resume', '1', '--db', db, '--threads', '2']);
    expect([threads.code, threads.stderr.trim()]).toEqual([2, 'tune2048: --threads is for n-tuple networks; learning run 1 learns line tables, on one thread']);
    const r = runCli(['learn', 'resume', '1', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(exported(db).equals(uninterrupted)).toBe(true);
  });

  it('Ctrl-C stops at a game boundary (exit 130, stored as stopped, the hint resumes it); resumed, the same tables', async () => {
    const db = tempDb();
    const run = startCli(['learn', 'start', '-c', config(games, every), '--db', db]);
    await waitFor(() => checkpoints(db) >= 1);
    run.child.kill('SIGINT');
    const done = await run.done;
    expect(done.code).toBe(130);
    expect(done.stdout).toContain(`next: tune2048 learn resume 1 --db ${db}`);
    expect(peek<{ status: string }>(db, 'SELECT status FROM learn_runs WHERE id = 1')!.status).toBe('stopped');
    const r = runCli(['learn', 'resume', '1', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(exported(db).equals(uninterrupted)).toBe(true);
    expect(runCli(['learn', 'resume', '1', '--db', db]).stderr).toContain('learning run 1 is already finished; nothing to do');
  });

  it('a learning run another live process holds: resume refuses with exit 3, naming the holder', async () => {
    const db = tempDb();
    // Long enough (minutes) that it is surely still running when the second command looks.
    const run = startCli(['learn', 'start', '-c', config(1_000_000, every), '--db', db]);
    await waitFor(() => checkpoints(db) >= 1);
    const second = runCli(['learn', 'resume', '1', '--db', db]);
    run.child.kill('SIGKILL');
    await run.done;
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(new RegExp(`learning run 1 is held by pid ${run.child.pid}`));
  });

  it('exported weights (their table found beside them, not in the working directory) play the same games through worker processes as in one process', () => {
    const db = tempDb();
    expect(runCli(['learn', 'start', '-c', config(2000, 1000), '--db', db]).code).toBe(0);
    const out = dir();
    const r = runCli(['learn', 'export', '1', '--db', db, '--out', join(out, 'lines.bin'), '--base', 'tuned-d1', '--weight', '2', '--weights-out', join(out, 'w.json')]);
    expect(r.code, r.stderr).toBe(0);
    const w = JSON.parse(readFileSync(join(out, 'w.json'), 'utf8'));
    expect(w.learned).toMatchObject({ table: 'lines.bin', weight: 2 });
    expect(w.name).toBe('tuned-d1+learned-1x2');
    const play = (workers: string) => JSON.parse(runCli(['play', '-w', join(out, 'w.json'), '-n', '4', '-d', '1', '--workers', workers, '--json']).stdout).games;
    const local = play('1');
    expect(play('2')).toEqual(local.map((g: object) => ({ ...g, ms: expect.any(Number) })));
  });

  it('a run tunes the learned term\'s weight (worker processes); the exported best keeps its table and hash and plays', () => {
    const db = tempDb();
    expect(runCli(['learn', 'start', '-c', config(2000, 1000), '--db', db]).code).toBe(0);
    const out = dir();
    expect(runCli(['learn', 'export', '1', '--db', db, '--out', join(out, 'lines.bin'), '--base', 'nneonneo', '--weight', '1', '--weights-out', join(out, 'start.json')]).code).toBe(0);
    const start = JSON.parse(readFileSync(join(out, 'start.json'), 'utf8'));
    const tune = runCli(['tune', '-c', writeConfig({ ...SMOKE, space: { start: join(out, 'start.json'), params: { 'learned.weight': { min: 0, max: 8 }, empty: { min: 0, max: 2000 } } } }), '--db', db, '--workers', '2']);
    expect(tune.code, tune.stderr).toBe(0);
    const best = JSON.parse(runCli(['export', '1', '--db', db, '--json']).stdout).weights;
    expect(best.learned.sha256).toBe(start.learned.sha256);
    expect(best.learned.table).toBe(join(out, 'lines.bin'));
    expect(best.learned.weight).toBeGreaterThanOrEqual(0);
    expect(best.learned.weight).toBeLessThanOrEqual(8);
    expect(best.provenance.tuned['learned.weight']).toBe(best.learned.weight);
    const bestFile = join(out, 'best.json');
    writeFileSync(bestFile, JSON.stringify(best));
    expect(runCli(['play', '-w', bestFile, '-n', '2', '-d', '0']).code).toBe(0);
    // Without a learned term in the start weights, the parameter is refused when the run is created.
    const refused = runCli(['tune', '-c', writeConfig({ ...SMOKE, space: { start: 'nneonneo', params: { 'learned.weight': { min: 0, max: 8 } } } }), '--db', tempDb()]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"learned.weight": the start weights have no learned term/);
  });

  it.each([
    ['a malformed config', ['learn', 'start', '-c', 'CONFIG', '--db', 'DB'], /learning config ".*": field "learningRate": must be above 0/],
    ['a missing run', ['learn', 'resume', '7', '--db', 'DB'], /no learning run 7 in/],
    ['late starts from unknown weights', ['learn', 'start', '-c', 'STARTS', '--db', 'DB'], /unknown weights preset or file "nope"/],
    ['a run config given to learn', ['learn', 'start', '-c', 'configs/quick.json', '--db', 'DB'], /learning config "configs\/quick.json" is a run config: run it with tune2048 tune -c configs\/quick.json/],
    ['a learning config given to tune', ['tune', '-c', 'configs/learn-lines.json', '--db', 'DB'], /config "configs\/learn-lines.json" is a learning config: run it with tune2048 learn start -c configs\/learn-lines.json/],
    ['--base without --weight', ['learn', 'export', '1', '--db', 'DB', '--out', 'OUT', '--base', 'tuned-d1'], /--base and --weight go together/],
  ])('%s: exit 2, one line, nothing created', (_name, args, message) => {
    const db = tempDb();
    const bad = join(dir(), 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'tune2048/learn', name: 'x', seed: 1, games: 10, learningRate: 0 }));
    const starts = join(dir(), 'starts.json');
    writeFileSync(starts, JSON.stringify({ format: 'tune2048/learn', name: 'x', seed: 1, games: 10, learningRate: 0.25, starts: { weights: 'nope', depth: 1, maxTile: 8192, positions: 10, share: 0.5 } }));
    const out = join(dir(), 'out.bin');
    if (args[1] === 'resume') expect(runCli(['learn', 'start', '-c', config(10, 5), '--db', db]).code).toBe(0);
    const r = runCli(args.map((a) => (a === 'CONFIG' ? bad : a === 'STARTS' ? starts : a === 'DB' ? db : a === 'OUT' ? out : a)));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
    if (args[1] !== 'resume') expect(existsSync(db)).toBe(false);
  });
});
