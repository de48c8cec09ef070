/**
 * Tuning what sits on a learned network (issue 31): a run whose player is { "kind": "network", "file" }
 * tunes a weight per stage on the network's value at the leaves (and cprob when named) through worker
 * processes; export writes a network player file that play and compare take as network:FILE.json, playing
 * the tuned settings' very games; bad spaces, files and changed networks refused in one line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playGame, SeededGame } from '../src/engine/game';
import type { Direction } from '../src/engine/moves';
import type { NetworkShape } from '../src/learn/ntuple/shape';
import { NetworkTraining } from '../src/learn/ntuple/training';
import { createNetworkPlayer, fileSha256 } from '../src/player/network-player';
import { loadWeights, type Weights } from '../src/heuristic/weights';
import { runCli, startCli, waitForOutput } from './helpers/cli';
import { all } from './helpers/runs';
import { networkFrontConfig } from './helpers/network';

const dir = mkdtempSync(join(tmpdir(), 'tune2048-network-tune-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STAGED: NetworkShape = { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [4, 5, 8, 9]], stages: [{ maxTile: [2, 128] }, { maxTile: [256, 32768] }], promote: true };
const net = join(dir, 'net.bin');

beforeAll(async () => {
  const training = new NetworkTraining({ shape: STAGED, threads: 1, seed: 9, learningRate: 0.1, heldOut: { games: 0, seed: 1 } });
  try {
    await training.trainTo(1500);
    training.save(net);
  } finally {
    await training.close();
  }
});

/** A run config beside the network, naming it by a relative path. */
function config(extra: { space?: object; fitness?: object } = {}, name = `cfg-${Math.random().toString(36).slice(2)}.json`): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      seed: 5,
      space: { start: 'defaults', ...extra.space },
      optimizer: { population: 4, generations: 2, elitism: 1, tournament: 2 },
      fitness: { games: 4, depth: 1, player: { kind: 'network', file: 'net.bin' }, ...extra.fitness },
      validation: { finalists: 2, games: 4 },
      pool: { batchGames: 2 },
    }),
  );
  return path;
}

const tempDb = () => join(mkdtempSync(join(dir, 'db-')), 'tune.sqlite');

