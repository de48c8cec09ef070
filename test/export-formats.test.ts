/**
 * Exports other solvers read: nneonneo/2048-ai's constants block for weights of its family (its shipped
 * block from the `nneonneo` preset, line for line as in its 2048.cpp), refused naming the fields for
 * weights it cannot play; an external player's run exports its parameter file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { interval, num } from '../src/report/numbers';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadWeights } from '../src/heuristic/weights';
import { nneonneoConstants, outsideNneonneoFamily } from '../src/heuristic/nneonneo-format';
import { runCli } from './helpers/cli';
import { looksRounded } from '../src/player/external/protocol';
import { SMOKE, tempDb, writeConfig } from './helpers/runs';

// nneonneo/2048-ai, 2048.cpp (lines 82–88 at 41e298f), as it ships.
const SHIPPED = [
  'static const float SCORE_LOST_PENALTY = 200000.0f;',
  'static const float SCORE_MONOTONICITY_POWER = 4.0f;',
  'static const float SCORE_MONOTONICITY_WEIGHT = 47.0f;',
  'static const float SCORE_SUM_POWER = 3.5f;',
  'static const float SCORE_SUM_WEIGHT = 11.0f;',
  'static const float SCORE_MERGES_WEIGHT = 700.0f;',
  'static const float SCORE_EMPTY_WEIGHT = 270.0f;',
];

describe('--format nneonneo', () => {
  it('writes the nneonneo preset as the block 2048.cpp ships', () => {
    expect(nneonneoConstants(loadWeights('nneonneo'), 'nneonneo').trim().split('\n').slice(1)).toEqual(SHIPPED);
  });

  it("with the search a run tuned too: its cutoff as 2048.cpp's constant, its depth as the line to set", () => {
    const block = nneonneoConstants(loadWeights('nneonneo'), 'nneonneo', { depth: 2, cprob: 0.001 }).trim().split('\n');
    expect(block.slice(1, 1 + SHIPPED.length)).toEqual(SHIPPED);
    expect(block).toContain(`static const float CPROB_THRESH_BASE = ${Math.fround(0.001)}f; // tuned with these weights: replace 2048.cpp's line`);
    expect(block.at(-1)).toMatch(/^\/\/ tuned at depth 2: in score_toplevel_move, set state\.depth_limit = 2;/);
    expect(nneonneoConstants(loadWeights('nneonneo'), 'nneonneo')).not.toContain('CPROB');
  });

  it('writes each constant as the float32 nneonneo computes with', () => {
    const rng = seedrandom('floats');
    for (let i = 0; i < 500; i++) {
      const w = { ...loadWeights('nneonneo'), empty: (rng() - 0.3) * 10 ** (rng() * 8 - 3) };
      const line = nneonneoConstants(w, 'w').split('\n').find((l) => l.includes('SCORE_EMPTY_WEIGHT'))!;
      const literal = /= (.*)f;$/.exec(line)![1];
      expect(Math.fround(Number(literal))).toBe(Math.fround(w.empty));
    }
  });

  it.each([
    ['tuned-d1', ['smoothness']],
    ['haskell', ['matrix', 'smoothness', 'descents']],
    ['haskell-staged', ['smoothness', 'descents', 'stages']],
  ])('refuses %s, naming what nneonneo does not have', (preset, fields) => {
    expect(outsideNneonneoFamily(loadWeights(preset))).toEqual(fields);
    const list = fields.length === 1 ? `${fields[0]} is` : `${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]} are`;
    expect(() => nneonneoConstants(loadWeights(preset), preset)).toThrow(`${preset}: ${list} not in nneonneo's heuristic`);
  });

  it('exports a run tuned in its family; refuses a run that tuned smoothness, with exit 2 and nothing written', () => {
    const family = { ...SMOKE, space: { start: 'nneonneo', params: { empty: { min: 0, max: 2000 }, sum: { min: 1, max: 50, scale: 'log' } } } };
    const db = tempDb();
    expect(runCli(['tune', '-c', writeConfig(family), '--db', db]).code).toBe(0);
    const r = runCli(['export', '1', '--db', db, '--format', 'nneonneo']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(1).map((l) => l.replace(/= .*$/, ''))).toEqual(SHIPPED.map((l) => l.replace(/= .*$/, '')));
    expect(lines[1]).toBe(SHIPPED[0]); // alive was not tuned
    const smooth = { ...SMOKE, space: { start: 'nneonneo', params: { smoothness: { min: 0, max: 100 } } } };
    const db2 = tempDb();
    expect(runCli(['tune', '-c', writeConfig(smooth), '--db', db2]).code).toBe(0);
    const out = `${db2}.h`;
    const refused = runCli(['export', '1', '--db', db2, '--format', 'nneonneo', '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toMatch(/^tune2048: run 1's best weights: smoothness is not in nneonneo's heuristic \(--format nneonneo writes weights of its family only/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('export onto an existing file', () => {
  it('is refused without --force (exit 2, the file untouched); --force overwrites it', () => {
    const db = tempDb();
    expect(runCli(['tune', '-c', writeConfig(SMOKE), '--db', db, '--workers', '1']).code).toBe(0);
    const out = join(dirname(db), 'best.json');
    writeFileSync(out, 'mine');
    const refused = runCli(['export', '1', '--db', db, '--out', out]);
    expect([refused.code, refused.stderr.trim()]).toEqual([2, `tune2048: --out "${out}" exists; add --force to overwrite it, or name another file`]);
    expect(readFileSync(out, 'utf8')).toBe('mine');
    expect(runCli(['export', '1', '--db', db, '--out', out, '--force']).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('tune2048/weights');
  });
});

describe('numbers as the report and the dashboard print them', () => {
  it('thousands separated, a true minus sign, intervals with "to"', () => {
    expect(num(-12811.4)).toBe('−12,811');
    expect(num(10448)).toBe('10,448');
    expect(num(-0.2)).toBe('0'); // no minus on a number that rounds to zero
    expect(num(1234.56, 1)).toBe('1,234.6');
    expect(num(null)).toBe('–');
    expect(interval(-12811, 10448)).toBe('−12,811 to 10,448');
  });
});

describe('exports any solver reads: --format lines and --template', () => {
  const FIXTURE = join(__dirname, 'fixtures', 'players', 'fixture-player.js');

  it('lines: every number of the export as "name value", each reading back to the number the JSON export holds', () => {
    const db = tempDb();
    const config = writeConfig({ ...SMOKE, space: { start: 'nneonneo', params: { ...SMOKE.space.params, 'matrix[0][0]': { min: 0, max: 10 } } } });
    expect(runCli(['tune', '-c', config, '--db', db]).code).toBe(0);
    const weights = JSON.parse(runCli(['export', '1', '--db', db]).stdout) as Record<string, unknown> & { matrix: number[][] };
    const lines = runCli(['export', '1', '--db', db, '--format', 'lines']);
    expect(lines.code, lines.stderr).toBe(0);
    const read = new Map(lines.stdout.trim().split('\n').map((l) => {
      const [name, value, ...rest] = l.split(' ');
      expect(rest).toEqual([]);
      return [name, Number(value)] as const;
    }));
    for (const name of ['empty', 'merges', 'monotonicity', 'alive', 'sum', 'sumPower', 'monotonicityPower']) expect(read.get(name), name).toBe(weights[name]);
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) expect(read.get(`matrix[${r}][${c}]`)).toBe(weights.matrix[r][c]);
    expect([...read.keys()].some((k) => /provenance|name|format/.test(k))).toBe(false);
  });

  it("template: a C header with {{name}} placeholders filled; one naming no value is refused in one line, nothing written", () => {
    const db = tempDb();
    expect(runCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).code).toBe(0);
    const dir = dirname(db);
    const template = join(dir, 'weights.h.in');
    writeFileSync(template, '#define EMPTY {{empty}}\n#define MERGES {{ merges }}\n#define MONO {{monotonicity}}\n');
    const out = join(dir, 'weights.h');
    const r = runCli(['export', '1', '--db', db, '--template', template, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const weights = JSON.parse(runCli(['export', '1', '--db', db]).stdout) as Record<string, number>;
    expect(readFileSync(out, 'utf8')).toBe(`#define EMPTY ${weights.empty}\n#define MERGES ${weights.merges}\n#define MONO ${weights.monotonicity}\n`);
    writeFileSync(template, '#define X {{no_such}}\n');
    const bad = runCli(['export', '1', '--db', db, '--template', template, '--out', join(dir, 'other.h')]);
    expect([bad.code, bad.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(bad.stderr).toMatch(/^tune2048: template ".*weights\.h\.in": \{\{no_such\}\} names no value of this export \(it has alive, empty, /);
    expect(existsSync(join(dir, 'other.h'))).toBe(false);
    expect(runCli(['export', '1', '--db', db, '--template', join(dir, 'missing.in')]).stderr).toMatch(/^tune2048: cannot read template ".*missing\.in": /);
  });

  it("an external player's parameters as lines, for its own reader; a default announced with printf's six digits is warned of once", () => {
    const player = join(dirname(tempDb()), 'rounded.json');
    writeFileSync(player, JSON.stringify({ format: 'tune2048/player', name: 'fixture', command: [process.execPath, FIXTURE, 'rounded'] }));
    const played = runCli(['play', '--player', `external:${player}`, '-n', '1']);
    expect(played.code, played.stderr).toBe(0);
    const warnings = played.stderr.split('\n').filter((l) => l.includes('printf'));
    expect(warnings).toEqual([`tune2048: player "fixture" announces a default with the six digits printf's %g or %f keeps (third "0.333333"): tune2048 plays "its defaults" at these numbers, so if its own have more digits its games here differ from its games alone; announce them with %.17g (C) or repr() (Python): docs/protocol.md, "Defaults"`]);
    const db = tempDb();
    const config = writeConfig({ seed: 2, space: { start: 'defaults' }, optimizer: { population: 4, generations: 1, elitism: 1, tournament: 2 }, fitness: { games: 2, player: `external:${player}` }, validation: { finalists: 1, games: 2 } });
    expect(runCli(['tune', '-c', config, '--db', db]).code).toBe(0);
    const params = JSON.parse(runCli(['export', '1', '--db', db]).stdout) as { params: Record<string, number> };
    expect(runCli(['export', '1', '--db', db, '--format', 'lines']).stdout).toBe(Object.entries(params.params).map(([k, v]) => `${k} ${v}\n`).join(''));
  });
});

describe('looksRounded: a default as printf prints a double by default', () => {
  it.each([
    ['0.333333', true], ['3.33333e-05', true], ['123457', false], ['0.5', false], ['0.100000', false], ['0.1', false],
    ['0.33333333333333331', false], ['1', false], ['2.500000', false], ['0.000123', true], ['1.23457e+06', true],
  ])('%s: %s', (text, rounded) => {
    expect(looksRounded(text as string)).toBe(rounded);
  });
});
