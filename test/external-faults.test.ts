/**
 * External players through the CLI when things go wrong, and a user's own players: a faulty program's run fails
 * with one line and resumes once the program is fixed; a changed version, a nondeterministic or missing program
 * refused; no program outlives tune2048; players found in ./configs/players and $TUNE2048_PLAYERS, their
 * parameter files contenders alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, startCli, waitFor, waitForOutput } from './helpers/cli';
import { gamesIn, peek, tempDb, writeConfig } from './helpers/runs';
import { FIXTURE, fixture, processesWith, tuning } from './helpers/external';

/** A tune of a copy of the fixture in slow mode (a program the test may then edit), on `workers` workers. */
function tuneCopiedFixture(label: string, workers: number) {
  const folder = mkdtempSync(join(tmpdir(), `tune2048-${label}-`));
  const copy = join(folder, 'fixture-player.js');
  writeFileSync(copy, readFileSync(FIXTURE));
  const db = tempDb();
  const run = startCli(['tune', '-c', writeConfig(tuning({ kind: 'external', name: 'fixture', command: [process.execPath, copy, 'slow'] })), '--db', db, '--workers', String(workers)]);
  return { folder, copy, db, run };
}

describe('faults of a program during a run', () => {
  it('a crash mid-run fails the run with one line; the fixed program resumes it', () => {
    const db = tempDb();
    const config = writeConfig(tuning(fixture('crash-in-game', { nondeterministic: 'refuse' }), { optimizer: { population: 4, generations: 3, elitism: 1, tournament: 2 } }));
    // crash-in-game 5: each program crashes in its 5th game (the start's replay check plays 2).
    const failed = runCli(['tune', '-c', config, '--db', db, '--workers', '2'], { env: { ...process.env, FIXTURE_MODE: 'crash-in-game' } });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^tune2048: run 1 failed: player fixture exited on SIGSEGV in the game of seed \d+ at board 10; finished games are stored, resume with: tune2048 resume 1 --db /m);
    const stored = gamesIn(db);
    const resumed = runCli(['resume', '1', '--db', db], { env: { ...process.env, FIXTURE_MODE: 'good' } });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(gamesIn(db)).toBeGreaterThan(stored);
  });

  it('a compare without --db that fails says the games that finished were not kept, and the flag that keeps them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-nodb-'));
    const file = join(dir, 'crash.json');
    writeFileSync(file, JSON.stringify({ format: 'tune2048/player', name: 'fixture', command: [process.execPath, FIXTURE, 'crash-in-game', '5'] }));
    const r = runCli(['compare', `external:${file}`, 'nneonneo', '-n', '12', '-d', '0', '--workers', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^tune2048: player fixture exited on SIGSEGV .*; the \d+ games that finished were not kept \(no --db\): run it again with --db FILE to keep every finished batch, and the same command then goes on from them$/m);
  });

  it('a program whose version changed is refused on resume, naming both versions, and the run is left as it was', async () => {
    const db = tempDb();
    const run = startCli(['tune', '-c', writeConfig(tuning(fixture('slow'))), '--db', db, '--workers', '2']);
    await waitFor(() => gamesIn(db) >= 4);
    run.child.kill('SIGKILL');
    await run.done;
    const stored = gamesIn(db);
    const resumed = runCli(['resume', '1', '--db', db], { env: { ...process.env, FIXTURE_VERSION: '2' } });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr.trim().split('\n')).toHaveLength(1);
    expect(resumed.stderr).toMatch(/^tune2048: run 1: player fixture now announces version 2 \(hash [0-9a-f]{16}\), not the version 1 the run began with \(hash [0-9a-f]{16}\): its games would mix two programs; put the old one back, accept the change with: tune2048 resume 1 --db \S+ --accept-changed \(recorded in the run; its games before and after mix\), or a new run of the changed program: tune2048 tune -c CONFIG --db /);
    expect(peek<{ status: string }>(db, 'SELECT status FROM runs WHERE id = 1')?.status).not.toBe('failed');
    expect(gamesIn(db)).toBe(stored);
  });

  it('a program changed under the same version line is refused on resume (the files its command names), and never plays a game of the run', async () => {
    const { folder, copy, db, run } = tuneCopiedFixture('changed', 2);
    await waitFor(() => gamesIn(db) >= 4);
    run.child.kill('SIGKILL');
    await run.done;
    const stored = gamesIn(db);
    // The author edits the program, its version line unchanged.
    writeFileSync(copy, readFileSync(FIXTURE, 'utf8') + '\n// an edit\n');
    const resumed = runCli(['resume', '1', '--db', db]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr.trim()).toMatch(/^tune2048: run 1: player fixture's program changed since the run began \(the files its command names, .*fixture-player\.js slow in .*, hash [0-9a-f]{16} now, [0-9a-f]{16} then; its version line says 1 still\): its games would mix two programs/);
    expect(gamesIn(db)).toBe(stored);
    // The author means it: the run goes on with the changed program, the change recorded where the run's figures are read.
    // (FIXTURE_MODE: the same files, its fast moves: the rest of the run in seconds.)
    const accepted = runCli(['resume', '1', '--db', db, '--accept-changed'], { env: { ...process.env, FIXTURE_MODE: 'good' } });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toMatch(new RegExp(`^tune2048: run 1: player fixture changed after ${stored} of the run's games, in generation \\d+ \\(its games may be of both\\) \\(version 1, program hash ([0-9a-f]{16}) → (?!\\1)[0-9a-f]{16}\\), accepted on .* with --accept-changed: the games before and after are of two programs; recorded in the run \\(show 1 lists it\\)$`, 'm'));
    expect(gamesIn(db)).toBeGreaterThan(stored);
    const shown = runCli(['show', '1', '--db', db]);
    expect(shown.stdout).toMatch(new RegExp(`^player fixture changed after ${stored} of the run's games`, 'm'));
    const [change] = JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout).run.programChanges;
    expect(change).toMatchObject({ games: stored, generation: expect.any(Number), before: { version: '1' }, after: { version: '1' } });
    // Nothing to accept, or no program at all: said, not silently ignored.
    expect(runCli(['resume', '1', '--db', db, '--accept-changed']).stderr).toMatch(/run 1 is already finished/);
    const out = join(folder, 'params.json');
    expect(runCli(['export', '1', '--db', db, '--out', out]).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).provenance.programChanges).toEqual([change]);
  });

  it('--accept-changed records nothing while another process holds the run (exit 3), and changes of parameters are refused naming them', async () => {
    const { copy, db, run } = tuneCopiedFixture('held', 1);
    await waitFor(() => gamesIn(db) >= 2);
    writeFileSync(copy, readFileSync(FIXTURE, 'utf8') + '\n// an edit\n');
    const held = runCli(['resume', '1', '--db', db, '--accept-changed']);
    expect(held.code, held.stderr).toBe(3);
    expect(held.stderr).not.toMatch(/accepted/);
    run.child.kill('SIGKILL');
    await run.done;
    expect(JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout).run.programChanges).toBeUndefined();
    // A program that now announces another range for a parameter: the run's space no longer fits it.
    writeFileSync(copy, readFileSync(FIXTURE, 'utf8').replace("out('param bias 0 -1 1');", "out('param bias 0 -1 5');"));
    const other = runCli(['resume', '1', '--db', db, '--accept-changed']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/, and its parameter bias is now -1…5 \(linear\), not -1…1 \(linear\), so the run's space no longer fits it: --accept-changed cannot go on with it/);
  });

  it('a program that is not deterministic is refused before anything is created, or tuned with a warning', () => {
    const db = tempDb();
    const refused = runCli(['tune', '-c', writeConfig(tuning(fixture('random'))), '--db', db]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toMatch(/^tune2048: player fixture played seed \d+ twice and chose differently at move \d+: its games are not a function of the seed \(set fitness.player.nondeterministic to "warn" to tune it anyway\)$/);
    expect(existsSync(db)).toBe(false);
    const warned = runCli(['tune', '-c', writeConfig(tuning(fixture('random', { nondeterministic: 'warn' }), { optimizer: { population: 2, generations: 1, elitism: 0, tournament: 1 } })), '--db', db]);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toMatch(/warning: player fixture played seed \d+ twice and chose differently/);
  });

  it.each(['depth', 'cprob', 'iterations'])('a config that sets tune2048\'s own search (fitness.%s) for an external player is refused: it would do nothing (one line, exit 2, no database)', (key) => {
    const db = tempDb();
    const config = tuning(fixture());
    const r = runCli(['tune', '-c', writeConfig({ ...config, fitness: { ...config.fitness, [key]: key === 'cprob' ? 0.01 : 3 } }), '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`field "fitness\\.${key}": sets tune2048's own search, and an external player searches as its program decides, so it would do nothing: remove it`));
    expect(existsSync(db)).toBe(false);
  });

  it('a program that is not there: one line, exit 2, no database', () => {
    const db = tempDb();
    const r = runCli(['tune', '-c', writeConfig(tuning({ kind: 'external', name: 'ghost', command: ['./ghost-player'] })), '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^tune2048: player ghost was not found \(.*\/ghost-player\)$/);
    expect(existsSync(db)).toBe(false);
  });

  it.each([
    ['Ctrl-C in a terminal', 'SIGINT'],
    ['the terminal closing', 'SIGHUP'],
  ] as const)("%s (the signal to the whole process group, the players' too) stops the run as documented: its running batches stored, exit 130, status stopped", async (_name, signal) => {
    const db = tempDb();
    // The fixture is a Node program: the signal kills it, as KeyboardInterrupt ends a Python player.
    const run = startCli(['tune', '-c', writeConfig(tuning(fixture('slow'))), '--db', db, '--workers', '2'], { detached: true });
    await waitFor(() => gamesIn(db) >= 4);
    const before = gamesIn(db);
    process.kill(-run.child.pid!, signal);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(/failed|exited on/);
    expect(r.stderr).toMatch(/resume 1/);
    expect(peek<{ status: string }>(db, 'SELECT status FROM runs WHERE id = 1')?.status).toBe('stopped');
    // The batches running when it came were finished and stored (two workers, two games a batch).
    expect(gamesIn(db)).toBeGreaterThan(before);
  });

  it('Ctrl-C during a player\'s first build is a stop (exit 130, one line), not a failed build, and leaves nothing in the cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-build-stop-'));
    const started = join(dir, 'started');
    // A build that says it began, then waits for the signal (the compiler would be killed the same way).
    writeFileSync(join(dir, 'slow.json'), JSON.stringify({ format: 'tune2048/player', name: 'slow-build', command: ['./slow'], build: ['sh', '-c', `touch ${started}; sleep 600; exit 1`, '{program}'] }));
    const cache = join(dir, 'cache');
    const run = startCli(['play', '--player', `external:${join(dir, 'slow.json')}`, '-n', '1'], { detached: true, env: { ...process.env, TUNE2048_CACHE: cache } });
    await waitFor(() => existsSync(started));
    process.kill(-run.child.pid!, 'SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr.trim().split('\n')).toEqual(['tune2048: stopped while building player "slow-build" (SIGINT): nothing was built; the next command that plays it builds it']);
    expect(existsSync(cache)).toBe(false);
  });

  it.each([
    ['kill -9', 'SIGKILL'],
    ['Ctrl-C', 'SIGINT'],
  ] as const)('no program outlives tune2048 or its workers (%s), even one that ignores its closed stdin', async (_name, signal) => {
    const marker = mkdtempSync(join(tmpdir(), 'tune2048-orphan-'));
    const copy = join(marker, 'fixture-player.js');
    writeFileSync(copy, readFileSync(FIXTURE));
    const db = tempDb();
    const config = writeConfig(tuning({ kind: 'external', name: 'fixture', command: [process.execPath, copy, 'good'] }));
    const run = startCli(['tune', '-c', config, '--db', db, '--workers', '2'], { env: { ...process.env, FIXTURE_MODE: 'ignore-eof' } });
    await waitForOutput(run, 'stdout', /^run 1$/m);
    await waitFor(() => processesWith(copy).length >= 2);
    run.child.kill(signal);
    await run.done;
    await waitFor(() => processesWith(copy).length === 0, 60_000);
  });
});

describe("a user's own players", () => {
  /** The Python example renamed: a player of the user's own, its file in `folder`. */
  function ownPlayer(folder: string, name: string): void {
    execFileSync('mkdir', ['-p', folder]);
    writeFileSync(join(folder, `${name}.py`), readFileSync(join(ROOT, 'examples', 'players', 'python', 'greedy.py'), 'utf8').replace('NAME, VERSION = "greedy-py", "1.0"', `NAME, VERSION = "${name}", "1.0"`));
    writeFileSync(join(folder, `${name}.json`), JSON.stringify({ format: 'tune2048/player', name, command: ['python3', `${name}.py`] }));
  }

  it('are found by name in ./configs/players and in the folders TUNE2048_PLAYERS names; their parameter files are contenders alone', () => {
    const project = mkdtempSync(join(tmpdir(), 'tune2048-own-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'tune2048-own-'));
    ownPlayer(join(project, 'configs', 'players'), 'mine');
    ownPlayer(join(elsewhere, 'players'), 'theirs');
    const env = { ...process.env, TUNE2048_PLAYERS: join(elsewhere, 'players') };
    const play = (name: string) => runCli(['play', '--player', `external:${name}`, '-n', '1', '--json'], { cwd: project, env });
    for (const name of ['mine', 'theirs', 'greedy-py']) {
      const r = play(name);
      expect(r.code, r.stderr).toBe(0);
    }
    const unknown = runCli(['play', '--player', 'external:nobody', '-n', '1'], { cwd: project, env });
    expect(unknown.stderr.trim()).toBe(`tune2048: unknown external player "nobody": a player file's path, or a name among expectimax-c, greedy-py, mine, theirs (the players of ${join(elsewhere, 'players')}, ${join(project, 'configs', 'players')}, ${join(ROOT, 'configs', 'players')}; TUNE2048_PLAYERS names more folders)`);
    // A parameter file alone: its player found by the name it records.
    writeFileSync(join(project, 'mine-params.json'), JSON.stringify({ format: 'tune2048/player-params', player: 'mine', version: '1.0', params: { empty: 3 } }));
    const compared = runCli(['compare', 'mine-params.json', 'external:theirs', '-n', '2', '--json'], { cwd: project, env });
    expect(compared.code, compared.stderr).toBe(0);
  });

  it('an exported parameter file records its player: a contender alone where no player of its name is found', () => {
    const project = mkdtempSync(join(tmpdir(), 'tune2048-own-'));
    ownPlayer(join(project, 'players'), 'solo');
    const db = tempDb();
    const config = writeConfig(tuning({ kind: 'external', name: 'solo', cwd: join(project, 'players'), command: ['python3', 'solo.py'] }, { optimizer: { population: 4, generations: 1, elitism: 1, tournament: 2 }, fitness: { games: 2, player: { kind: 'external', name: 'solo', cwd: join(project, 'players'), command: ['python3', 'solo.py'] } }, validation: { finalists: 1, games: 2 } }));
    expect(runCli(['tune', '-c', config, '--db', db]).code).toBe(0);
    const out = join(project, 'solo-tuned.json');
    expect(runCli(['export', '1', '--db', db, '--out', out]).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).definition).toEqual({ command: ['python3', 'solo.py'], cwd: join(project, 'players'), timeoutSec: 60 });
    const compared = runCli(['compare', out, 'nneonneo', '-n', '2', '-d', '0', '--json'], { cwd: tmpdir() });
    expect(compared.code, compared.stderr).toBe(0);
  });
});
