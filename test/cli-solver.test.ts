import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli';

describe('tune2048 play', () => {
  it('prints per-game lines and a summary, and the same numbers again for the same seed', () => {
    const a = runCli(['play', '-w', 'nneonneo', '-n', '2', '-d', '1', '--seed', '5', '--json']);
    expect(a.code).toBe(0);
    const out = JSON.parse(a.stdout);
    expect(out.games).toHaveLength(2);
    expect(out.games.map((g: { seed: number }) => g.seed)).toEqual([5, 6]);
    expect(out.summary).toMatchObject({ games: 2 });
    for (const key of ['meanScore', 'medianScore', 'stdevScore', 'maxScore', 'movesPerGame', 'msPerMove']) expect(typeof out.summary[key]).toBe('number');
    expect(Object.keys(out.summary.reach)).toEqual(['2048', '4096', '8192', '16384', '32768']);
    const b = runCli(['play', '-w', 'nneonneo', '-n', '2', '-d', '1', '--seed', '5', '--json']);
    const strip = (o: { games: { ms?: number }[] }) => o.games.map(({ ms: _ms, ...rest }) => rest);
    expect(strip(JSON.parse(b.stdout))).toEqual(strip(out));
  });

  it('human output ends with a summary', () => {
    const r = runCli(['play', '-w', 'snake3', '-n', '1', '-d', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^snake3 \(depth 1, seeds 1000000\.\.1000000\): 1 games[\s\S]*reach/m);
  });
});

describe('tune2048 hint', () => {
  it('answers a board given as an argument', () => {
    const r = runCli(['hint', '--json', '-d', '1', '2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 2']);
    expect(r.code).toBe(0);
    const h = JSON.parse(r.stdout);
    expect(['up', 'down', 'left', 'right']).toContain(h.best);
    expect(h.moves.map((m: { move: string }) => m.move)).toEqual(['up', 'down', 'left', 'right']);
    expect(h.moves[2]).toMatchObject({ move: 'left', legal: true, board: '2 4 0 0/0 0 0 0/0 0 0 0/2 0 0 0', score: 0 });
  });

  it('streams boards from stdin, one JSON line each, and reports a bad line', () => {
    const input = ['2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0', 'garbage', '2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2', ''].join('\n');
    const r = runCli(['hint', '--json', '-d', '1'], { input });
    expect(r.code).toBe(2);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0].moves[2]).toMatchObject({ legal: true, score: 4 });
    expect(lines[1].best).toBeNull();
    expect(r.stderr).toMatch(/line 2: bad board/);
  });
});

describe('bad input gets one line on stderr and a non-zero exit', () => {
  it.each([
    [['play', '-w', 'no-such-weights'], /unknown weights preset or file "no-such-weights"/],
    [['play', '-w', 'configs/weights/missing.json'], /cannot read weights file/],
    [['play', '-w', 'package.json'], /weights file "package.json": /],
    [['play', '--depth', '-1'], /--depth must be "auto" or an integer/],
    [['play', '--depth', 'deep'], /--depth must be "auto" or an integer/],
    [['play', '--seed', 'abc'], /--seed must be an integer/],
    // Every seed of the range, not only its first (issue 79: 2^53 − 2 with 5 games played one seed twice).
    [['play', '-w', 'nneonneo', '-d', '0', '-n', '5', '--seed', '9007199254740990'], /--seed 9007199254740990 with -n 5 runs to seed 9007199254740994, past 2\^53 − 1 .*use --seed 9007199254740987 or lower/],
    [['compare', 'nneonneo', 'snake3', '-n', '3', '--seed', '9007199254740990'], /--seed 9007199254740990 with -n 3 runs to seed 9007199254740992/],
    [['compare', 'nneonneo', 'snake3', '--sprt', '--seed', '9007199254740000'], /with --max-games 1000 runs to seed/],
    [['sweep', 'nneonneo', '-n', '3', '--seed', '9007199254740990'], /--seed 9007199254740990 with -n 3 runs to seed/],
    [['play', '--games', '0'], /--games must be from 1/],
    [['hint', '2 4 0'], /bad board: a board needs 16 tile values/],
    [['no-such-command'], /unknown command/],
  ])('%j', (args, message) => {
    const r = runCli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    const errorLines = r.stderr.split('\n').filter((l) => l.startsWith('tune2048:') || l.startsWith('error:'));
    expect(errorLines).toHaveLength(1);
  });

  it("a file of another kind where weights are taken names the flag that takes it (an external player's export, a tuning config)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-kinds-'));
    const params = join(dir, 'tuned.json');
    writeFileSync(params, JSON.stringify({ format: 'tune2048/player-params', player: 'myai', version: '1.0', params: { empty: 3 } }));
    const r = runCli(['play', '--weights', params, '-n', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`tune2048: "${params}" holds an external player's parameters (tune2048/player-params of myai), not weights: play it with --player external:myai --params ${params}, or give it to compare as a contender`);
    const config = runCli(['play', '--weights', 'configs/quick.json', '-n', '1']);
    expect(config.stderr.trim()).toBe('tune2048: "configs/quick.json" is a tuning config (tune2048/config), not weights: run it with tune -c configs/quick.json');
  });

  it('every command has --help', () => {
    for (const cmd of ['play', 'hint', 'bench']) {
      const r = runCli([cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Usage: tune2048/);
    }
  });
});
