/**
 * The CLI under the things users do to it: signals, closed pipes, killed and
 * paused processes, unwritable or damaged databases, bad paths and bad input.
 * Every wait is for an event (a stored row, a line, a process gone), never a time.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../src/cli/main';
import { parseConfig } from '../src/tuner/config/config';
import { alive, ROOT, runCli, startCli, waitFor, waitForOutput, workersOf } from './helpers/cli';
import { dumpRun, gamesIn, peek, SLOW, SMOKE, tempDb, tuneToEnd, writeConfig } from './helpers/runs';


/** An error's stack trace, or a worker's "write EPIPE": what a user must never see. */
const STACK_TRACE = /EPIPE|\n\s+at .+:\d+:\d+/;


const runRow = (db: string) => peek<{ status: string; owner_pid: number | null; error: string | null }>(db, 'SELECT status, owner_pid, error FROM runs WHERE id = 1');

/** A finished smoke run in a fresh database. */
function finishedDb(): string {
  const db = tempDb();
  expect(runCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).code).toBe(0);
  return db;
}

describe('signals, pipes and processes', () => {
  it('tune | head -2: a closed stdout ends the run quietly, stored as stopped, and resume finishes it', async () => {
    const db = tempDb();
    const run = startCli(['tune', '-c', writeConfig(SLOW), '--db', db, '--workers', '2']);
    await waitForOutput(run, 'stdout', /generation 0 .*\n/);
    run.child.stdout!.destroy(); // what head does after its lines
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(runRow(db)).toMatchObject({ status: 'stopped', owner_pid: null });
    expect(runCli(['resume', '1', '--db', db]).code).toBe(0);
    expect(runRow(db)?.status).toBe('finished');
  });

  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)('%s twice to compare stops its workers with it', async (signal) => {
    // Depth-3 games in batches of 10: a batch takes far longer than the test waits for anything. The first
    // signal waits for the running batches (as a tune does); the second leaves at once.
    const run = startCli(['compare', 'nneonneo', 'snake3', '-n', '200', '-d', '3', '--workers', '2']);
    const pid = run.child.pid!;
    await waitFor(() => workersOf(pid).length === 2);
    const workers = workersOf(pid);
    run.child.kill(signal);
    await waitForOutput(run, 'stderr', /stopping: waiting for 2 running batch\(es\) to finish \(Ctrl-C again to quit at once\)/);
    run.child.kill(signal);
    const r = await run.done;
    expect(r.stderr).toContain('stopped at once; its games were not kept (no --db)');
    expect(r.code).toBe(130);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    // Its exit SIGKILLs them; on a loaded machine the kill may land a moment after the parent is gone.
    await waitFor(() => workers.filter(alive).length === 0, 30_000);
  });

  it('kill -9 of the parent: its workers notice and exit without a stack trace', async () => {
    const run = startCli(['compare', 'nneonneo', 'snake3', '-n', '200', '-d', '3', '--workers', '2']);
    const pid = run.child.pid!;
    await waitFor(() => workersOf(pid).length === 2);
    const workers = workersOf(pid);
    run.child.kill('SIGKILL');
    const r = await run.done; // the workers hold the stderr pipe: it closes when they are gone
    expect(workers.filter(alive)).toEqual([]);
    expect(r.stderr).not.toMatch(STACK_TRACE);
  });

  it('a worker whose parent was killed while it was still starting notices it too (the pid it watches comes from the parent, not from process.ppid)', () => {
    // parentGone looks at most every 200 ms: the script waits that out before it asks.
    const script = `const { parentGone } = require(${JSON.stringify(join(ROOT, 'dist', 'runner', 'parent.js'))}); for (const t = Date.now(); Date.now() - t < 250; ); console.log(parentGone());`;
    const asks = (parent: number) => execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TUNE2048_PARENT_PID: String(parent) }, encoding: 'utf8' }).trim();
    expect(asks(process.pid)).toBe('false'); // its parent, alive
    expect(asks(2 ** 22 + 1)).toBe('true'); // not its parent (above Linux's largest pid): already re-parented
  });

  it('double Ctrl-C: leaves at once, the run stored as stopped with no owner, workers gone', async () => {
    const db = tempDb();
    const run = startCli(['tune', '-c', writeConfig(SLOW), '--db', db, '--workers', '2']);
    await waitFor(() => gamesIn(db) >= 4);
    run.child.kill('SIGINT');
    await waitForOutput(run, 'stderr', /stopping/);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(new RegExp(`resume it with: tune2048 resume 1 --db ${db}`));
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(runRow(db)).toMatchObject({ status: 'stopped', owner_pid: null });
  });

  it('a generation stopped and resumed an hour later: show counts its play, not the hour between', async () => {
    const db = tempDb();
    const config = { ...SLOW, optimizer: { ...SLOW.optimizer, generations: 2 } };
    const run = startCli(['tune', '-c', writeConfig(config), '--db', db, '--workers', '1']);
    await waitFor(() => gamesIn(db) >= 4);
    run.child.kill('SIGINT');
    expect((await run.done).code).toBe(130);
    // The stop moved an hour into the past: the open generation began, and the run was let go, an hour earlier.
    const conn = new Database(db);
    const hour = 3_600_000;
    const open = conn.prepare("SELECT idx FROM generations WHERE run_id = 1 AND status = 'open'").get() as { idx: number };
    conn.prepare('UPDATE generations SET started_at = started_at - ? WHERE run_id = 1 AND idx = ?').run(hour, open.idx);
    conn.prepare('UPDATE runs SET heartbeat_at = heartbeat_at - ? WHERE id = 1').run(hour);
    conn.close();
    expect(runCli(['resume', '1', '--db', db, '--workers', '1']).code).toBe(0);
    const shown = JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout) as { generations: { generation: number; seconds: number }[] };
    const resumed = shown.generations.find((g) => g.generation === open.idx)!;
    expect(resumed.seconds).toBeGreaterThan(0);
    expect(resumed.seconds).toBeLessThan(3600);
  });

  it('a worker killed mid-run: the run finishes and the tuner exits at once (no 600 s batch timer left)', async () => {
    const db = tempDb();
    const config = { ...SLOW, optimizer: { ...SLOW.optimizer, generations: 3 }, pool: { batchGames: 2, batchTimeoutSec: 600 } };
    const run = startCli(['tune', '-c', writeConfig(config), '--db', db, '--workers', '2']);
    const pid = run.child.pid!;
    await waitFor(() => workersOf(pid).length === 2 && gamesIn(db) >= 2);
    process.kill(workersOf(pid)[0], 'SIGKILL');
    const r = await run.done; // with the bug, this waits out the 600 s timer (the test's own limit is 300 s)
    expect(r.code).toBe(0);
    expect(runRow(db)?.status).toBe('finished');
  });

  it('a player slower than the batch time limit: the run fails in one line whose hint resumes it with a longer limit; resumed so, it is the run a long limit plays', () => {
    // Games that sleep 100 ms, two a batch: no machine plays a batch within 50 ms, whatever its load.
    const slow = (batchTimeoutSec: number) => ({
      ...SMOKE,
      optimizer: { kind: 'ga', population: 4, generations: 2 },
      fitness: { games: 2, player: 'synthetic', synthetic: { optimum: { empty: 900, merges: 400, monotonicity: 30 }, width: 1, gameMs: 100 } },
      validation: { finalists: 1, games: 2 },
      pool: { batchGames: 2, batchTimeoutSec, retries: 1 },
    });
    const db = tempDb();
    const failed = runCli(['tune', '-c', writeConfig(slow(0.05)), '--db', db, '--workers', '2']);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n').at(-1)).toBe(
      `tune2048: run 1 failed: the worker running a batch was killed 2 time(s) for running past 50 ms or died, 2 times; giving up; finished games are stored; a slow player or a busy machine needs a longer batch time limit: tune2048 resume 1 --batch-timeout 1 --db ${db}`,
    );
    expect(runRow(db)?.status).toBe('failed');
    expect(runCli(['resume', '1', '--db', db, '--batch-timeout', '0']).stderr).toMatch(/--batch-timeout must be a number from 1 to 86400, got "0"/);
    const resumed = runCli(['resume', '1', '--db', db, '--batch-timeout', '600']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const reference = tempDb();
    expect(runCli(['tune', '-c', writeConfig(slow(600)), '--db', reference, '--workers', '2']).code).toBe(0);
    const { run, ...rest } = dumpRun(db, 1);
    const { run: refRun, ...refRest } = dumpRun(reference, 1);
    expect(rest).toEqual(refRest); // the config differs in its time limit only
    expect(run).toMatchObject({ status: 'finished', best_candidate: (refRun as { best_candidate: number }).best_candidate });
  });

  it('a paused holder taken over stops with a clear message when continued; the new holder finishes the same run', async () => {
    const reference = tempDb();
    const straight = await tuneToEnd(reference, parseConfig(SLOW), { workers: 1 });
    const db = tempDb();
    const first = startCli(['tune', '-c', writeConfig(SLOW), '--db', db, '--workers', '2', '--name', 'test']);
    await waitFor(() => gamesIn(db) >= 4);
    first.child.kill('SIGSTOP');
    // As if its heartbeat had gone stale while it was suspended (Ctrl-Z) for over a minute.
    const conn = new Database(db);
    conn.prepare('UPDATE runs SET heartbeat_at = 0 WHERE id = 1').run();
    conn.close();
    const second = startCli(['resume', '1', '--db', db, '--workers', '2']);
    await waitFor(() => peek<{ owner_pid: number }>(db, 'SELECT owner_pid FROM runs WHERE id = 1')?.owner_pid === second.child.pid);
    first.child.kill('SIGCONT');
    const r1 = await first.done;
    expect(r1.code).toBe(3);
    expect(r1.stderr).toMatch(new RegExp(`run 1 was taken over by pid ${second.child.pid}`));
    const r2 = await second.done;
    expect(r2.code).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(reference, straight.id));
  });
});

