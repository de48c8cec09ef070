/**
 * The network under the search (issue 31): expectimax with an n-tuple network at the leaves, in
 * WebAssembly, against a brute-force expectimax over the plain-grid reference; the player built on it
 * (depth 0 is the greedy player; hint's values; auto's depth rule); its games alike in this process and in
 * worker processes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { countEmpty, formatBoard, parseBoard, type Board } from '../src/engine/board';
import { applyMove, DIRECTIONS, DOWN, LEFT, RIGHT, UP } from '../src/engine/moves';
import { buildHeuristicTables, loadableTables, tableHeuristic } from '../src/heuristic/tables';
import { loadWeights, stageOf, stageWeights } from '../src/heuristic/weights';
import { playGame } from '../src/engine/game';
import { NetworkMachine } from '../src/learn/ntuple/machine';
import { referenceChoice, referenceSearchMove, referenceValue, type ReferenceNetwork } from '../src/learn/ntuple/reference';
import { ONE_STAGE, type NetworkShape } from '../src/learn/ntuple/shape';
import { cacheBits } from '../src/player/expectimax';
import { closeNetworkThreads, collectGarbage, createNetworkPlayer, networkHelperTasks, networkMachineFor, networkPlayerSpec } from '../src/player/network-player';
import { writeNetworkFile } from '../src/learn/ntuple/network-file';
import { playerKey } from '../src/player/spec';
import { depthRuleProblem, ruledDepth } from '../src/player/network-settings';
import { createLocalRunner } from '../src/runner/local';
import { playSeeds } from '../src/runner/runner';
import { randomBoards } from './helpers/boards';
import { trainSmallNetwork } from './helpers/network';
import { runCli } from './helpers/cli';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** How a network's players break ties, written out here rather than read from the code under test. */
const TIE_ORDER = [UP, RIGHT, DOWN, LEFT];
const SMALL: NetworkShape = { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [4, 5, 8, 9]], stages: ONE_STAGE, promote: true };
const STAGED: NetworkShape = { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5]], stages: [{ maxTile: [2, 64] }, { maxTile: [128, 256] }, { maxTile: [512, 32768] }], promote: true };

function searchingMachine(shape: NetworkShape, seed: string, bits: number): { m: NetworkMachine; ref: ReferenceNetwork } {
  const m = new NetworkMachine(shape, { threads: 0, trainSeed: 0, evalSeed: 0, step: 0, evalCapacity: 1, searchCacheBits: bits });
  const rng = seedrandom.alea(seed);
  // Seeded entries, a third of them 0 (so promotion reads the stage below), in score-like magnitudes.
  for (const t of m.tables()) for (let i = 0; i < t.length; i++) t[i] = rng() < 0.33 ? 0 : Math.fround(rng() * 2000 - 500);
  return { m, ref: { shape, tables: m.tables().map((t) => Float32Array.from(t)) } };
}

/** Boards of a few empty cells (the brute force is slow) with small and large tiles. */
const fewEmpty = randomBoards('network-search', 400, 0.3, 10).filter((b) => countEmpty(b) >= 1 && countEmpty(b) <= 6);

