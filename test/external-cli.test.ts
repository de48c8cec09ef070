/**
 * External players through the CLI: the two example players (examples/players: C and Python) are tuned,
 * killed (-9) and resumed to the same run, compared, played and asked for hints. (external-faults.test.ts:
 * a faulty program's run, and a user's own players.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/tuner/config/config';
import { createRun, prepareRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
import { Store } from '../src/store/store';
import { ROOT, runCli, startCli, waitFor } from './helpers/cli';
import { all, dumpRun, gamesIn, tempDb, writeConfig } from './helpers/runs';
import { FIXTURE, fixture, pyPlayer, tuning } from './helpers/external';

let dir: string;
let cPlayerFile: string;
let cBinary: string;

beforeAll(() => {
  // The C example is built here, outside the repository (its binary is never committed).
  dir = mkdtempSync(join(tmpdir(), 'tune2048-players-'));
  cBinary = join(dir, 'expectimax-c');
  execFileSync('cc', ['-O2', '-o', cBinary, join(ROOT, 'examples', 'players', 'c', 'expectimax.c'), '-lm']);
  cPlayerFile = join(dir, 'expectimax-c.json');
  writeFileSync(cPlayerFile, JSON.stringify({ format: 'tune2048/player', name: 'expectimax-c', command: [cBinary, '--depth', '1'] }));
});

const cPlayer = () => ({ kind: 'external', name: 'expectimax-c', cwd: dir, command: [cBinary, '--depth', '1'] });


async function reference(data: unknown) {
  const db = tempDb();
  const store = Store.open(db);
  try {
    const id = createRun(store, await prepareRun(parseConfig(data)), 'test');
    const outcome = await new Tuner(store, id, { workers: 1 }).run(false);
    expect(outcome.status).toBe('finished');
    return { db, id };
  } finally {
    store.close();
  }
}


describe('tuning an external player', () => {
  it.each([
    // 80 and 36 games a run (the C player's moves and Python's each cross a pipe): the C run's kills land in its first generation and its second, the Python run's in its first.
    ['the C example', () => tuning(cPlayer(), { optimizer: { population: 6, generations: 3, elitism: 1, tournament: 2 }, fitness: { games: 4, player: cPlayer() }, validation: { finalists: 2, games: 4 } }), [16, 40]],
    ['the Python example', () => tuning(pyPlayer, { optimizer: { population: 4, generations: 2, elitism: 1, tournament: 2 }, fitness: { games: 4, player: pyPlayer }, validation: { finalists: 1, games: 4 } }), [12]],
  ])('%s: kill -9 mid-run and resume give the uninterrupted run', async (_name, data, kills) => {
    const straight = await reference(data());
    const db = tempDb();
    let args = ['tune', '-c', writeConfig(data()), '--db', db, '--workers', '2', '--name', 'test'];
    for (const killAt of kills as number[]) {
      const run = startCli(args);
      await waitFor(() => gamesIn(db) >= killAt);
      run.child.kill('SIGKILL');
      await run.done;
      args = ['resume', '1', '--db', db, '--workers', '2'];
    }
    const resumed = runCli(['resume', '1', '--db', db]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(straight.db, straight.id));

    // The export is a parameter file every playing command takes.
    const out = join(dir, `best-${Date.now()}.json`);
    expect(runCli(['export', '1', '--db', db, '--out', out]).code).toBe(0);
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    expect(exported).toMatchObject({ format: 'tune2048/player-params', provenance: { run: 1 } });
    expect(Object.keys(exported.params).sort()).toEqual(Object.keys(JSON.parse(all<{ params: string }>(db, 'SELECT params FROM candidates LIMIT 1')[0].params)).sort());
    // The report names the player and its tuned parameters.
    const report = runCli(['report', '1', '--db', db, '--out', join(dir, `report-${Date.now()}.html`), '--json']);
    expect(report.code, report.stderr).toBe(0);
    const html = readFileSync(JSON.parse(report.stdout).out, 'utf8');
    expect(html).toMatch(/player <code>external:(expectimax-c 1\.1-d1|greedy-py 1\.0)<\/code>/);
  });

  it('its announced parameters are the space: narrowed by the config, refused when unknown or wider', () => {
    const narrowed = runCli(['tune', '-c', writeConfig(tuning(fixture(), { space: { start: 'defaults', params: { bias: { min: -0.5, max: 0.5 } } }, optimizer: { population: 2, generations: 1, elitism: 0, tournament: 1 } })), '--db', tempDb()]);
    expect(narrowed.code, narrowed.stderr).toBe(0);
    const unknownConfig = writeConfig(tuning(fixture(), { space: { start: 'defaults', params: { depth: {} } } }));
    const unknown = runCli(['tune', '-c', unknownConfig, '--db', tempDb()]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(`tune2048: config "${unknownConfig}": space.params: "depth" is not a parameter of the player fixture (it announces bias)`);
    const wider = runCli(['tune', '-c', writeConfig(tuning(fixture(), { space: { start: 'defaults', params: { bias: { min: -2, max: 1 } } } })), '--db', tempDb()]);
    expect(wider.code).toBe(2);
    expect(wider.stderr).toMatch(/space\.params\.bias: \[-2, 1\] reaches outside the bounds fixture announces, \[-1, 1\]/);
  });
});

describe('playing, comparing and hints', () => {
  it('plays the same games on one process or two workers, and compares with a built-in player on the same seeds', () => {
    const one = runCli(['play', '--player', `external:${cPlayerFile}`, '-n', '6', '--json']);
    const two = runCli(['play', '--player', `external:${cPlayerFile}`, '-n', '6', '--workers', '2', '--json']);
    expect(one.code, one.stderr).toBe(0);
    const scores = (r: typeof one) => JSON.parse(r.stdout).games.map((g: { seed: number; score: number }) => [g.seed, g.score]);
    expect(scores(two)).toEqual(scores(one));
    expect(JSON.parse(one.stdout).player).toBe('external:expectimax-c');

    const db = tempDb();
    const compare = runCli(['compare', `external:${cPlayerFile}`, 'nneonneo', '-n', '6', '-d', '0', '-s', '1000000', '--db', db, '--json']);
    expect(compare.code, compare.stderr).toBe(0);
    const result = JSON.parse(compare.stdout);
    expect(result.contenders.map((c: { label: string }) => c.label)).toEqual(['expectimax-c', 'nneonneo']);
    expect(result.contenders[0].games.map((g: { seed: number; score: number }) => [g.seed, g.score])).toEqual(scores(one));
    const again = runCli(['compare', `external:${cPlayerFile}`, 'nneonneo', '-n', '6', '-d', '0', '-s', '1000000', '--db', db, '--json']);
    expect(again.stderr).toMatch(/only the missing ones are played/);
    expect(JSON.parse(again.stdout).contenders[0].games).toEqual(result.contenders[0].games.map((g: object) => ({ ...g, ms: expect.any(Number) })));
  });

  it('the Python example plays through a player name in configs/players; hint shows its move', () => {
    const play = runCli(['play', '--player', 'external:greedy-py', '-n', '2']);
    expect(play.code, play.stderr).toBe(0);
    expect(play.stdout).toMatch(/^greedy-py \(its own settings, seeds 1000000\.\.1000001\): 2 games$/m);
    const hint = runCli(['hint', '--player', `external:${cPlayerFile}`, '2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 4', '--json']);
    expect(hint.code, hint.stderr).toBe(0);
    const h = JSON.parse(hint.stdout);
    expect(h.best).toMatch(/^(up|down|left|right)$/);
    expect(h.moves.filter((m: { value: number | null }) => m.value !== null)).toHaveLength(4);
  });

  it('a run config names a shipped player as the CLI does ("external:greedy-py", or { kind, name }): the same run as with its whole definition', () => {
    const small = (player: unknown) => tuning(player, { optimizer: { population: 3, generations: 2, elitism: 1, tournament: 2 }, fitness: { games: 2, player }, validation: { finalists: 1, games: 2 } });
    const runs = [pyPlayer, 'external:greedy-py', { kind: 'external', name: 'greedy-py' }].map((player) => {
      const db = tempDb();
      const r = runCli(['tune', '-c', writeConfig(small(player)), '--db', db, '--workers', '1']);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout).generations as { seconds?: number }[]).map(({ seconds: _time, ...g }) => g);
    });
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    const unknown = runCli(['tune', '-c', writeConfig(small('external:nosuch')), '--db', tempDb()]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toMatch(/^tune2048: config ".*": field "fitness.player": unknown external player "nosuch": a player file's path, or a name among expectimax-c, greedy-py \(the players of .*configs\/players; TUNE2048_PLAYERS names more folders\)$/);
  });

  it('a parameter file alone as a contender plays with the player another contender names by its file (not only with configs/players)', () => {
    const playerFile = join(dir, 'fixture-player.json');
    writeFileSync(playerFile, JSON.stringify({ format: 'tune2048/player', name: 'fixture', command: [process.execPath, FIXTURE, 'good'] }));
    const params = join(dir, 'fixture-params.json');
    writeFileSync(params, JSON.stringify({ format: 'tune2048/player-params', player: 'fixture', version: '1', params: { bias: 0.5 } }));
    const r = runCli(['compare', `external:${playerFile}`, params, '-n', '2', '-d', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { contenders: { label: string }[] }).contenders.map((c) => c.label)).toEqual(['fixture-player', 'fixture@fixture-params.json']);
    // Alone, its player is looked up in configs/players, where there is none of that name.
    const alone = runCli(['compare', params, 'nneonneo', '-n', '2', '-d', '0']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/unknown external player "fixture"/);
  });

  it('refuses what does not fit: --params without an external player, an external player in sweep or as compare --player, a parameter file of another player', () => {
    expect(runCli(['play', '--params', 'x.json', '-n', '1']).stderr).toMatch(/--params gives an external player's values/);
    const sweep = runCli(['sweep', 'nneonneo', '--player', 'external:greedy-py']);
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toMatch(/sweep varies tune2048's search depth/);
    const asPlayer = runCli(['compare', 'nneonneo', 'tuned-d1', '--player', 'external:greedy-py']);
    expect(asPlayer.code).toBe(2);
    expect(asPlayer.stderr).toMatch(/name it as a contender instead \(external:NAME, a parameter file, or network:FILE\)/);
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ format: 'tune2048/player-params', player: 'greedy-py', version: '1.0', params: { empty: 2 } }));
    const wrong = runCli(['play', '--player', `external:${cPlayerFile}`, '--params', other, '-n', '1']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toBe(`tune2048: parameter file "${other}" is for the player "greedy-py", not "expectimax-c"`);
    const missing = runCli(['play', '--player', 'external:no-such-player', '-n', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/unknown external player "no-such-player": a player file's path, or a name among expectimax-c, greedy-py \(the players of .*configs\/players; TUNE2048_PLAYERS names more folders\)/);
  });
});