describe('storage and files', () => {
  it('--db that is a folder: exit 2 naming it, for writers and readers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-dir-'));
    for (const args of [['tune', '-c', writeConfig(SMOKE)], ['runs'], ['show', '1']]) {
      const r = runCli([...args, '--db', dir]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`tune2048: database "${dir}" is a folder, not a file`);
    }
  });

  it('a config with an unknown parameter creates nothing', () => {
    const db = join(mkdtempSync(join(tmpdir(), 'tune2048-db-')), 'sub', 'new.sqlite');
    const r = runCli(['tune', '-c', writeConfig({ ...SMOKE, space: { start: 'nneonneo', params: { emptyness: { min: 0, max: 1 } } } }), '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/emptyness/);
    expect(existsSync(join(db, '..'))).toBe(false);
  });

  it('reading an empty file writes nothing into it', () => {
    const db = tempDb();
    writeFileSync(db, '');
    const r = runCli(['runs', '--db', db]);
    expect(r).toMatchObject({ code: 0, stdout: 'no runs\n' });
    expect(statSync(db).size).toBe(0);
    expect(runCli(['show', '1', '--db', db]).code).toBe(2);
    expect(readdirSync(join(db, '..'))).toEqual(['test.sqlite']);
  });

  it('a damaged database is refused by every command, with exit 2 naming the file', () => {
    const db = finishedDb();
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 3); // overwrite a page of the games table
    closeSync(fd);
    for (const args of [['runs'], ['show', '1'], ['export', '1'], ['report', '1', '--out', join(tmpdir(), 'r.html')], ['resume', '1'], ['tune', '-c', writeConfig(SMOKE)]]) {
      const r = runCli([...args, '--db', db]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`"${db}" is damaged`));
    }
  });

  it('export --out into a folder or a missing folder: exit 2 with a clear message', () => {
    const db = finishedDb();
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-out-'));
    expect(runCli(['export', '1', '--db', db, '--out', dir]).stderr.trim()).toBe(`tune2048: --out "${dir}" is a folder; name a file inside it`);
    const missing = runCli(['export', '1', '--db', db, '--out', join(dir, 'no', 'w.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the folder ".*no" does not exist/);
  });

  it('every printed hint works as printed (it carries --db)', () => {
    const db = tempDb();
    const r = runCli(['tune', '-c', writeConfig(SMOKE), '--db', db]);
    const hint = r.stdout.match(/export it with: (tune2048 .*)$/m)![1];
    expect(hint).toBe(`tune2048 export 1 --out tuned.json --db ${db}`);
    const out = join(mkdtempSync(join(tmpdir(), 'tune2048-w-')), 'tuned.json');
    const args = hint.split(' ').slice(1).map((a) => (a === 'tuned.json' ? out : a));
    expect(runCli(args).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).provenance.run).toBe(1);
  });

  it('export of a running run says it is running, not "resume"', async () => {
    const db = tempDb();
    const run = startCli(['tune', '-c', writeConfig(SLOW), '--db', db, '--workers', '1']);
    await waitFor(() => gamesIn(db) >= 2);
    const r = runCli(['export', '1', '--db', db]);
    run.child.kill('SIGKILL');
    await run.done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`run 1 is still running \\(held by pid ${run.child.pid}`));
  });

  it('compare --db F --run 999 is refused before any game is played', () => {
    const db = finishedDb();
    const r = runCli(['compare', 'nneonneo', 'snake3', '-n', '100000', '-d', '3', '--db', db, '--run', '999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no run 999 in/);
  });

  describe.runIf(process.getuid?.() === 0)('as an unprivileged user (run as "nobody")', () => {
    const asNobody = { uid: 65534, gid: 65534, env: { ...process.env, HOME: tmpdir() } };
    const openDir = () => {
      const dir = mkdtempSync(join(tmpdir(), 'tune2048-ro-'));
      chmodSync(dir, 0o755);
      return dir;
    };

    it('read-only commands work on a read-only file in a read-only folder, and leave nothing behind', () => {
      const dir = openDir();
      const db = join(dir, 'runs.sqlite');
      expect(runCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).code).toBe(0);
      chmodSync(db, 0o444);
      chmodSync(dir, 0o555);
      for (const args of [['runs'], ['show', '1'], ['export', '1']]) {
        const r = runCli([...args, '--db', db], asNobody);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      }
      expect(readdirSync(dir)).toEqual(['runs.sqlite']);
    });

    it('a read-only file: reads work, leave no -wal/-shm, and a writer is refused with the path and the reason', () => {
      const dir = openDir();
      const db = join(dir, 'runs.sqlite');
      expect(runCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).code).toBe(0);
      chmodSync(db, 0o444);
      chmodSync(dir, 0o777);
      expect(runCli(['runs', '--db', db], asNobody).code).toBe(0);
      expect(readdirSync(dir)).toEqual(['runs.sqlite']);
      const w = runCli(['resume', '1', '--db', db], asNobody);
      expect(w.code).toBe(2);
      expect(w.stderr.trim()).toBe(`tune2048: cannot write database "${db}": the database is not writable (permission denied)`);
      // The export error is the real one, not a masked "readonly database".
      const e = runCli(['export', '1', '--db', db, '--out', join(dir, 'sub-none', 'x.json')], asNobody);
      expect(e.stderr).toMatch(/the folder .* does not exist/);
    });

    it('a new database in an unwritable folder: exit 2 with the path and the reason, nothing created', () => {
      const dir = openDir();
      chmodSync(dir, 0o555);
      const db = join(dir, 'new.sqlite');
      const r = runCli(['tune', '-c', writeConfig(SMOKE), '--db', db], asNobody);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`tune2048: cannot write database "${db}": its folder is not writable (permission denied)`);
      expect(readdirSync(dir)).toEqual([]);
    });
  });
});