describe('expectimax with the network at the leaves, against brute force', () => {
  for (const [name, shape] of [['one stage', SMALL], ['three stages with promotion', STAGED]] as const) {
    for (const depth of [1, 2]) {
      for (const cprob of [0, 0.05]) {
        it(`${name}, depth ${depth}, cprob ${cprob}: every root move's value equals the reference's, to the bit, with and without the table`, () => {
          const boards = fewEmpty.slice(0, depth === 1 ? 120 : 30);
          expect(boards.length).toBe(depth === 1 ? 120 : 30);
          for (const bits of [0, cacheBits(4)]) {
            const { m, ref } = searchingMachine(shape, `${name}-${depth}`, bits);
            m.exports.setNetworkSearch(depth, cprob);
            for (const b of boards) {
              for (let dir = 0; dir < 4; dir++) {
                const want = referenceSearchMove(ref, b, dir, depth, cprob);
                const got = m.exports.searchMove(b.lo, b.hi, dir);
                if (Number.isNaN(want)) expect(got).toBeNaN();
                else expect(got).toBe(want);
              }
            }
          }
        });
      }
    }
  }

  it('stage weights: every leaf is its stage\'s weight × the network\'s value, as the reference computes it, to the bit; cleared, the plain values again', () => {
    for (const [shape, weights] of [[SMALL, [1.25]], [STAGED, [0.7, 1.3, 1.1]]] as const) {
      const { m, ref } = searchingMachine(shape, `weights-${weights.length}`, cacheBits(4));
      for (const depth of [0, 1, 2]) {
        m.exports.setNetworkSearch(depth, 0.01);
        for (const b of fewEmpty.slice(0, depth === 2 ? 10 : 40)) {
          weights.forEach((w, k) => m.exports.setStageWeight(k, w));
          for (let dir = 0; dir < 4; dir++) {
            const want = referenceSearchMove(ref, b, dir, depth, 0.01, { stageWeights: weights });
            const got = m.exports.searchMove(b.lo, b.hi, dir);
            if (Number.isNaN(want)) expect(got).toBeNaN();
            else expect(got).toBe(want);
            if (!Number.isNaN(want) && depth > 0) expect(want).not.toBe(referenceSearchMove(ref, b, dir, depth, 0.01)); // the weights matter
          }
          m.exports.clearStageWeights();
          for (let dir = 0; dir < 4; dir++) {
            const want = referenceSearchMove(ref, b, dir, depth, 0.01);
            if (Number.isNaN(want)) expect(m.exports.searchMove(b.lo, b.hi, dir)).toBeNaN();
            else expect(m.exports.searchMove(b.lo, b.hi, dir)).toBe(want);
          }
        }
      }
    }
  });

  it('heuristic terms on top: every leaf adds the weights\' heuristic (row and column tables), with or without stage weights, as the reference computes it, to the bit', () => {
    for (const name of ['nneonneo', 'tuned-d3m']) {
      const tables = buildHeuristicTables(loadWeights(name));
      const loadable = loadableTables(tables);
      const heuristic = (b: Board) => tableHeuristic(tables, b);
      const m = new NetworkMachine(STAGED, { threads: 0, trainSeed: 0, evalSeed: 0, step: 0, evalCapacity: 1, searchCacheBits: cacheBits(4), leafHeuristic: true });
      const { ref } = searchingMachine(STAGED, `heuristic-${name}`, 0);
      m.tables().forEach((t, k) => t.set(ref.tables[k]));
      for (const [depth, boards] of [[0, 30], [1, 30], [2, 6]] as const) {
        m.exports.setNetworkSearch(depth, 0.01);
        for (const b of fewEmpty.slice(0, boards)) {
          for (const stageWeights of [undefined, [0.5, 2, 1.25]]) {
            m.setLeafHeuristic(name, loadable);
            if (stageWeights) stageWeights.forEach((w, k) => m.exports.setStageWeight(k, w));
            else m.exports.clearStageWeights();
            for (let dir = 0; dir < 4; dir++) {
              const want = referenceSearchMove(ref, b, dir, depth, 0.01, { stageWeights, heuristic });
              const got = m.exports.searchMove(b.lo, b.hi, dir);
              if (Number.isNaN(want)) expect(got).toBeNaN();
              else expect(got).toBe(want);
            }
          }
        }
      }
      m.setLeafHeuristic(null, null);
      m.exports.clearStageWeights();
      m.exports.setNetworkSearch(1, 0.01);
      const b = fewEmpty[0];
      for (let dir = 0; dir < 4; dir++) {
        const want = referenceSearchMove(ref, b, dir, 1, 0.01);
        if (Number.isNaN(want)) expect(m.exports.searchMove(b.lo, b.hi, dir)).toBeNaN();
        else expect(m.exports.searchMove(b.lo, b.hi, dir)).toBe(want);
      }
    }
  });

  it('cprob prunes: a cutoff above every path probability leaves depth 2 at the depth-0 values, and fewer nodes', () => {
    const { m, ref } = searchingMachine(SMALL, 'prune', 0);
    const b = fewEmpty[0];
    const nodes = (depth: number, cprob: number) => {
      m.exports.setNetworkSearch(depth, cprob);
      const before = m.exports.searchNodes();
      const values = [0, 1, 2, 3].map((dir) => m.exports.searchMove(b.lo, b.hi, dir));
      return { values, nodes: m.exports.searchNodes() - before };
    };
    const pruned = nodes(2, 2); // every chance node's probability (≤ 1) is below 2
    pruned.values.forEach((v, dir) => {
      const d0 = referenceSearchMove(ref, b, dir, 0, 0);
      if (Number.isNaN(d0)) expect(v).toBeNaN();
      else expect(v).toBe(d0);
    });
    expect(pruned.nodes).toBe(0);
    expect(nodes(2, 0).nodes).toBeGreaterThan(100);
  });

  it('the leaf cache starts afresh at each decision: after the tables change, the values are the new tables\' (the reference\'s), never the old ones kept', () => {
    const { m, ref } = searchingMachine(SMALL, 'leaf-cache', cacheBits(4));
    const boards = fewEmpty.slice(0, 20);
    const searched = () => boards.flatMap((b) => [0, 1, 2, 3].map((dir) => m.exports.searchMove(b.lo, b.hi, dir)));
    const wanted = () => boards.flatMap((b) => [0, 1, 2, 3].map((dir) => referenceSearchMove(ref, b, dir, 2, 0)));
    m.exports.setNetworkSearch(2, 0);
    const before = searched();
    expect(before).toEqual(wanted());
    // Every entry moves (a value read by the last decision's leaves changes), then the next decision begins.
    for (const [k, t] of m.tables().entries()) for (let i = 0; i < t.length; i++) ref.tables[k][i] = t[i] = Math.fround(t[i] * 0.5 + 1);
    m.exports.setNetworkSearch(2, 0);
    const after = searched();
    expect(after).toEqual(wanted());
    expect(after.filter((v, i) => !Number.isNaN(v) && v !== before[i]).length).toBeGreaterThan(boards.length);
  });

  it("kept across decisions (keepLeaves: a network loaded to play), the leaf values are found again by the next decision, and every value stays the reference's", () => {
    const { m, ref } = searchingMachine(SMALL, 'leaf-cache-kept', cacheBits(4));
    const boards = fewEmpty.slice(0, 3);
    const decide = () => {
      m.exports.setNetworkSearch(2, 0);
      const before = m.exports.leafValuesComputed();
      const values = boards.flatMap((b) => [0, 1, 2, 3].map((dir) => m.exports.searchMove(b.lo, b.hi, dir)));
      return { values, computed: m.exports.leafValuesComputed() - before };
    };
    const wanted = boards.flatMap((b) => [0, 1, 2, 3].map((dir) => referenceSearchMove(ref, b, dir, 2, 0)));
    // Forgotten at each decision (the default): the second decision computes its leaves again.
    const first = decide();
    expect(first.values).toEqual(wanted);
    expect(first.computed).toBeGreaterThan(100);
    expect(decide().computed).toBe(first.computed);
    // Kept: the same decisions again find (nearly) all of them; the values are the same to the bit.
    m.keepLeaves();
    decide();
    const again = decide();
    expect(again.values).toEqual(wanted);
    expect(again.computed).toBeLessThan(first.computed / 4);
  });

  it('depth 0 is the greedy choice: reward + value of the best afterstate', () => {
    const { m, ref } = searchingMachine(STAGED, 'greedy', 0);
    m.exports.setNetworkSearch(0, 1e-4);
    for (const b of fewEmpty) {
      const c = referenceChoice(ref, b);
      const values = [0, 1, 2, 3].map((d) => m.exports.searchMove(b.lo, b.hi, d)).filter((v) => !Number.isNaN(v));
      if (!c) expect(values).toEqual([]);
      else expect(Math.max(...values)).toBe(c.reward + c.value);
    }
  });
});

