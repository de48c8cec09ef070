/**
 * Issue 67's rules on records: every figure can be replayed from what the tool wrote (a run's held-out seeds in
 * its export, show --json and play/compare --seeds); every record says exactly what played (labels that tell
 * contenders apart, the search as it played, the tool and the player's identity); nothing is reused or trusted
 * unchecked (an external player's determinism, a changed program's stored games).
 */
import { describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli';
import { all, SMOKE, tempDb, writeConfig } from './helpers/runs';
import { FIXTURE } from './helpers/external';

/** A folder with a copy of the protocol fixture and a player file for it in `mode`. */
function fixturePlayer(mode: string, extra: Record<string, unknown> = {}): { dir: string; file: string; script: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-prov-'));
  const script = join(dir, 'player.js');
  copyFileSync(FIXTURE, script);
  const file = join(dir, `${mode}.json`);
  writeFileSync(file, JSON.stringify({ format: 'tune2048/player', name: 'fixture', command: [process.execPath, 'player.js', mode], ...extra }));
  return { dir, file, script };
}

describe('every figure can be replayed from what the tool wrote', () => {
  it("a run's validated score: its export lists the held-out seeds, and play --seeds (the list, or run:N) plays those very games", () => {
    const db = tempDb();
    expect(runCli(['tune', '-c', writeConfig({ ...SMOKE, name: 'replay' }), '--db', db]).code).toBe(0);
    const out = join(mkdtempSync(join(tmpdir(), 'tune2048-prov-')), 'best.json');
    expect(runCli(['export', '1', '--db', db, '--out', out]).code).toBe(0);
    const { provenance } = JSON.parse(readFileSync(out, 'utf8'));
    const stored = all<{ seed: number; score: number }>(db, `SELECT seed, score FROM games WHERE candidate_id = ${provenance.candidate} AND purpose = 'validation' ORDER BY seed`);
    expect(provenance.validation.seeds).toEqual(stored.map((g) => g.seed));
    const seedsFile = join(mkdtempSync(join(tmpdir(), 'tune2048-prov-')), 'seeds.txt');
    writeFileSync(seedsFile, `# run 1's held-out seeds\n${provenance.validation.seeds.join('\n')}\n`);
    for (const seeds of [`@${seedsFile}`, 'run:1', provenance.validation.seeds.join(',')]) {
      const r = runCli(['play', '-w', out, '-d', '0', '--seeds', seeds, '--db', db, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const played = JSON.parse(r.stdout) as { summary: { meanScore: number }; games: { seed: number; score: number }[] };
      expect(played.summary.meanScore).toBe(provenance.validation.objective);
      expect(new Map(played.games.map((g) => [g.seed, g.score]))).toEqual(new Map(stored.map((g) => [g.seed, g.score])));
    }
    // show --json names them too, and compare --seeds run:N pairs on them (and says so).
    expect(JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout).seeds.validation).toEqual(provenance.validation.seeds);
    const compared = runCli(['compare', out, 'nneonneo', '-d', '0', '--seeds', 'run:1', '--db', db]);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(new RegExp(`^${stored.length} paired games per contender, ${stored.length} listed seeds \\(--seeds run:1\\)`, 'm'));
  });

  it('a seed list that is not one: one line, exit 2', () => {
    for (const [seeds, message] of [
      ['5,7,9x', /--seeds 5,7,9x: "9x" is not a seed/],
      ['5,7,5', /--seeds 5,7,5: seed 5 is given twice/],
      ['@/no/such/file', /--seeds @\/no\/such\/file: cannot read "\/no\/such\/file": no such file or folder/],
      ['run:9', /no database at|no run 9/],
    ] as const) {
      const r = runCli(['play', '-d', '0', '--seeds', seeds, '--db', tempDb()]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  });

  it('a seed list takes every seed --seed takes (to 2^53 − 1) and plays the same games; one past it is refused', () => {
    const high = Number.MAX_SAFE_INTEGER - 1;
    const scores = (args: string[]) => {
      const r = runCli(['play', '-d', '0', ...args, '--json']);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).games.map((g: { seed: number; score: number }) => [g.seed, g.score]);
    };
    expect(scores(['--seeds', `${2 ** 32},${high},${high + 1}`])).toEqual([...scores(['--seed', String(2 ** 32), '-n', '1']), ...scores(['--seed', String(high), '-n', '2'])]);
    const past = runCli(['play', '-d', '0', '--seeds', `5,${Number.MAX_SAFE_INTEGER + 1}`]);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/"9007199254740992" is not a seed \(a whole number from 0 to 9007199254740991\)/);
  });
});

describe('every record says exactly what played', () => {
  it('two weight files that call themselves alike are two labels; a preset named twice is #1 and #2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-prov-'));
    const nneonneo = JSON.parse(readFileSync(join(__dirname, '..', 'configs', 'weights', 'nneonneo.json'), 'utf8'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ ...nneonneo, name: 'twin' }));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...nneonneo, name: 'twin', empty: 10 }));
    const r = runCli(['compare', join(dir, 'a.json'), join(dir, 'b.json'), '-n', '4', '-d', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.contenders.map((c: { label: string }) => c.label)).toEqual([`twin (${join(dir, 'a.json')})`, `twin (${join(dir, 'b.json')})`]);
    expect(result.pairs[0].a).not.toBe(result.pairs[0].b);
    const same = JSON.parse(runCli(['compare', 'nneonneo', 'nneonneo', '-n', '2', '-d', '0', '--json']).stdout);
    expect(same.contenders.map((c: { label: string }) => c.label)).toEqual(['nneonneo #1', 'nneonneo #2']);
  });

  it("compare's record holds the tool and each player's identity (here and as stored), and the search as it played", () => {
    const db = tempDb();
    const r = runCli(['compare', 'nneonneo', 'tuned-d1', '-n', '3', '-d', '0', '--json', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout);
    const version = runCli(['--version']).stdout;
    expect(version).toContain(`tune2048 ${result.tool.version}`);
    expect(version).toContain(`search build ${result.tool.searchBuild}`);
    expect(result.contenders[0].player.identity.weights.empty).toBe(270); // nneonneo's
    expect(result.contenders[0].player.hash).not.toBe(result.contenders[1].player.hash);
    const stored = JSON.parse(all<{ result: string }>(db, 'SELECT result FROM comparisons')[0].result);
    expect(stored.tool).toEqual(result.tool);
    expect(stored.contenders.map((c: { player: unknown }) => c.player)).toEqual(result.contenders.map((c: { player: unknown }) => c.player));
    // A time budget a move is what played: said in the heading and the record.
    const budgeted = runCli(['compare', 'nneonneo', 'tuned-d1', '-n', '2', '-d', '2', '--ms-per-move', '1']);
    expect(budgeted.code, budgeted.stderr).toBe(0);
    expect(budgeted.stdout).toMatch(/a time budget of 1 ms a move \(iterative deepening up to depth 2; the games depend on the machine's speed and load\)/);
    expect(budgeted.stdout).toMatch(/depth reached/); // how deep it went is what played
    expect(JSON.parse(runCli(['compare', 'nneonneo', 'tuned-d1', '-n', '2', '-d', '2', '--ms-per-move', '1', '--json']).stdout).settings.msPerMove).toBe(1);
  });

  it('exports of two databases\' run 1 are two names when they play differently', () => {
    const names = [1, 2].map((seed) => {
      const db = tempDb();
      expect(runCli(['tune', '-c', writeConfig({ ...SMOKE, name: 'quick', seed }), '--db', db]).code).toBe(0);
      const r = runCli(['export', '1', '--db', db, '--json']);
      return { name: JSON.parse(r.stdout).weights.name as string, tool: JSON.parse(r.stdout).weights.provenance.tool };
    });
    expect(names[0].name).toMatch(/^quick-run1-[0-9a-f]{6}$/);
    expect(names[0].name).not.toBe(names[1].name);
    expect(names[0].tool.version).toEqual(expect.any(String));
  });
});

describe('nothing is reused or trusted unchecked', () => {
  it('an external player that does not replay a seed is refused by compare and play as by tune (or played with a warning)', () => {
    const random = fixturePlayer('random');
    for (const args of [['compare', `external:${random.file}`, 'nneonneo', '-n', '2', '-d', '0'], ['play', '--player', `external:${random.file}`, '-n', '2']]) {
      const r = runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/player fixture played seed \d+ twice and chose differently at move \d+: its games are not a function of the seed/);
    }
    const warned = fixturePlayer('random', { nondeterministic: 'warn' });
    const r = runCli(['play', '--player', `external:${warned.file}`, '-n', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: player fixture played seed/m);
  });

  it('compare --db plays again the games of a program changed on disk (its version line unchanged)', () => {
    const good = fixturePlayer('good');
    const db = tempDb();
    const count = () => all<{ n: number }>(db, 'SELECT count(*) AS n FROM compare_games')[0].n;
    expect(runCli(['compare', `external:${good.file}`, 'nneonneo', '-n', '4', '-d', '0', '--db', db]).code).toBe(0);
    expect(count()).toBe(8);
    expect(runCli(['compare', `external:${good.file}`, 'nneonneo', '-n', '4', '-d', '0', '--db', db]).code).toBe(0);
    expect(count()).toBe(8); // the same program: its games reused
    appendFileSync(good.script, '\n// changed\n');
    expect(runCli(['compare', `external:${good.file}`, 'nneonneo', '-n', '4', '-d', '0', '--db', db]).code).toBe(0);
    expect(count()).toBe(12); // the changed program's 4 played again, nneonneo's reused
  });
});

/** CSV as pandas reads it: a header, then rows; no field here needs quoting but a label with a comma. */
function parseCsv(text: string): Record<string, string>[] {
  const lines = text.trimEnd().split('\n');
  const split = (line: string) => (line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? []).filter((f, i, all) => i < all.length - 1 || f !== '').map((f) => f.replace(/,$/, '').replace(/^"(.*)"$/, '$1').replace(/""/g, '"'));
  const header = split(lines[0]);
  return lines.slice(1).map((l) => Object.fromEntries(split(l).map((v, i) => [header[i], v])));
}

describe('tidy data: a game a row', () => {
  it("compare, play and a run's games as CSV hold the very games their JSON holds", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-csv-'));
    const r = runCli(['compare', 'nneonneo', 'tuned-d1', '-n', '3', '-d', '0', '--json', '--csv', join(dir, 'c.csv')]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    const rows = parseCsv(readFileSync(join(dir, 'c.csv'), 'utf8'));
    expect(Object.keys(rows[0])).toEqual(['contender', 'seed', 'score', 'max_tile', 'moves', 'ms', 'nodes']);
    const fromJson = json.contenders.flatMap((c: { label: string; games: { seed: number; score: number; maxTile: number; moves: number }[] }) => c.games.map((g) => [c.label, g.seed, g.score, g.maxTile, g.moves]));
    expect(rows.map((x) => [x.contender, Number(x.seed), Number(x.score), Number(x.max_tile), Number(x.moves)])).toEqual(fromJson);
    // An existing file is kept without --force, before anything is played.
    const again = runCli(['compare', 'nneonneo', 'tuned-d1', '-n', '3', '-d', '0', '--csv', join(dir, 'c.csv')]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--csv ".*c\.csv" exists; add --force/);
    // play: the same columns for one player, on stdout with -.
    const played = runCli(['play', '-d', '0', '-n', '2', '--csv', '-']);
    expect(played.code, played.stderr).toBe(0);
    expect(parseCsv(played.stdout).map((x) => x.player)).toEqual(['nneonneo', 'nneonneo']);
    // A run's games: every stored game, with its candidate's tuned values.
    const db = tempDb();
    expect(runCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).code).toBe(0);
    const run = parseCsv(runCli(['show', '1', '--db', db, '--csv', '-']).stdout);
    expect(run).toHaveLength(all<{ n: number }>(db, 'SELECT count(*) AS n FROM games')[0].n);
    expect(Object.keys(run[0])).toEqual(['generation', 'candidate', 'origin', 'purpose', 'seed', 'score', 'max_tile', 'moves', 'ms', 'nodes', 'empty', 'merges', 'monotonicity']);
    expect(new Set(run.map((x) => x.purpose))).toEqual(new Set(['fitness', 'validation']));
  });
});