describe('honest numbers and clear errors', () => {
  it('runs shows the validated best beside the in-sample one, with start time and duration; show says which is which', () => {
    const db = finishedDb();
    const [run] = JSON.parse(runCli(['runs', '--db', db, '--json']).stdout);
    const best = peek<{ validation: number; fitness: number }>(db, 'SELECT c.validation, c.fitness FROM candidates c JOIN runs r ON r.best_candidate = c.id');
    expect(run.validatedBest).toBe(best!.validation);
    expect(run.bestFitnessInSample).toBe(peek<{ m: number }>(db, 'SELECT max(fitness) AS m FROM candidates')!.m);
    expect(Date.parse(run.startedAt)).toBeGreaterThan(0);
    expect(run.seconds).toBeGreaterThanOrEqual(0);
    const text = runCli(['runs', '--db', db]).stdout;
    expect(text).toMatch(/validated best\s+best in-sample/);
    expect(runCli(['show', '1', '--db', db]).stdout).toMatch(/validated best: candidate \d+ \(generation 2\): [\d.]+ on held-out games/);
  });

  it('one numbering of generations: progress and stdout agree', () => {
    const r = runCli(['tune', '-c', writeConfig(SMOKE), '--db', tempDb()]);
    expect(r.stdout).toMatch(/^generation 2 \(3 of 3\): best/m);
    expect(r.stderr).not.toMatch(/gen \d+\/\d+/);
  });

  it.each([
    [['hint', '2 4 0/0 0 0 0 0/0 0 0 0/0 0 0 2'], /row 1 has 3 tile values, a board has 4 per row/],
    [['hint', '-2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 2'], /bad board: "-2" is not a tile value/],
    [['sweep', 'nneonneo', '--depths', '1,x'], /--depths must be "auto" or an integer/],
    [['play', '-w', 'overflow'], /field "alive": its term of the heuristic overflows/],
  ])('%j: one line naming the real problem, exit 2', (args, message) => {
    let argv = args as string[];
    if (argv.includes('overflow')) {
      const path = join(mkdtempSync(join(tmpdir(), 'tune2048-w-')), 'big.json');
      writeFileSync(path, JSON.stringify({ format: 'tune2048/weights', version: 1, alive: 1.7e308 }));
      argv = ['play', '-w', path];
    }
    const r = runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('Ctrl-C stops play in one process mid-game (a depth-4 game takes minutes), with and without threads', async () => {
    for (const threads of [[], ['--threads', '2']]) {
      const run = startCli(['play', '-d', '4', '-n', '1', '-s', '8', ...threads], { env: { ...process.env, TUNE2048_PROGRESS: 'every' } });
      await waitForOutput(run, 'stderr', /games \[/); // the progress bar's first line: the game has started
      run.child.kill('SIGINT');
      const r = await run.done;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/interrupted \(SIGINT\)/);
      expect(r.stdout).not.toMatch(/game 1/); // it did not wait for the game to end
    }
  });

  it("every error is one tune2048 line naming what is at fault: the argument parser's own, a missing file, a mistyped config name, file or key (with the likely one), a player file's stale network", () => {
    const line = (args: string[]) => {
      const r = runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      return r.stderr.trim();
    };
    expect(line(['export', '1', '--max-cost', '3', '--max-ms-per-move', '2'])).toBe('tune2048: --max-cost and --max-ms-per-move exclude each other: give one of them');
    expect(line(['play', '--wieghts', 'nneonneo'])).toBe('tune2048: unknown option --wieghts (did you mean --weights?)');
    expect(line(['play', 'my', 'net.bin'])).toMatch(/^tune2048: too many arguments for 'play'.* \(a path with spaces goes in quotes\)$/);
    expect(line(['show'])).toBe('tune2048: the argument <run> is missing');
    expect(line(['play', '-n'])).toBe('tune2048: --games needs a value');
    expect(line(['export', '1', '--max-cost', '-1'])).toBe('tune2048: --max-cost must be a number, 0 or more, got "-1"');
    expect(line(['tune', '-c', 'front-heurstic'])).toBe('tune2048: no config file "front-heurstic" here and no shipped tuning config of that name (did you mean "front-heuristic"?)');
    expect(line(['tune', '-c', 'configs/quik.json'])).toBe('tune2048: cannot read config file "configs/quik.json": no such file or folder (did you mean "configs/quick.json"?)');
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-typo-'));
    const typo = join(dir, 'typo.json');
    const smoke = JSON.parse(readFileSync(join(ROOT, 'configs', 'smoke.json'), 'utf8'));
    writeFileSync(typo, JSON.stringify({ ...smoke, optimizer: { ...smoke.optimizer, generatons: 3 } }));
    expect(line(['tune', '-c', typo, '--db', join(dir, 'x.sqlite')])).toBe(`tune2048: config "${typo}": field "optimizer": unknown key(s) "generatons" (did you mean "generations"?)`);
    writeFileSync(typo, JSON.stringify({ ...JSON.parse(readFileSync(join(ROOT, 'configs', 'learn-ntuple-small.json'), 'utf8')), gmes: 3 }));
    expect(line(['learn', 'start', '-c', typo, '--db', join(dir, 'x.sqlite')])).toBe(`tune2048: learning config "${typo}": top level: unknown key(s) "gmes" (did you mean "games"?)`);
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
    const player = join(dir, 'player.json');
    writeFileSync(player, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: join(dir, 'moved.bin'), sha256: 'a'.repeat(64) } }));
    expect(line(['play', '--player', `network:${player}`, '-n', '1'])).toBe(`tune2048: network player file "${player}": its network: cannot read network file "${join(dir, 'moved.bin')}": no such file or folder`);
  });

  it('usage errors of subcommands exit 2 like every other; hints name the database given; a database of learning runs says so', () => {
    for (const args of [['learn', 'start'], ['learn', 'export', '1'], ['learn', 'player-file', 'x.bin']]) {
      const r = runCli(args);
      expect([r.code, r.stderr.trim()], args.join(' ')).toEqual([2, expect.stringMatching(/^tune2048: --(config|out) is required$/)]);
    }
    const learning = tempDb();
    const config = join(mkdtempSync(join(tmpdir(), 'tune2048-learn-')), 'tiny.json');
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(join(ROOT, 'configs', 'learn-ntuple-small.json'), 'utf8')), games: 20, checkpointEvery: 20, heldOut: { games: 2, seed: 1 } }));
    const started = runCli(['learn', 'start', '-c', config, '--db', learning]);
    expect(started.code, started.stderr).toBe(0);
    const show = runCli(['show', '1', '--db', learning]);
    expect([show.code, show.stderr.trim()]).toEqual([2, `tune2048: no run 1 in "${learning}" (it holds 1 learning run: see "tune2048 learn show --db ${learning}")`]);
    expect(runCli(['runs', '--db', learning]).stdout.trim()).toBe(`no tuning runs; 1 learning run: tune2048 learn show --db ${learning}`);
    const tuning = tempDb();
    expect(runCli(['tune', '-c', 'smoke', '--db', tuning, '--workers', '1']).code).toBe(0);
    expect(runCli(['show', '9', '--db', tuning]).stderr.trim()).toBe(`tune2048: no run 9 in "${tuning}" (see "tune2048 runs --db ${tuning}")`);
  });

  it.each([
    ['hint at depth 7 (minutes for one board)', ['hint', '-d', '7', '--cprob', '0', '2 4 8 16/0 0 0 2/0 0 0 0/0 0 0 0'], /still searching/, 'SIGINT'],
    ['hint, SIGTERM', ['hint', '-d', '7', '--cprob', '0', '2 4 8 16/0 0 0 2/0 0 0 0/0 0 0 0'], /still searching/, 'SIGTERM'],
    ['bench (every figure in one call)', ['bench', '--passes', '50', '--games', '500'], /bench: engine moves/, 'SIGINT'],
    ['solve (a breadth-first search of millions of nodes)', ['solve', '--target', '2048', '--strategy', 'bfs', '--max-nodes', '100000000'], /still searching/, 'SIGTERM'],
  ] as const)('%s: a stop in the middle of its one long search ends it at once, exit 130', async (_, args, started, signal) => {
    const run = startCli([...args]);
    await waitForOutput(run, 'stderr', started);
    run.child.kill(signal);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(`interrupted (${signal})`);
    expect(r.stdout).toBe(''); // it did not wait for the search to end
  });

  it('hint searches a shallow board in its own thread (no second Node instance to start) and a deep one in a worker thread (the stop above)', () => {
    // A preload that counts the worker threads the command starts and the modules it loads.
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-hint-threads-'));
    const preload = join(dir, 'count.cjs');
    writeFileSync(preload, `const wt = require('node:worker_threads'); let n = 0; const W = wt.Worker;
wt.Worker = class extends W { constructor(...a) { super(...a); n++; } };
process.on('exit', () => process.stderr.write('threads ' + n + ' cli-progress ' + Object.keys(require.cache).some((f) => f.includes('cli-progress')) + '\\n'));`);
    const hint = (args: string[]) => runCli(['hint', ...args, '2 4 8 16/0 0 0 2/0 0 0 0/0 0 0 0'], { env: { ...process.env, NODE_OPTIONS: `--require ${preload}` } });
    const counted = (r: ReturnType<typeof hint>) => r.stderr.match(/threads (\d+) cli-progress (\w+)/)!.slice(1);
    const shallow = [hint(['-d', '1']), hint(['-d', '2', '--player', 'minimax'])];
    for (const r of shallow) {
      expect(r.code, r.stderr).toBe(0);
      expect(counted(r)).toEqual(['0', 'false']);
    }
    // The same answer either way: the board's values from a worker thread (depth 1 within a time per move).
    const threaded = hint(['-d', '1', '--ms-per-move', '1000', '--json']);
    expect(counted(threaded)).toEqual(['1', 'false']);
    const inProcess = hint(['-d', '1', '--json']);
    expect(JSON.parse(inProcess.stdout).moves).toEqual(JSON.parse(threaded.stdout).moves);
  });

  it('Ctrl-C stops a benchmark as it stops a tune; the command it prints goes on to the uninterrupted result', async () => {
    const args = (db: string) => ['benchmark', '-c', writeConfig(SLOW), '--optimizers', 'ga', '--seeds', '1,2', '--budget', '150', '--checkpoints', '2', '--holdout', '6', '--db', db, '--json'];
    const whole = runCli(args(tempDb()));
    expect(whole.code, whole.stderr).toBe(0);
    const db = tempDb();
    const run = startCli(args(db));
    // The first generation of the first run is stored: stop there.
    await waitFor(() => (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM generations WHERE status = \'done\'')?.n ?? 0) > 0);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stderr).toMatch(/stopping the benchmark: waiting for \d+ running batch\(es\)/);
    const hint = r.stderr.match(/benchmark stopped; what finished is stored; go on with: tune2048 (.*)$/m);
    expect(hint, r.stderr).not.toBeNull();
    // No run is left "running" under a dead holder (the run stopped, or had just finished).
    expect(peek<{ n: number }>(db, "SELECT count(*) AS n FROM runs WHERE status = 'running'")?.n).toBe(0);
    // The hint as a shell reads it.
    const words = execFileSync('sh', ['-c', `printf '%s\\n' ${hint![1]}`], { encoding: 'utf8' }).trimEnd().split('\n');
    const again = runCli(words);
    expect(again.code, again.stderr).toBe(0);
    const summary = (out: string) => JSON.parse(out).summary.map(({ seconds: _s, ...rest }: { seconds: number }) => rest);
    expect(summary(again.stdout)).toEqual(summary(whole.stdout));
  });

  it('the optimizer benchmark shows progress with an ETA and as many checkpoints as asked (under its former name "race" too, which says so)', () => {
    const r = runCli(['race', '-c', writeConfig(SMOKE), '--optimizers', 'ga', '--seeds', '1', '--budget', '100', '--checkpoints', '2', '--holdout', '4', '--db', tempDb(), '--json'], { env: { ...process.env, TUNE2048_PROGRESS: 'every' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^tune2048: "race" is now "benchmark" \(race still works\)$/m);
    expect(r.stderr).toMatch(/benchmark \[.*\] \d+\/\d+ games.*ETA/);
    const out = JSON.parse(r.stdout);
    expect(out.runs[0].points).toHaveLength(2);
  });
});