describe('the network player at a depth', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-network-search-'));
  dirs.push(dir);
  const file = join(dir, 'small.bin');
  let trained: ReferenceNetwork;

  it('trains a small network to play with', async () => {
    trained = await trainSmallNetwork(SMALL, file, 7, 400);
  });

  it('decide gives each move its searched value (the reference\'s), and plays the best; depth 0 plays the greedy move', () => {
    const d0 = createNetworkPlayer(networkPlayerSpec(file, { depth: 0, cprob: 1e-4 }));
    const d1 = createNetworkPlayer(networkPlayerSpec(file, { depth: 1, cprob: 1e-4 }));
    for (const b of fewEmpty.slice(0, 60)) {
      const want = [0, 1, 2, 3].map((dir) => referenceSearchMove(trained, b, dir, 1, 1e-4));
      const got = d1.decide!(b);
      got.values.forEach((v, k) => (Number.isNaN(want[k]) ? expect(v).toBeNaN() : expect(v).toBe(want[k])));
      // The best legal move, ties to the earlier of up, right, down, left.
      const best = TIE_ORDER.reduce<number>((a, k) => (!Number.isNaN(want[k]) && (a < 0 || want[k] > want[a]) ? k : a), -1);
      expect(got.move).toBe(best);
      expect(d1.chooseMove(b)).toBe(best);
      const g = d0.decide!(b);
      expect(d0.chooseMove(b)).toBe(g.move);
    }
  });

  it("hint -d 0 gives each move's reward, its afterstate's value (the reference's) and their sum, by which it chooses", () => {
    const board = fewEmpty[3];
    const r = runCli(['hint', '--player', `network:${file}`, '-d', '0', '--json', formatBoard(board)]);
    expect(r.code, r.stderr).toBe(0);
    const hint = JSON.parse(r.stdout) as { best: string; moves: { move: string; legal: boolean; board: string; score: number; value: number | null; afterstate: number | null }[] };
    for (const m of hint.moves) {
      if (!m.legal) {
        expect([m.value, m.afterstate]).toEqual([null, null]);
        continue;
      }
      expect(m.afterstate).toBeCloseTo(referenceValue(trained, parseBoard(m.board)), 3);
      expect(m.value).toBeCloseTo(m.score + m.afterstate!, 6);
    }
    const legal = hint.moves.filter((m) => m.legal);
    expect(hint.best).toBe(legal.reduce((a, b) => (b.value! > a.value! ? b : a)).move);
    expect(runCli(['hint', '--player', `network:${file}`, '-d', '0', formatBoard(board)]).stdout).toMatch(/move\s+legal\s+score\s+afterstate\s+value/);
  });

  it('an untrained network (every entry 0): greedy play, the searched choice and the reference break ties up, right, down, left', () => {
    const zero = join(dir, 'zero.bin');
    writeNetworkFile(zero, SMALL, new NetworkMachine(SMALL, { threads: 0, trainSeed: 0, evalSeed: 0, step: 0, evalCapacity: 1 }).tables());
    const greedy = createNetworkPlayer(networkPlayerSpec(zero, { depth: 0, cprob: 1e-4 }));
    const net: ReferenceNetwork = { shape: SMALL, tables: SMALL.tuples.map((t) => new Float32Array(16 ** t.length)) };
    let unlikeIndexOrder = 0;
    for (const b of randomBoards('ties', 400)) {
      // Every value is 0: the best move is the largest reward, the first of up, right, down, left among equals.
      const moves = DIRECTIONS.map((d) => applyMove(b, d));
      const top = Math.max(...moves.filter((m) => m.legal).map((m) => m.score));
      const want = TIE_ORDER.find((d) => moves[d].legal && moves[d].score === top) ?? -1;
      expect(greedy.chooseMove(b)).toBe(want);
      expect(greedy.decide!(b).move).toBe(want);
      if (want >= 0) expect(referenceChoice(net, b)!.after).toEqual(moves[want].board);
      if (want !== DIRECTIONS.find((d) => moves[d].legal && moves[d].score === top)) unlikeIndexOrder++;
    }
    expect(unlikeIndexOrder).toBeGreaterThan(20); // boards where the order decides
  });

  it('two players of one network at two depths share its tables and keep their own settings', () => {
    const a = createNetworkPlayer(networkPlayerSpec(file, { depth: 1, cprob: 1e-4 }));
    const b = createNetworkPlayer(networkPlayerSpec(file, { depth: 2, cprob: 1e-4 }));
    const board = fewEmpty[3];
    const a1 = a.decide!(board).values;
    b.decide!(board);
    expect(a.decide!(board).values).toEqual(a1);
    expect(b.decide!(board).values).toEqual([0, 1, 2, 3].map((dir) => referenceSearchMove(trained, board, dir, 2, 1e-4)));
  });

  it('a weight of 1 on every stage plays as no weights: the same values to the bit, its leaves through the leaf cache (a weighted search goes around it)', () => {
    const m = networkMachineFor(networkPlayerSpec(file, { depth: 2, cprob: 1e-4 }).network);
    // Boards no other test searched, so their leaves are not in the cache yet: what each player computes is its own.
    const boards = randomBoards('unit-stage-weights', 200, 0.3, 10).filter((b) => countEmpty(b) >= 2 && countEmpty(b) <= 6);
    const searched = (stageWeights: number[] | undefined, from: number) => {
      const player = createNetworkPlayer(networkPlayerSpec(file, { depth: 2, cprob: 1e-4, ...(stageWeights ? { stageWeights } : {}) }));
      const before = m.exports.leafValuesComputed();
      const values = boards.slice(from, from + 8).map((b) => player.decide!(b).values);
      return { values, computed: m.exports.leafValuesComputed() - before };
    };
    const ones = searched([1], 0);
    expect(ones.computed).toBeGreaterThan(0);
    expect(ones.values).toEqual(searched(undefined, 0).values);
    // A weight other than 1 weighs the values and computes them apart from the cache.
    const weighted = searched([1.3], 8);
    expect(weighted.computed).toBe(0);
    expect(weighted.values).not.toEqual(searched(undefined, 8).values);
  });

  it('on threads (the root split over one copy of the tables): the values of one thread to the bit, at depths 1 and 2, with stage weights and heuristic terms too; helpers take root moves; the key is the same', async () => {
    const heuristic = loadWeights('nneonneo');
    for (const extra of [{}, { stageWeights: [1.3] }]) {
      for (const depth of [1, 2]) {
        const one = networkPlayerSpec(file, { depth, cprob: 1e-4, ...extra });
        const two = networkPlayerSpec(file, { depth, cprob: 1e-4, threads: 2, ...extra });
        expect(two.search.threads).toBe(2);
        expect(playerKey(two)).toBe(playerKey(one));
        for (const spec of [(s: typeof one) => s, (s: typeof one) => ({ ...s, heuristic })]) {
          const a = createNetworkPlayer(spec(one));
          const b = createNetworkPlayer(spec(two));
          for (const board of fewEmpty.slice(0, depth === 1 ? 40 : 12)) expect(b.decide!(board)).toEqual(a.decide!(board));
        }
      }
    }
    // Helpers wake for a decision while the caller searches: some root move is theirs within a few decisions.
    const split = createNetworkPlayer(networkPlayerSpec(file, { depth: 2, cprob: 1e-4, threads: 2 }));
    for (let i = 0; networkHelperTasks() === 0; i++) {
      expect(i).toBeLessThan(100_000);
      split.decide!(fewEmpty[i % fewEmpty.length]);
      if (i % 50 === 49) await new Promise((r) => setImmediate(r));
    }
    const game = (threads: number) => ({ ...playGame(createNetworkPlayer(networkPlayerSpec(file, { depth: 1, cprob: 1e-4, ...(threads > 1 ? { threads } : {}) })), 21), ms: 0 });
    expect(game(2)).toEqual(game(1));
    await closeNetworkThreads();
  });

  it('a heuristic with stages on top: each decision adds the terms of its root board\'s stage (as tune2048\'s expectimax), alike on one thread and two', async () => {
    const staged = loadWeights('haskell-staged');
    expect(staged.stages!.list.length).toBe(2);
    const boards = randomBoards('staged-heuristic', 200, 0.3, 12).filter((b) => countEmpty(b) >= 1 && countEmpty(b) <= 6);
    const byStage = [0, 1].map((k) => createNetworkPlayer({ ...networkPlayerSpec(file, { depth: 1, cprob: 1e-4 }), heuristic: stageWeights(staged, k) }));
    const one = createNetworkPlayer({ ...networkPlayerSpec(file, { depth: 1, cprob: 1e-4 }), heuristic: staged });
    const two = createNetworkPlayer({ ...networkPlayerSpec(file, { depth: 1, cprob: 1e-4, threads: 2 }), heuristic: staged });
    const seen = new Set<number>();
    for (const b of boards.slice(0, 60)) {
      const k = stageOf(staged, b);
      seen.add(k);
      const want = byStage[k].decide!(b);
      expect(one.decide!(b)).toEqual(want);
      expect(two.decide!(b)).toEqual(want);
    }
    expect([...seen].sort()).toEqual([0, 1]);
    await closeNetworkThreads();
  });

  it('under a time per move: a budget larger than any search plays the fixed depth, one smaller than depth 1 plays depth 1', () => {
    const d1 = createNetworkPlayer(networkPlayerSpec(file, { depth: 1, cprob: 1e-4 }));
    const d2 = createNetworkPlayer(networkPlayerSpec(file, { depth: 2, cprob: 1e-4 }));
    const large = createNetworkPlayer(networkPlayerSpec(file, { depth: 2, cprob: 1e-4, msPerMove: 1e9 }));
    let t = 0;
    const small = createNetworkPlayer(networkPlayerSpec(file, { depth: 2, cprob: 1e-4, msPerMove: 1 }), () => t++);
    for (const b of fewEmpty.slice(0, 20)) {
      expect(large.decide!(b)).toEqual(d2.decide!(b));
      expect(small.decide!(b)).toEqual(d1.decide!(b));
    }
  });

  it('a depth rule: each decision is the fixed-depth player\'s at the depth the board\'s empty cells give (one deeper when full, one shallower when open); the rule is in the key; a player file carries it', () => {
    const byDepth = [0, 1, 2, 3].map((depth) => createNetworkPlayer(networkPlayerSpec(file, { depth, cprob: 1e-4 })));
    const rule = { deeperAtEmpty: 3, shallowerAtEmpty: 8 };
    const ruled = createNetworkPlayer(networkPlayerSpec(file, { depth: 1, cprob: 1e-4, depthRule: rule }));
    // Boards from full to open, so all three depths are taken.
    const boards = randomBoards('depth-rule', 300, 0.3, 10).filter((b) => countEmpty(b) >= 1 && countEmpty(b) <= 10);
    const seen = new Set<number>();
    for (const b of boards.slice(0, 60)) {
      const e = countEmpty(b);
      const want = e <= 3 ? 2 : e >= 8 ? 0 : 1;
      seen.add(want);
      expect(ruled.decide!(b)).toEqual(byDepth[want].decide!(b));
    }
    expect([...seen].sort()).toEqual([0, 1, 2]);
    // Never below 0: at depth 0 an open board stays greedy; a full one searches depth 1.
    const greedyRuled = createNetworkPlayer(networkPlayerSpec(file, { depth: 0, cprob: 1e-4, depthRule: rule }));
    for (const b of boards.slice(0, 40)) expect(greedyRuled.decide!(b)).toEqual(byDepth[countEmpty(b) <= 3 ? 1 : 0].decide!(b));
    const plain = networkPlayerSpec(file, { depth: 1, cprob: 1e-4 });
    expect(playerKey(networkPlayerSpec(file, { depth: 1, cprob: 1e-4, depthRule: rule }))).not.toBe(playerKey(plain));
    // A network player file's rule reaches the spec (the depth staying the command's).
    const json = join(dir, 'ruled.json');
    writeFileSync(json, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'small.bin', sha256: plain.network.sha256 }, depthRule: rule }));
    expect(networkPlayerSpec(json, { depth: 1, cprob: 1e-4 }).search).toEqual({ depth: 1, cprob: 1e-4, depthRule: rule });
    // compare's table names the rule beside the depth, as play does, and tile-downgrading (two players alike but for it were one
    // label); a tuned file's own cutoff to 3 significant digits (the file plays it exactly).
    const downgrading = join(dir, 'ruled-down.json');
    writeFileSync(downgrading, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'small.bin', sha256: plain.network.sha256 }, cprob: 0.048006368879519125, depthRule: rule, downgradeAt: 2048 }));
    const compared = runCli(['compare', `network:${json}@d1`, `network:${downgrading}@d1`, `network:${file}@d1`, '-n', '2', '-s', '1', '--workers', '1']);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toContain('ruled.json@d1 (+ depth rule: deeper at ≤ 3 empty, shallower at ≥ 8 empty)');
    expect(compared.stdout).toContain('ruled-down.json@d1@c0.048 (+ depth rule: deeper at ≤ 3 empty, shallower at ≥ 8 empty; tile-downgrading at 2048)');
    // The pair table names them without the rule's words (the table above gives them; four such players made 200-character lines).
    expect(compared.stdout).toMatch(/^ruled\.json@d1 − ruled-down\.json@d1@c0\.048 /m);
    expect(compared.stdout).toMatch(/^ruled-down\.json@d1@c0\.048 − small\.bin@d1 /m);
    const played = runCli(['play', '--player', `network:${downgrading}`, '-d', '1', '-n', '1', '-s', '1', '--workers', '1']);
    expect(played.code, played.stderr).toBe(0);
    expect(played.stdout).toContain('(depth 1 + its depth rule + tile-downgrading at 2048, seeds 1..1)');
  });

  it('three networks played in turn: the process keeps two, and a forgotten one\'s memory is handed back (a compare of three networks grew past 10 GB a worker)', async () => {
    // Three networks of other tables (other hashes); players built once and used in turn, as a worker's cached players are.
    const files = [0, 1, 2].map((k) => {
      const f = join(dir, `turn-${k}.bin`);
      const m = new NetworkMachine(SMALL, { threads: 0, trainSeed: 0, evalSeed: 0, step: 0, evalCapacity: 1 });
      const rng = seedrandom.alea(`turn-${k}`);
      for (const t of m.tables()) for (let i = 0; i < t.length; i++) t[i] = Math.fround(rng() * 100);
      writeNetworkFile(f, SMALL, m.tables());
      return f;
    });
    const specs = files.map((f) => networkPlayerSpec(f, { depth: 1, cprob: 1e-4 }));
    const players = specs.map((spec) => createNetworkPlayer(spec));
    const board = fewEmpty[0];
    const first = players.map((p) => p.decide!(board));
    // Every machine a decision used (the one just looked up is that decision's), held weakly.
    const used: WeakRef<object>[] = [];
    for (let round = 0; round < 12; round++) {
      // Each decision equals the first one of its network (read again when it was forgotten).
      players.forEach((p, k) => {
        expect(p.decide!(board)).toEqual(first[k]);
        const machine = networkMachineFor(specs[k].network);
        if (!used.some((r) => r.deref() === machine)) used.push(new WeakRef(machine));
      });
      await new Promise((r) => setImmediate(r));
    }
    expect(used.length).toBeGreaterThan(3); // networks were forgotten and read again
    await new Promise((r) => setImmediate(r));
    collectGarbage();
    await new Promise((r) => setImmediate(r));
    expect(used.filter((r) => r.deref() !== undefined).length).toBeLessThanOrEqual(2);
  });

  it('ruledDepth: one deeper at or below the full threshold, one shallower at or above the open one, within 0 and the maximum', () => {
    for (let e = 0; e <= 16; e++) {
      for (const d of [0, 1, 2, 6]) {
        expect(ruledDepth(d, e, undefined, 6)).toBe(d);
        expect(ruledDepth(d, e, { deeperAtEmpty: 2 }, 6)).toBe(e <= 2 ? Math.min(6, d + 1) : d);
        expect(ruledDepth(d, e, { shallowerAtEmpty: 9 }, 6)).toBe(e >= 9 ? Math.max(0, d - 1) : d);
      }
    }
    expect(depthRuleProblem({ deeperAtEmpty: 4, shallowerAtEmpty: 4 })).toMatch(/shallowerAtEmpty \(4\) must be above deeperAtEmpty \(4\)/);
    expect(depthRuleProblem({ deeperAtEmpty: 4, shallowerAtEmpty: 5 })).toBeNull();
  });

  it('sweep plays it at each depth (the same games as play at that depth)', () => {
    const r = runCli(['sweep', `network:${file}`, '--depths', '0,1', '-n', '3', '--seed', '40', '--workers', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { depths: { depth: number; summary: { meanScore: number } }[] }).depths;
    const played = (depth: number) => [40, 41, 42].map((seed) => playGame(createNetworkPlayer(networkPlayerSpec(file, { depth, cprob: 1e-4 })), seed).score);
    rows.forEach((row) => expect(row.summary.meanScore).toBeCloseTo(played(row.depth).reduce((a, b) => a + b, 0) / 3, 9));
    expect(rows.map((x) => x.depth)).toEqual([0, 1]);
  });

  it('bench --network times its search at depth 0 and each depth asked', () => {
    const r = runCli(['bench', '--network', file, '--depths', '1', '--passes', '1', '--games', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const n = (JSON.parse(r.stdout) as { network: { search: { depth: number; msPerMove: number; nodesPerMove: number }[] } }).network.search;
    expect(n.map((x) => x.depth)).toEqual([0, 1]);
    expect(n[0].nodesPerMove).toBe(0); // greedy: no node searched
    // How well the nodes a search counts predict its time, position by position (the cost a two-objective run would use).
    const cost = (JSON.parse(r.stdout) as { cost: { search: { samples: number; r2: number; nsPerNode: number }; network: { samples: number; r2: number; nsPerNode: number } } }).cost;
    for (const f of [cost.search, cost.network]) {
      expect(f.samples).toBe(50); // the 50 bench positions at depth 1
      expect(f.r2).toBeGreaterThanOrEqual(0);
      expect(f.r2).toBeLessThanOrEqual(1);
      expect(f.nsPerNode).toBeGreaterThan(0);
    }
    expect(n[1].nodesPerMove).toBeGreaterThan(1);
    for (const x of n) expect(x.msPerMove).toBeGreaterThan(0);
    // --threads also times the root split, interleaved with one thread, from depth 1.
    const t = runCli(['bench', '--network', file, '--depths', '1', '--passes', '1', '--games', '1', '--threads', '2', '--json']);
    expect(t.code, t.stderr).toBe(0);
    const split = (JSON.parse(t.stdout) as { network: { search: { depth: number; split?: { threads: number; msPerMove: number; speedup: number } }[] } }).network.search;
    expect(split[0].split).toBeUndefined();
    expect(split[1].split!.threads).toBe(2);
    expect(split[1].split!.msPerMove).toBeGreaterThan(0);
    expect(split[1].split!.speedup).toBeGreaterThan(0);
    expect(runCli(['bench', '--threads', '2']).stderr.trim()).toBe("tune2048: --threads times a network's root split: give the network with --network FILE");
  });

  it('a truncated, damaged or folder network is refused before any game, by every command: one line, exit 2, no database made', () => {
    const bytes = readFileSync(file);
    const truncated = join(dir, 'trunc.bin');
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 1000));
    const damaged = join(dir, 'damaged.bin');
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 5000] ^= 1;
    writeFileSync(damaged, flipped);
    const db = join(dir, 'never.sqlite');
    const cases: [string[], RegExp][] = [
      [['compare', `network:${truncated}`, 'nneonneo', '-n', '2', '--db', db], /network file ".*trunc\.bin" is \d+ bytes; its shape .* needs \d+: truncated or of another shape/],
      [['compare', 'nneonneo', `network:${damaged}@d1`, '-n', '2', '--db', db], /network file ".*damaged\.bin" fails its checksum \(CRC-32\): the file is damaged/],
      [['compare', `network:${dir}`, 'nneonneo', '-n', '2', '--db', db], /is a folder, not a network file/],
      [['bench', '--network', truncated, '--depths', '1', '--passes', '1', '--games', '1'], /truncated or of another shape/],
      [['play', '--player', `network:${damaged}`, '-n', '1'], /fails its checksum/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(existsSync(db)).toBe(false);
    }
  });

  it('learn player-file writes a player file that plays as printed; unknown keys are refused; hint and play say the depth searched, the file and the network', () => {
    const rule = join(dir, 'rule.json');
    const w = runCli(['learn', 'player-file', file, '-o', rule, '--deeper-at-empty', '2', '--downgrade-at', '16384']);
    expect(w.code, w.stderr).toBe(0);
    const written = JSON.parse(readFileSync(rule, 'utf8'));
    expect(written).toEqual({ format: 'tune2048/network-player', version: 1, network: { file: 'small.bin', sha256: networkPlayerSpec(file, { depth: 0, cprob: 1e-4 }).network.sha256 }, depthRule: { deeperAtEmpty: 2 }, downgradeAt: 16384 });
    const next = /^next: tune2048 (.*)$/m.exec(w.stdout)![1].split(' ');
    const played = runCli([...next.map((a) => (a === '100' ? '2' : a))]);
    expect(played.code, played.stderr).toBe(0);
    expect(played.stdout).toMatch(/^rule\.json \(network small\.bin\) \(depth 1 \+ its depth rule \+ tile-downgrading at 16384, seeds 1000000\.\.1000001\): 2 games$/m);
    // A full board: the rule searches one layer deeper, and hint says so.
    const full = runCli(['hint', '--player', `network:${rule}`, '-d', '1', '2 4 8 16/32 64 128 256/2 4 8 16/0 0 2 4', '--json']);
    expect(JSON.parse(full.stdout).depth).toBe(2);
    const open = runCli(['hint', '--player', `network:${rule}`, '-d', '1', '2 4 0 0/0 0 0 0/0 0 0 0/0 0 2 4']);
    expect(open.stdout).toMatch(/\(depth 1\)/);
    // A misspelt key would have been played without: it is refused, named.
    for (const [key, value] of [['depthrule', { deeperAtEmpty: 2 }], ['cprb', 0.001]] as const) {
      const bad = join(dir, `bad-${key}.json`);
      writeFileSync(bad, JSON.stringify({ ...written, [key]: value }));
      const r = runCli(['play', '--player', `network:${bad}`, '-n', '1']);
      expect([r.code, r.stderr.trim()]).toEqual([2, `tune2048: network player file "${bad}": top level: unknown key(s) "${key}"`]);
    }
    // The network given as weights, or weights beside a network: one line that says what to do.
    const asWeights = runCli(['play', '--weights', file, '-n', '1']);
    expect([asWeights.code, asWeights.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(asWeights.stderr).toMatch(/is a tune2048 network or line-table file, not JSON: a network plays as --player network:/);
    const both = runCli(['play', '--player', `network:${file}`, '--weights', 'nneonneo', '-n', '1']);
    expect([both.code, both.stderr.trim()]).toEqual([2, `tune2048: --weights and --player network:${file} exclude each other: the network plays on its own (heuristic terms on it go in a network player file, docs/networks.md)`]);
    const badRule = runCli(['learn', 'player-file', file, '-o', join(dir, 'x.json'), '--deeper-at-empty', '5', '--shallower-at-empty', '3']);
    expect([badRule.code, existsSync(join(dir, 'x.json'))]).toEqual([2, false]);
  });

  it('the depth is part of the player\'s key: games at two depths are never taken for each other', () => {
    const k1 = playerKey(networkPlayerSpec(file, { depth: 1, cprob: 1e-4 }));
    expect(k1).not.toBe(playerKey(networkPlayerSpec(file, { depth: 2, cprob: 1e-4 })));
    expect(k1).not.toBe(playerKey(networkPlayerSpec(file, { depth: 1, cprob: 1e-3 })));
  });

  it('worker processes play the games this process plays, seed for seed (the tables loaded once per process)', async () => {
    const spec = networkPlayerSpec(file, { depth: 1, cprob: 1e-4 });
    const player = createNetworkPlayer(spec);
    const seeds = [11, 12, 13, 14, 15, 16];
    const here = seeds.map((s) => playGame(player, s));
    const runner = createLocalRunner({ workers: 2 });
    try {
      const played = await playSeeds(runner, spec, seeds, 2);
      expect(played.map((g) => [g.seed, g.score, g.moves, g.maxTile])).toEqual(here.map((g, i) => [seeds[i], g.score, g.moves, g.maxTile]));
    } finally {
      await runner.end();
    }
  });
});