describe('every input used as given or refused in one line, one rule for every path', () => {
  it('a database in a folder that is not there is refused by tune, compare and learn alike (as export --out is); only the default db/ is made', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'tune2048-in-')), 'no', 'such');
    for (const args of [
      ['tune', '-c', 'smoke', '--db', join(missing, 'x.sqlite')],
      ['compare', 'nneonneo', 'tuned-d1', '-n', '2', '-d', '0', '--db', join(missing, 'x.sqlite')],
      ['learn', 'start', '-c', 'learn-ntuple-small', '--db', join(missing, 'x.sqlite')],
      ['export', '1', '--db', tempDb(), '--out', join(missing, 'x.json')],
    ]) {
      const r = runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(args[0] === 'export' ? /no database at|does not exist/ : /the folder ".*no\/such" does not exist/);
    }
    expect(existsSync(join(missing, '..'))).toBe(false); // nothing made
    const empty = mkdtempSync(join(tmpdir(), 'tune2048-in-'));
    expect(runCli(['tune', '-c', 'smoke'], { cwd: empty }).code).toBe(0);
    expect(existsSync(join(empty, 'db', 'tune2048.sqlite'))).toBe(true);
  });

  it('a misspelt parameter gets the config\'s name and a did-you-mean, as every other config typo', () => {
    const config = writeConfig({ space: { start: 'nneonneo', params: { emptty: { min: 0, max: 10 } } } });
    const r = runCli(['tune', '-c', config, '--db', tempDb()]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(new RegExp(`^tune2048: config "${config}": space\\.params: unknown parameter "emptty" \\(did you mean "empty"\\?\\)`));
  });
});
