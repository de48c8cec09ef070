/**
 * The decision screen's parts (src/tuner/decision-screen.ts): the decisions of a game are the game's own, a
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
import { judgeDecisions, ownGameDecisions, regretOf } from '../src/tuner/decision-screen';
import { spearman } from '../src/util/stats';
import { trainSmallNetwork } from './helpers/network';

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
});

describe('Spearman\'s rank correlation', () => {
  it('matches scipy.stats.spearmanr, ties averaged', () => {
    // scipy 1.x: spearmanr([1,2,2,3,5,7], [2,1,4,4,3,9]).statistic
    expect(spearman([1, 2, 2, 3, 5, 7], [2, 1, 4, 4, 3, 9])).toBeCloseTo(0.6617647058823529, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
  });
});