describe('tuning on a learned network', () => {
  it('tunes its stage weights through workers; export writes a network player file whose games are the tuned settings\'', async () => {
    const db = tempDb();
    const r = runCli(['tune', '-c', config(), '--db', db, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const params = all<{ params: string }>(db, 'SELECT params FROM candidates').map((c) => JSON.parse(c.params) as Record<string, number>);
    for (const p of params) expect(Object.keys(p).sort()).toEqual(['stageWeight.0', 'stageWeight.1']);
    expect(new Set(params.map((p) => p['stageWeight.1'])).size).toBeGreaterThan(1); // the weights vary

    mkdirSync(join(dir, 'out'), { recursive: true });
    const out = join(dir, 'out', 'best.json');
    const e = runCli(['export', '1', '--db', db, '--out', out]);
    expect(e.code, e.stderr).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as { format: string; version: number; network: { file: string; sha256: string }; cprob: number; stageWeights: number[]; provenance: { run: number; depth: number } };
    expect(file).toMatchObject({ format: 'tune2048/network-player', version: 1, network: { file: '../net.bin', sha256: fileSha256(net) }, cprob: 1e-4, provenance: { run: 1, depth: 1 } });
    expect(file.stageWeights).toHaveLength(2);

    // The file plays the tuned settings' games, in play and in compare's workers (the depth is the command's).
    const seeds = [77, 78, 79];
    const here = createNetworkPlayer({ network: { file: net, sha256: file.network.sha256 }, search: { depth: 1, cprob: file.cprob, stageWeights: file.stageWeights } });
    const want = seeds.map((s) => playGame(here, s).score);
    const played = runCli(['play', '--player', `network:${out}`, '-d', '1', '-n', '3', '-s', '77', '--json']);
    expect(played.code, played.stderr).toBe(0);
    expect((JSON.parse(played.stdout) as { games: { score: number }[] }).games.map((g) => g.score)).toEqual(want);
    const compared = runCli(['compare', `network:${out}@d1`, `network:${net}@d1`, '-n', '3', '-s', '77', '--workers', '2', '--json']);
    expect(compared.code, compared.stderr).toBe(0);
    expect((JSON.parse(compared.stdout) as { contenders: { games: { score: number }[] }[] }).contenders[0].games.map((g) => g.score)).toEqual(want);

    // Its validation games keep their moves (a page cannot hold a network, but replays them): replayed in the engine, each makes its stored score.
    const kept = all<{ seed: number; score: number; moves: string }>(db, "SELECT g.seed, g.score, m.moves FROM games g JOIN game_moves m ON m.candidate_id = g.candidate_id AND m.purpose = g.purpose AND m.seed = g.seed WHERE g.purpose = 'validation'");
    // Validated: the last generation's 2 distinct finalists, and the start beside them unless it is one of them; 4 games each.
    const validated = all<{ generation: number; params: string }>(db, 'SELECT generation, params FROM candidates WHERE validation IS NOT NULL');
    const last = Math.max(...validated.map((c) => c.generation));
    const finalists = validated.filter((c) => c.generation === last);
    expect(new Set(finalists.map((c) => c.params)).size).toBe(2);
    const startParams = all<{ params: string }>(db, "SELECT params FROM candidates WHERE generation = 0 AND origin = 'start'")[0].params;
    expect(validated.length).toBe(finalists.some((c) => c.params === startParams) ? 2 : 3);
    expect(kept.length).toBe(validated.length * 4);
    for (const g of kept) {
      const replay = new SeededGame(g.seed);
      for (const letter of g.moves) replay.play('udlr'.indexOf(letter) as Direction);
      expect(replay.score).toBe(g.score);
    }

    // The report names the network it tuned on.
    const report = runCli(['report', '1', '--db', db, '--out', join(dir, 'report.html'), '--json']);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('network:net.bin');

    // The viewer, asked to play the run's best, gets one line: why a page does not play a network, and the replay to open.
    const served = startCli(['serve', '--db', db, '--port', '0']);
    try {
      let out = '';
      served.child.stdout!.on('data', (d) => (out += d));
      await waitForOutput(served, 'stdout', /^http:\/\/\S+\n/);
      const r = await fetch(`${out.trim()}/api/weights/one?source=run:1`);
      expect(r.status).toBe(409);
      const why = ((await r.json()) as { error: string }).error;
      expect(why).toMatch(/^run 1 tuned what sits on the network "net\.bin" \(\d+ MB of tables\): a network is played by the server, not in the page \(.*memory\); to watch this run's best play live, export it into a weights folder \(tune2048 export 1 --out best\.json --db \S+\) and pick network:best\.json, or watch its best held-out game replayed instead: \/viewer\?replay=run:1$/);
      expect(why).not.toContain('\n');
      expect((await fetch(`${out.trim()}/api/runs/1/replay`)).status).toBe(200);
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  it('cprob is tuned when named; a start from a network player file keeps the weights it does not tune, and its tile-downgrading', () => {
    const start = join(dir, 'start.json');
    writeFileSync(start, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'net.bin', sha256: fileSha256(net) }, stageWeights: [1.5, 0.8], downgradeAt: 128 }));
    const db = tempDb();
    const r = runCli(['tune', '-c', config({ space: { start: 'start.json', params: { cprob: { min: 0.0001, max: 0.05 } } } }), '--db', db, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const exported = JSON.parse(runCli(['export', '1', '--db', db]).stdout) as { cprob: number; stageWeights: number[]; downgradeAt?: number };
    expect(exported.stageWeights).toEqual([1.5, 0.8]);
    expect(exported.downgradeAt).toBe(128);
    expect(exported.cprob).toBeGreaterThanOrEqual(0.0001);
    expect(exported.cprob).toBeLessThanOrEqual(0.05);
  });

  it('settings that play alike play once: a cutoff tuned at depth 1 (where none prunes) gives every candidate the start\'s games, copied, and one finalist', () => {
    const db = tempDb();
    const r = runCli(['tune', '-c', config({ space: { params: { cprob: { min: 0.0001, max: 0.05 } } } }), '--db', db, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const cprobs = new Set(all<{ params: string }>(db, 'SELECT params FROM candidates').map((c) => (JSON.parse(c.params) as { cprob: number }).cprob));
    expect(cprobs.size).toBeGreaterThan(3); // the candidates differ…
    // …but play alike: a seed's game is played once and copied (its measured ms too: two plays would differ).
    for (const purpose of ['fitness', 'validation']) {
      const bySeed = all<{ seed: number; n: number; played: number }>(db, `SELECT seed, count(*) AS n, count(DISTINCT score || '/' || moves || '/' || ms) AS played FROM games WHERE purpose = '${purpose}' GROUP BY seed`);
      expect(bySeed.length).toBeGreaterThan(0);
      for (const s of bySeed) expect(s.played, `${purpose} seed ${s.seed}`).toBe(1);
    }
    // One player among the finalists (the start, played beside them, is that player too).
    const validated = all<{ validation: number }>(db, 'SELECT validation FROM candidates WHERE validation IS NOT NULL');
    expect(new Set(validated.map((v) => v.validation)).size).toBe(1);
    expect(validated.length).toBeLessThanOrEqual(2);
  });

  it('the depth rule is tuned when named: thresholds in whole empty cells (rounded), off outside 0-16; the export carries the rule and plays its games', () => {
    const db = tempDb();
    const r = runCli(['tune', '-c', config({ space: { params: { 'depthRule.deeperAtEmpty': { min: -1, max: 6 }, 'depthRule.shallowerAtEmpty': { min: 6, max: 17 } } } }), '--db', db, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const params = all<{ params: string }>(db, 'SELECT params FROM candidates').map((c) => JSON.parse(c.params) as Record<string, number>);
    expect(params[0]).toEqual({ 'depthRule.deeperAtEmpty': -1, 'depthRule.shallowerAtEmpty': 17 }); // the start: no rule
    const out = join(dir, 'best-rule.json');
    expect(runCli(['export', '1', '--db', db, '--out', out]).code).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as { cprob: number; stageWeights?: number[]; depthRule?: { deeperAtEmpty?: number; shallowerAtEmpty?: number } };
    expect(file.stageWeights).toBeUndefined(); // not tuned: the training's weights of 1, left out of the file
    for (const t of [file.depthRule?.deeperAtEmpty, file.depthRule?.shallowerAtEmpty]) if (t !== undefined) expect(Number.isInteger(t) && t >= 0 && t <= 16).toBe(true);
    const here = createNetworkPlayer({ network: { file: net, sha256: fileSha256(net) }, search: { depth: 1, cprob: file.cprob, stageWeights: file.stageWeights, ...(file.depthRule ? { depthRule: file.depthRule } : {}) } });
    const played = runCli(['play', '--player', `network:${out}`, '-d', '1', '-n', '2', '-s', '60', '--json']);
    expect(played.code, played.stderr).toBe(0);
    expect((JSON.parse(played.stdout) as { games: { score: number }[] }).games.map((g) => g.score)).toEqual([60, 61].map((s) => playGame(here, s).score));
  });

  it('strength against cost on a network: the front shows each point as it plays (depth, the rule in whole cells or off), and export --point K plays its validated games', () => {
    const db = tempDb();
    const path = join(dir, 'front.json');
    writeFileSync(path, JSON.stringify(networkFrontConfig(2)));
    const r = runCli(['tune', '-c', path, '--db', db, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const { front } = JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout) as { front: { point: number; candidate: number; params: Record<string, number> }[] };
    expect(front.length).toBeGreaterThan(0);
    // The stored genome's values are continuous; the table's are the player's.
    const stored = all<{ id: number; params: string }>(db, 'SELECT id, params FROM candidates');
    expect(stored.some((c) => !Number.isInteger(JSON.parse(c.params)['depthRule.deeperAtEmpty']))).toBe(true);
    for (const p of front) {
      const deeper = p.params['depthRule.deeperAtEmpty'];
      const shallower = p.params['depthRule.shallowerAtEmpty'];
      expect([Number.isInteger(deeper) && (deeper === -1 || (deeper >= 0 && deeper <= 6)), Number.isInteger(shallower) && (shallower === 17 || (shallower >= 6 && shallower <= 16 && shallower > deeper))], JSON.stringify(p.params)).toEqual([true, true]);
      const out = join(dir, `point-${p.point}.json`);
      expect(runCli(['export', '1', '--db', db, '--point', String(p.point), '--out', out]).code).toBe(0);
      const file = JSON.parse(readFileSync(out, 'utf8')) as { depthRule?: { deeperAtEmpty?: number; shallowerAtEmpty?: number } };
      expect([file.depthRule?.deeperAtEmpty ?? -1, file.depthRule?.shallowerAtEmpty ?? 17]).toEqual([deeper, shallower]);
      const [game] = all<{ seed: number; score: number }>(db, `SELECT seed, score FROM games WHERE candidate_id = ${p.candidate} AND purpose = 'validation' ORDER BY seed LIMIT 1`);
      // The point's file carries its depth: it plays as validated with no flag.
      const played = JSON.parse(runCli(['play', '--player', `network:${out}`, '-n', '1', '-s', String(game.seed), '--json']).stdout) as { depth: number; games: { score: number }[] };
      expect([played.depth, played.games[0].score]).toEqual([p.params.depth, game.score]);
      expect(JSON.parse(readFileSync(out, 'utf8')).name).toMatch(new RegExp(`-run1-p${p.point}-[0-9a-f]{6}$`));
    }
  });

  it('heuristic terms on top: tuned from a start file with heuristic weights; the export plays the tuned heuristic\'s games', () => {
    const start = join(dir, 'start-heuristic.json');
    writeFileSync(start, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'net.bin', sha256: fileSha256(net) }, heuristic: loadWeights('nneonneo') }));
    const db = tempDb();
    const r = runCli(['tune', '-c', config({ space: { start: 'start-heuristic.json', params: { 'stageWeight.1': {}, 'heuristic.empty': { min: 0, max: 1000 } } } }), '--db', db, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const out = join(dir, 'best-heuristic.json');
    expect(runCli(['export', '1', '--db', db, '--out', out]).code).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as { cprob: number; stageWeights?: number[]; heuristic: Weights };
    expect(file.stageWeights?.[0] ?? 1).toBe(1); // only stage 1's weight tuned (all 1: left out of the file)
    expect(file.heuristic.empty).toBeGreaterThanOrEqual(0);
    expect(file.heuristic.empty).toBeLessThanOrEqual(1000);
    expect({ ...file.heuristic, empty: 0, name: '', description: '', source: '', provenance: undefined }).toMatchObject({ ...loadWeights('nneonneo'), empty: 0, name: '', description: '', source: '' });
    const here = createNetworkPlayer({ network: { file: net, sha256: fileSha256(net) }, search: { depth: 1, cprob: file.cprob, stageWeights: file.stageWeights }, heuristic: file.heuristic });
    const played = runCli(['play', '--player', `network:${out}`, '-d', '1', '-n', '2', '-s', '90', '--json']);
    expect(played.code, played.stderr).toBe(0);
    expect((JSON.parse(played.stdout) as { games: { score: number }[] }).games.map((g) => g.score)).toEqual([90, 91].map((s) => playGame(here, s).score));
  });

  it('a heuristic with stages on top: a stage\'s weight is tuned, the other stage\'s kept', () => {
    const start = join(dir, 'start-staged.json');
    writeFileSync(start, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'net.bin', sha256: fileSha256(net) }, heuristic: loadWeights('haskell-staged') }));
    const db = tempDb();
    const r = runCli(['tune', '-c', config({ space: { start: 'start-staged.json', params: { 'heuristic.stages.1.empty': { min: 0, max: 500 } } } }), '--db', db, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const file = JSON.parse(runCli(['export', '1', '--db', db]).stdout) as { heuristic: Weights };
    const [before, after] = [loadWeights('haskell-staged').stages!.list, file.heuristic.stages!.list];
    expect(after[0]).toEqual(before[0]);
    expect(after[1].empty).toBeGreaterThanOrEqual(0);
    expect(after[1].empty).toBeLessThanOrEqual(500);
  });

  it('bad spaces, start files and network player files: one line, exit 2, nothing created', () => {
    const refused = (args: string[], message: string | RegExp) => {
      const r = runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      // A space that does not fit its network is the config's mistake: named with the config, as its other fields are.
      const config = args[args.indexOf('-c') + 1];
      if (typeof message === 'string') expect(r.stderr.trim()).toBe(`tune2048: ${/^(space|fitness)\./.test(message) ? `config "${config}": ` : ''}${message}`);
      else expect(r.stderr).toMatch(message);
    };
    const db = tempDb();
    refused(['tune', '-c', config({ space: { params: { depths: {} } } }), '--db', db], 'space.params: "depths" is not a parameter of this network (did you mean "depth"?) (stageWeight.0, stageWeight.1, cprob, depthRule.deeperAtEmpty, depthRule.shallowerAtEmpty, depth, or heuristic.<weight> with heuristic weights)');
    refused(['tune', '-c', config({ space: { params: { 'stageWeight.2': {} } } }), '--db', db], /"stageWeight\.2" is not a parameter of this network/);
    refused(['tune', '-c', config({ space: { params: { cprob: { min: 0.01 } } } }), '--db', db], 'space.params.cprob: give its "min" and "max"');
    refused(['tune', '-c', config({ fitness: { player: { kind: 'network', file: 'missing.bin' } } }), '--db', db], /missing\.bin/);
    expect(existsSync(db)).toBe(false);

    const wrongCount = join(dir, 'three.json');
    writeFileSync(wrongCount, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'net.bin', sha256: fileSha256(net) }, stageWeights: [1, 1, 1] }));
    refused(['play', '--player', `network:${wrongCount}`, '-n', '1'], `network player file "${wrongCount}": 3 stage weights for a network of 2 stages`);
    const zero = join(dir, 'zero.json');
    writeFileSync(zero, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'net.bin', sha256: fileSha256(net) }, stageWeights: [1, 0] }));
    refused(['play', '--player', `network:${zero}`, '-n', '1'], /field "stageWeights\.1": must be above 0/);
    refused(['tune', '-c', config({ space: { params: { 'depthRule.deeperAtEmpty': { min: 0, max: 20 } } } }), '--db', db], 'space.params.depthRule.deeperAtEmpty: [0, 20] must lie in [-1, 17] (empty cells; -1 or 17: the rule off)');
    const crossed = join(dir, 'crossed.json');
    writeFileSync(crossed, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'net.bin', sha256: fileSha256(net) }, depthRule: { deeperAtEmpty: 5, shallowerAtEmpty: 3 } }));
    refused(['play', '--player', `network:${crossed}`, '-n', '1'], /field "depthRule": shallowerAtEmpty must be above deeperAtEmpty/);
    const half = join(dir, 'half.json');
    writeFileSync(half, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'net.bin', sha256: fileSha256(net) }, depthRule: { deeperAtEmpty: 2.5 } }));
    refused(['play', '--player', `network:${half}`, '-n', '1'], /field "depthRule\.deeperAtEmpty": deeperAtEmpty must be a whole number of empty cells/);
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'net.bin', sha256: '0'.repeat(64) } }));
    refused(['play', '--player', `network:${other}`, '-n', '1'], /names the network ".*net\.bin" with sha256 000000000000…; that file now has [0-9a-f]{12}…/);
    refused(['tune', '-c', config({ space: { start: 'other.json' } }), '--db', db], /space\.start ".*other\.json" is for the network with sha256 000000000000…/);
    refused(['tune', '-c', config({ space: { params: { 'heuristic.empty': { min: 0, max: 10 } } } }), '--db', db], 'space.params: "heuristic.empty": the start has no heuristic weights to tune (space.start: a network player file with "heuristic")');
    const newer = join(dir, 'newer.json');
    writeFileSync(newer, JSON.stringify({ format: 'tune2048/network-player', version: 2, network: { file: 'net.bin', sha256: fileSha256(net) } }));
    refused(['play', '--player', `network:${newer}`, '-n', '1'], /field "version": must be 1 \(this tune2048 reads version 1/);
    expect(existsSync(db)).toBe(false);
  });
});