describe('small things users asked for', () => {
  it('presets lists every preset with its description; --json gives the weights', () => {
    const text = runCli(['presets']).stdout;
    expect(text).toMatch(/^nneonneo\s+The CMA-ES-tuned heuristic of nneonneo/m);
    const json = JSON.parse(runCli(['presets', '--json']).stdout);
    expect(json.find((p: { preset: string }) => p.preset === 'snake3')).toMatchObject({ format: 'tune2048/weights', matrixOn: 'value' });
  });

  it('hint prints the board as a grid by default and one line with --json', () => {
    const board = '2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 2';
    expect(runCli(['hint', '-d', '1', board]).stdout.split('\n').slice(0, 4)).toEqual(['     2     4     .     .', '     .     .     .     .', '     .     .     .     .', '     .     .     .     2']);
    const json = runCli(['hint', '-d', '1', '--json', board]).stdout;
    expect(json.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json).board).toBe(board);
  });

  it('play --workers 2 plays the same games as one process', () => {
    const one = JSON.parse(runCli(['play', '-n', '6', '-d', '1', '--json']).stdout);
    const two = JSON.parse(runCli(['play', '-n', '6', '-d', '1', '--workers', '2', '--json']).stdout);
    const strip = (g: { ms: number }[]) => g.map(({ ms: _ms, ...rest }) => rest);
    expect(strip(two.games)).toEqual(strip(one.games));
  });

  it('export --json and report --json print one object', () => {
    const db = finishedDb();
    const e = JSON.parse(runCli(['export', '1', '--db', db, '--json']).stdout);
    expect(e).toMatchObject({ run: 1, out: null, weights: { format: 'tune2048/weights' } });
    const out = join(mkdtempSync(join(tmpdir(), 'tune2048-r-')), 'r.html');
    const r = JSON.parse(runCli(['report', '1', '--db', db, '--out', out, '--json']).stdout);
    expect(r).toMatchObject({ run: 1, out });
    expect(r.bytes).toBe(statSync(out).size);
  });

  it('every command has --help, and the top-level help lists them all without loading them', () => {
    const top = runCli(['--help']);
    expect(top.code).toBe(0);
    for (const name of Object.keys(COMMANDS)) {
      expect(top.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
      const r = runCli([name, '--help']);
      expect(r.code, name).toBe(0);
      // A renamed command shows its former name beside it (benchmark|race).
      expect(r.stdout).toMatch(new RegExp(`^Usage: tune2048 ${name}(\\|\\w+)* `, 'm'));
    }
  });

  it('--version prints the version, the hashes of the WebAssembly builds games depend on, and Node\'s version', () => {
    const r = runCli(['--version']);
    expect(r.code).toBe(0);
    const hash = (file: string) => createHash('sha256').update(readFileSync(join(__dirname, '..', 'build', file))).digest('hex').slice(0, 12);
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(r.stdout.trim().split('\n')).toEqual([`tune2048 ${version}`, `search build ${hash('search.wasm')}, learning build ${hash('learn.wasm')}`, `Node ${process.version}`]);
  });

  it('no weights file cites a path outside the repository', () => {
    const dir = join(__dirname, '..', 'configs', 'weights');
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(/\.\.\//);
  });
});

