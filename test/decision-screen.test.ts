/**
 * The decision screen's parts (src/player/decision-screen.ts): the decisions of a game are the game's own, a
 * regret is the judge's best value minus the played move's as brute-force expectimax over the network computes
 * them, and Spearman's correlation is scipy's (ties averaged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeededGame, playGame } from '../src/engine/game';
import { legalMoves, type Direction } from '../src/engine/moves';
import { buildHeuristicTables } from '../src/heuristic/tables';
import { loadWeights } from '../src/heuristic/weights';
import { referenceSearchMove, type ReferenceNetwork } from '../src/learn/ntuple/reference';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { createNetworkPlayer, fileSha256 } from '../src/player/network-player';
import { judgeDecisions, ownGameDecisions, regretOf } from '../src/player/decision-screen';
import { playSpecGame } from '../src/player/players';
import type { NetworkPlayerSpec } from '../src/player/spec';
import { Store } from '../src/store/store';
import { parseConfig } from '../src/tuner/config/config';
import { createRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
import { spearman } from '../src/util/stats';
import { trainSmallNetwork } from './helpers/network';
import { all, dumpRun, tempDb, tuneToEnd } from './helpers/runs';
import { runCli } from './helpers/cli';
import { finalistTable } from '../src/report/finalist-table';
import { describeModel } from '../src/tuner/optimizers/optimizer';

describe('a game\'s decisions', () => {
  it('are the game playGame plays, every k-th decision kept with the board it was made on', () => {
    const player = createExpectimaxPlayer(buildHeuristicTables(loadWeights('nneonneo')), { depth: 0 });
    for (const every of [1, 7]) {
      const { decisions, game } = ownGameDecisions(player, 4242, every);
      const plain = playGame(player, 4242);
      expect({ score: game.score, moves: game.moves }).toEqual({ score: plain.score, moves: plain.moves });
      expect(decisions.length).toBe(Math.ceil(game.moves / every));
      // Replayed move by move: the kept boards are the boards of moves 0, k, 2k, …, and their moves the player's.
      const replay = new SeededGame(4242);
      for (let i = 0; i < game.moves; i++) {
        const move = player.chooseMove(replay.board) as Direction;
        if (i % every === 0) expect(decisions[i / every]).toEqual({ board: replay.board, move });
        replay.play(move);
      }
    }
  });
});

describe('a decision\'s regret', () => {
  it('is the best value less the played move\'s; an illegal played move is an error', () => {
    const board = new SeededGame(1).board;
    expect(regretOf({ board, move: 1 }, { move: 2, values: [NaN, 5, 7.5, 3] })).toBe(2.5);
    expect(regretOf({ board, move: 2 }, { move: 2, values: [NaN, 5, 7.5, 3] })).toBe(0);
    expect(() => regretOf({ board, move: 0 }, { move: 2, values: [NaN, 5, 7.5, 3] })).toThrow(/illegal/);
  });

  it('is none where the judge is the player itself, and a random mover\'s is larger than a searching one\'s', () => {
    const searcher = createExpectimaxPlayer(buildHeuristicTables(loadWeights('nneonneo')), { depth: 1, cprob: 0.001 });
    const own = judgeDecisions(ownGameDecisions(searcher, 77, 3).decisions, searcher);
    expect(own.positions).toBeGreaterThan(50);
    expect(own.regrets.every((r) => r === 0)).toBe(true);
    expect(own.agreement).toBe(1);
    let state = 12345;
    const random = { chooseMove: (b: Parameters<typeof legalMoves>[0]) => { const ms = legalMoves(b); state = (state * 1103515245 + 12345) % 2 ** 31; return ms.length ? ms[state % ms.length] : -1; } };
    const judge = createExpectimaxPlayer(buildHeuristicTables(loadWeights('nneonneo')), { depth: 2, cprob: 0.001 });
    const randomScore = judgeDecisions(ownGameDecisions(random as never, 77, 1).decisions, judge);
    const searchScore = judgeDecisions(ownGameDecisions(searcher, 77, 3).decisions, judge);
    expect(randomScore.regrets.every((r) => r >= 0) && searchScore.regrets.every((r) => r >= 0)).toBe(true);
    expect(randomScore.low).toBeGreaterThan(searchScore.high);
  });
});

describe('a network judged by itself searched deeper', () => {
  let dir: string;
  let ref: ReferenceNetwork;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'screen-'));
    file = join(dir, 'net.bin');
    ref = await trainSmallNetwork({ tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 4, 8, 12], [1, 5, 9, 13]], stages: [{ maxTile: [2, 32768] }], promote: false }, file, 3, 200);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every regret equals the one brute-force expectimax over the same tables gives', () => {
    const network = { file, sha256: fileSha256(file) };
    const player = createNetworkPlayer({ network, search: { depth: 0, cprob: 0.0001 } });
    const judge = createNetworkPlayer({ network, search: { depth: 1, cprob: 0.01 } });
    const { decisions } = ownGameDecisions(player, 9, 25);
    expect(decisions.length).toBeGreaterThan(4);
    const screened = judgeDecisions(decisions, judge);
    decisions.forEach((d, k) => {
      const values = [0, 1, 2, 3].map((dir) => referenceSearchMove(ref, d.board, dir, 1, 0.01));
      const best = Math.max(...values.filter((v) => !Number.isNaN(v)));
      expect(screened.regrets[k]).toBe(best - values[d.move]);
    });
    // A greedy player is not a depth-1 search: somewhere they differ, and there the regret is positive.
    expect(screened.regrets.some((r) => r > 0)).toBe(true);
    expect(screened.agreement).toBeLessThan(1);
  });

  it('a screened game (fitness.screen) is the unscreened game — moves, score, positions — with the judge\'s mean regret over its sampled decisions', () => {
    const network = { file, sha256: fileSha256(file) };
    for (const search of [{ depth: 0, cprob: 0.0001 }, { depth: 1, cprob: 0.0001, depthRule: { deeperAtEmpty: 2 } }]) {
      const plain: NetworkPlayerSpec = { kind: 'network', network, search };
      const screened: NetworkPlayerSpec = { ...plain, screen: { depth: 2, cprob: 0.01, every: 7 } };
      const a = playSpecGame(plain, 31, () => createNetworkPlayer(plain));
      const b = playSpecGame(screened, 31, () => createNetworkPlayer(screened));
      const { ms: _a, ...unscreened } = a;
      const { ms: _b, regret, ...rest } = b;
      expect(rest).toEqual(unscreened);
      expect(unscreened.nodes ?? 0).toBeGreaterThan(search.depth > 0 ? 0 : -1);
      // The reference: the same game's every 7th decision, judged afresh.
      const judge = createNetworkPlayer({ network, search: { depth: 2, cprob: 0.01 } });
      const reference = judgeDecisions(ownGameDecisions(createNetworkPlayer(plain), 31, 7).decisions, judge);
      expect(regret).toBeCloseTo(reference.meanRegret, 9);
      expect(regret).toBeGreaterThan(0);
    }
  });

  /** A screened run of the depth rule on the small network: GA, two generations. */
  const screenedConfig = (extra: object = {}) =>
    parseConfig({
      seed: 4,
      space: { start: 'defaults', params: { 'depthRule.deeperAtEmpty': { min: -1, max: 4 }, 'depthRule.shallowerAtEmpty': { min: 4, max: 17 } } },
      optimizer: { population: 4, generations: 2, elitism: 1, tournament: 2 },
      fitness: { games: 2, depth: 1, player: { kind: 'network', file }, screen: { depth: 3, every: 25 }, ...extra },
      validation: { finalists: 2, games: 2 },
      pool: { batchGames: 1 },
    });

  it('a screened run ranks candidates by regret: fitness games keep theirs, a fitness is minus their mean; held-out games are scores; one worker or two, stopped or not, the same rows', async () => {
    const db = tempDb();
    const { id, outcome } = await tuneToEnd(db, screenedConfig(), { workers: 2 });
    expect(outcome.status).toBe('finished');
    const games = all<{ candidate_id: number; purpose: string; regret: number | null; score: number }>(db, 'SELECT candidate_id, purpose, regret, score FROM games');
    const fitnessGames = games.filter((g) => g.purpose === "fitness");
    expect(fitnessGames.filter((g) => !(g.regret !== null && g.regret >= 0))).toEqual([]);
    expect(games.filter((g) => g.purpose !== 'fitness').every((g) => g.regret === null)).toBe(true);
    for (const c of all<{ id: number; fitness: number; validation: number | null }>(db, 'SELECT id, fitness, validation FROM candidates WHERE fitness IS NOT NULL')) {
      const own = games.filter((g) => g.candidate_id === c.id && g.purpose === 'fitness');
      if (own.length > 0) expect(c.fitness).toBeCloseTo(-own.reduce((s, g) => s + g.regret!, 0) / own.length, 9);
      const held = games.filter((g) => g.candidate_id === c.id && g.purpose === 'validation');
      if (c.validation !== null) expect(c.validation).toBeCloseTo(held.reduce((s, g) => s + g.score, 0) / held.length, 6);
    }
    // show says what its fitness is; the finalists' table (report, dashboard) gives regrets as regrets.
    const shown = runCli(['show', String(id), '--db', db]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("(screened: a fitness is minus the mean regret of a candidate's decisions, every 25th judged by the network at depth 3; held-out figures are scores)");
    const [headers, rows] = finalistTable([{ id: 7, generation: 1, origin: 'offspring', fitness: -6.125, validation: 1234, games: 2, predicted: { mean: -6.5, sd: 0.5 }, confirmation: null }], true);
    expect(headers).toContain('regret (in-sample)');
    expect(rows[0]).toContain('6.13');
    expect(rows[0]).toContain('6.50 ± 0.98');
    // The generation line's model prediction: a regret keeps its decimals (a score stays whole).
    expect(describeModel({ decision: 'its point 4 games', predicted: { mean: -6.5, se: 0.5, gain: 0, gainSe: 0, lackOfFit: 1, misfit: false } })).toBe('its point 4 games: predicted -6.50 ± 0.98 (95 %)');
    expect(describeModel({ decision: 'its point 4 games', predicted: { mean: 281746.4, se: 5000, gain: 0, gainSe: 0, lackOfFit: 1, misfit: false } })).toBe('its point 4 games: predicted 281,746 ± 9,800 (95 %)');
    const one = tempDb();
    const again = await tuneToEnd(one, screenedConfig(), { workers: 1 });
    expect(dumpRun(one, again.id)).toEqual(dumpRun(db, id));
    // Stopped after its first few games, then resumed: the same rows.
    const stopped = tempDb();
    const store = Store.open(stopped);
    const runId = createRun(store, screenedConfig(), 'test');
    const tuner: Tuner = new Tuner(store, runId, { workers: 2, onProgress: (p) => p.done >= 3 && tuner.stop() });
    expect((await tuner.run(false)).status).toBe('stopped');
    store.close();
    await tuneToEnd(stopped, screenedConfig(), {}, runId);
    expect(dumpRun(stopped, runId)).toEqual(dumpRun(db, id));
  });

  it('refuses a screen it cannot judge by: not a network, no fixed depth, another objective, a judge not deeper than the space', () => {
    const base = { seed: 1, space: { start: 'nneonneo', params: { empty: { min: 0, max: 10 } } }, optimizer: { population: 4, generations: 1 } };
    expect(() => parseConfig({ ...base, fitness: { depth: 1, screen: { depth: 3 } } })).toThrow(/fitness\.screen": the decision screen judges a learned network.s settings/);
    const net = { seed: 1, space: { start: 'defaults', params: { cprob: { min: 0.001, max: 0.01 } } }, optimizer: { population: 4, generations: 1 } };
    expect(() => parseConfig({ ...net, fitness: { depth: 'auto', player: { kind: 'network', file }, screen: { depth: 3 } } })).toThrow(/needs a fixed fitness\.depth/);
    expect(() => parseConfig({ ...net, fitness: { depth: 1, objective: 'reach-rate', player: { kind: 'network', file }, screen: { depth: 3 } } })).toThrow(/ranks candidates by regret in place of the score/);
    expect(() => parseConfig({ ...net, fitness: { depth: 2, player: { kind: 'network', file }, screen: { depth: 1 } } })).toThrow(/depth 1 judges from below: candidates of this space search to depth 2; the judge needs at least 2/);
    const ruled = { ...net, space: { start: 'defaults', params: { 'depthRule.deeperAtEmpty': { min: -1, max: 3 } } } };
    expect(() => parseConfig({ ...ruled, fitness: { depth: 2, player: { kind: 'network', file }, screen: { depth: 2 } } })).toThrow(/search to depth 3; the judge needs at least 3/);
    expect(parseConfig({ ...ruled, fitness: { depth: 2, player: { kind: 'network', file }, screen: { depth: 3 } } }).fitness.screen).toEqual({ depth: 3, cprob: 1e-4, every: 20 });
  });
});

describe('Spearman\'s rank correlation', () => {
  it('matches scipy.stats.spearmanr, ties averaged', () => {
    // scipy 1.x: spearmanr([1,2,2,3,5,7], [2,1,4,4,3,9]).statistic
    expect(spearman([1, 2, 2, 3, 5, 7], [2, 1, 4, 4, 3, 9])).toBeCloseTo(0.6617647058823529, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
  });
});
