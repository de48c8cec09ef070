/**
 * N-tuple networks (issue 30): the WebAssembly network and trainer against the slow plain-grid reference
 * (values on thousands of boards, single TD steps and whole training games to the bit, stages with
 * promotion, late starts), its greedy games against the engine's own game loop, two threads, the shapes
 * and network files a user can get wrong.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import seedrandom from 'seedrandom';
import { boardFromRanks, type Board } from '../src/engine/board';
import { playGame } from '../src/engine/game';
import { applyMove, type Direction } from '../src/engine/moves';
import { parseLearnConfig } from '../src/learn/config';
import { instantiateLearn, NetworkMachine } from '../src/learn/ntuple/machine';
import { readNetworkFile, readNetworkShape, writeNetworkFile } from '../src/learn/ntuple/network-file';
import { referenceGame, referenceUpdate, referenceValue, symmetries, type ReferenceLearning, type ReferenceNetwork } from '../src/learn/ntuple/reference';
import { checkShape, DEFAULT_TUPLES, LINE_TUPLES, ONE_STAGE, tupleRuns, type NetworkShape } from '../src/learn/ntuple/shape';
import { NetworkTraining } from '../src/learn/ntuple/training';
import { emptyNetwork, networkValue as lineValue } from '../src/learn/line-network';
import { createNetworkPlayer, networkPlayerSpec } from '../src/player/network-player';
import { randomBoards } from './helpers/boards';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'tune2048-ntuple-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const SMALL: NetworkShape = { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [4, 5, 8, 9]], stages: ONE_STAGE, promote: true };
/** Tuples of every kind of run: scattered cells (4 runs), a reversed order, a single cell, a column. */
const ODD: NetworkShape = { tuples: [[0, 5, 10, 15], [3, 2, 1], [7], [1, 5, 9, 13], [6, 7, 8]], stages: ONE_STAGE, promote: true };
/** Stages that real games reach within a few hundred moves (largest tile up to 64, 128–256, 512 and above). */
const STAGED: NetworkShape = { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5]], stages: [{ maxTile: [2, 64] }, { maxTile: [128, 256] }, { maxTile: [512, 32768] }], promote: true };

function machine(shape: NetworkShape, options: Partial<ConstructorParameters<typeof NetworkMachine>[1]> = {}): NetworkMachine {
  return new NetworkMachine(shape, { threads: 1, trainSeed: 0, evalSeed: 0, step: 0.1 / (8 * shape.tuples.length), evalCapacity: 16, ...options });
}

/** The reference's copy of a machine's tables (the same numbers, its own arrays). */
function referenceOf(m: NetworkMachine): ReferenceNetwork {
  return { shape: m.shape, tables: m.tables().map((t) => Float32Array.from(t)) };
}

/** Fills every table with seeded random entries; with `zeros`, a share of them 0 (promotion reads below those). */
function randomize(m: NetworkMachine, seed: string, zeros = 0): void {
  const rng = seedrandom.alea(seed);
  for (const t of m.tables()) for (let i = 0; i < t.length; i++) t[i] = rng() < zeros ? 0 : Math.fround((rng() - 0.5) * 1000);
}

const boards = randomBoards('ntuple-values', 3000, 0.35, 13);
const bigTiles = randomBoards('ntuple-big', 500, 0.2, 15);

describe('the network against the plain-grid reference', () => {
  it('the 8 symmetric grids are the dihedral group: all distinct on an asymmetric board, and each one of them', () => {
    const b = boardFromRanks([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]);
    const keys = symmetries(b).map((g) => g.flat().join(','));
    expect(new Set(keys).size).toBe(8);
  });

  it('tuples become runs of consecutive cells', () => {
    expect(tupleRuns([0, 1, 2, 3, 4, 5])).toEqual([{ shift: 0, mask: 0xffffff, to: 0 }]);
    expect(tupleRuns([0, 1, 2, 4, 5, 6])).toEqual([{ shift: 0, mask: 0xfff, to: 0 }, { shift: 16, mask: 0xfff, to: 12 }]);
    expect(tupleRuns([3, 2, 1]).length).toBe(3);
  });

  for (const [name, shape] of [['4×4-tuples', SMALL], ['odd tuples (many runs, one cell, reversed)', ODD]] as const) {
    it(`${name}: the value of ${boards.length + bigTiles.length} boards equals the reference`, () => {
      const m = machine(shape);
      randomize(m, name);
      const ref = referenceOf(m);
      expect(boards.length + bigTiles.length).toBe(3500);
      for (const b of [...boards, ...bigTiles]) expect(m.exports.value(b.lo, b.hi)).toBe(referenceValue(ref, b));
    });
  }

  it('the default 4×6-tuple network: values equal the reference on 1,000 boards', () => {
    const m = machine({ tuples: DEFAULT_TUPLES, stages: ONE_STAGE, promote: true });
    randomize(m, 'default');
    const ref = referenceOf(m);
    for (const b of boards.slice(0, 1000)) expect(m.exports.value(b.lo, b.hi)).toBe(referenceValue(ref, b));
  });

  it('the default four 6-tuples have a path of their own (constant masks): in two stages with promotion, and in another order (the runs), values and TD steps equal the reference', () => {
    // Entries from a quick generator (seedrandom over 2 × 67 M entries takes too long); one in 20 is 0, so promotion reads below.
    const quickFill = (m: NetworkMachine, seed: number) => {
      let x = seed >>> 0 || 1;
      for (const t of m.tables())
        for (let i = 0; i < t.length; i++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          t[i] = (x >>> 0) % 20 === 0 ? 0 : Math.fround(((x >>> 0) / 2 ** 32 - 0.5) * 1000);
        }
    };
    const twoStages: NetworkShape = { tuples: DEFAULT_TUPLES, stages: [{ maxTile: [2, 256] }, { maxTile: [512, 32768] }], promote: true };
    const reordered: NetworkShape = { tuples: [...DEFAULT_TUPLES].reverse(), stages: ONE_STAGE, promote: true };
    const sample = [...boards.slice(0, 400), ...bigTiles.slice(0, 200)];
    for (const [k, shape] of [twoStages, reordered].entries()) {
      const m = machine(shape);
      quickFill(m, 77 + k);
      const ref = referenceOf(m);
      for (const b of sample) expect(m.exports.value(b.lo, b.hi)).toBe(referenceValue(ref, b));
      const rng = seedrandom.alea(`four-six-${k}`);
      for (const b of sample.slice(0, 150)) {
        const target = (rng() - 0.3) * 50000;
        m.exports.tdStep(b.lo, b.hi, target, 0.01);
        referenceUpdate(ref, b, target, 0.01);
      }
      for (const b of sample) expect(m.exports.value(b.lo, b.hi)).toBe(referenceValue(ref, b));
    }
  });

  // Half the entries 0 (nearly every value goes down a stage), or one in 500 (most values of a later stage read no 0: its fast path).
  for (const zeros of [0.5, 0.002]) it(`stages with promotion, ${zeros * 100} % of entries 0: a 0 entry in a later stage reads the stage below, for values and updates`, () => {
    const m = machine(STAGED);
    randomize(m, 'staged', zeros);
    const ref = referenceOf(m);
    for (const b of [...boards.slice(0, 1500), ...bigTiles]) expect(m.exports.value(b.lo, b.hi)).toBe(referenceValue(ref, b));
    // Single TD steps, one after the other, to the bit.
    const rng = seedrandom.alea('steps');
    for (const b of [...boards.slice(0, 300), ...bigTiles.slice(0, 100)]) {
      const target = (rng() - 0.3) * 50000;
      m.exports.tdStep(b.lo, b.hi, target, 0.01);
      referenceUpdate(ref, b, target, 0.01);
    }
    m.tables().forEach((t, k) => expect(Buffer.from(t.buffer, t.byteOffset, t.byteLength).equals(Buffer.from(ref.tables[k].buffer))).toBe(true));
  });

  it('the line network is the shape {[0,1,2,3], [4,5,6,7]}: the same value as src/learn/line-network.ts', () => {
    const m = machine({ tuples: LINE_TUPLES, stages: ONE_STAGE, promote: false });
    randomize(m, 'lines');
    const net = emptyNetwork();
    net.outer.set(m.table(0, 0));
    net.inner.set(m.table(0, 1));
    for (const b of boards.slice(0, 1000)) expect(m.exports.value(b.lo, b.hi)).toBeCloseTo(lineValue(net, b.lo, b.hi), 6);
  });
});

describe('training against the reference, to the bit', () => {
  /** Trains `games` games from game 0 in WebAssembly (one thread, on this thread) and in the reference. */
  function trainBoth(shape: NetworkShape, games: number, seed: number, late?: { boards: Board[]; share: number }, coherence = false, learning: ReferenceLearning = {}) {
    const m = machine(shape, { trainSeed: seed, starts: late, coherence, ...learning });
    const ref = referenceOf(m);
    if (coherence) ref.accumulators = m.accumulators().map((t) => Float32Array.from(t));
    m.control[0] = 0; // NEXT
    m.control[1] = games; // LIMIT
    m.exports.train();
    const step = 0.1 / (8 * shape.tuples.length);
    const refGames = Array.from({ length: games }, (_, g) => referenceGame(ref, seed + g, step, late && { ...late, game: g }, learning));
    return { m, ref, refGames };
  }

  for (const [name, shape, games] of [['4×4-tuples', SMALL, 40], ['stages with promotion', STAGED, 30], ['odd tuples', ODD, 20]] as const) {
    it(`${name}: ${games} training games give the same scores and the same tables`, () => {
      const { m, ref, refGames } = trainBoth(shape, games, 1234);
      refGames.forEach((r, g) => expect(m.trainingGame(g)).toEqual(r));
      expect(refGames.at(-1)!.score).toBeGreaterThan(0);
      m.tables().forEach((t, k) => expect(Buffer.from(t.buffer, t.byteOffset, t.byteLength).equals(Buffer.from(ref.tables[k].buffer)), `table ${k}`).toBe(true));
    });
  }

  const sameBits = (a: Float32Array, b: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

  for (const [name, shape, games] of [['4×4-tuples', SMALL, 40], ['stages with promotion', STAGED, 30]] as const) {
    it(`temporal coherence, ${name}: ${games} training games give the same scores, tables and accumulators as the reference, and other tables than plain TD`, () => {
      const { m, ref, refGames } = trainBoth(shape, games, 4321, undefined, true);
      refGames.forEach((r, g) => expect(m.trainingGame(g)).toEqual(r));
      m.tables().forEach((t, k) => expect(sameBits(t, ref.tables[k]), `table ${k}`).toBe(true));
      const acc = m.accumulators();
      acc.forEach((t, k) => expect(sameBits(t, ref.accumulators![k]), `accumulator ${k}`).toBe(true));
      // The accumulators hold what they say: A ≥ |E| entry by entry (up to float32 rounding), and some entries' errors cancelled (|E| < A).
      let cancelled = 0;
      let touched = 0;
      let below = 0;
      for (const pairs of acc) {
        for (let i = 0; i < pairs.length; i += 2) {
          const e = pairs[i];
          const a = pairs[i + 1];
          if (a < Math.abs(e) * (1 - 1e-6)) below++;
          if (a > 0) touched++;
          if (Math.abs(e) < 0.5 * a) cancelled++;
        }
      }
      expect(below).toBe(0);
      expect(touched).toBeGreaterThan(100);
      expect(cancelled).toBeGreaterThan(10);
      const plain = trainBoth(shape, games, 4321).m;
      expect(m.tables().every((t, k) => sameBits(t, plain.tables()[k]))).toBe(false);
    });
  }

  // Restarts and TD(λ), alone and together, plain and coherent, one stage and staged with promotion.
  const LEARNINGS: [string, ReferenceLearning][] = [
    ['restarts', { restarts: { at: 0.5, minMoves: 10 } }],
    ['TD(λ = 0.5)', { lambda: 0.5 }],
    ['TD(λ = 0.5) + restarts at most 3 in a row', { lambda: 0.5, restarts: { at: 0.5, minMoves: 10, maxInRow: 3 } }],
    ['TD(λ = 0) + restarts at 0.3 while over 4 moves', { lambda: 0, restarts: { at: 0.3, minMoves: 4 } }],
    ['TD(λ = 1)', { lambda: 1 }],
  ];
  for (const [what, learning] of LEARNINGS) {
    for (const coherence of [false, true]) {
      const shape = coherence ? STAGED : SMALL;
      const games = 12;
      it(`${what}${coherence ? ', temporal coherence, stages with promotion' : ''}: ${games} training games give the reference's results, episodes, tables${coherence ? ' and accumulators' : ''} to the bit`, () => {
        const { m, ref, refGames } = trainBoth(shape, games, 777, undefined, coherence, learning);
        refGames.forEach((r, g) => expect(m.trainingGame(g), `game ${g}`).toEqual(r));
        m.tables().forEach((t, k) => expect(sameBits(t, ref.tables[k]), `table ${k}`).toBe(true));
        if (coherence) m.accumulators().forEach((t, k) => expect(sameBits(t, ref.accumulators![k]), `accumulator ${k}`).toBe(true));
        const episodes = refGames.reduce((n, r) => n + r.episodes, 0);
        if (learning.restarts) {
          // Restarts happen (more episodes than games; never more in a row than the limit), and each restart adds moves.
          expect(episodes).toBeGreaterThan(2 * games);
          if (learning.restarts.maxInRow) expect(Math.max(...refGames.map((r) => r.episodes))).toBeLessThanOrEqual(1 + learning.restarts.maxInRow);
          const plain = trainBoth(shape, games, 777, undefined, coherence, { lambda: learning.lambda });
          expect(refGames.reduce((n, r) => n + r.moves, 0)).toBeGreaterThan(plain.refGames.reduce((n, r) => n + r.moves, 0));
        } else {
          expect(episodes).toBe(games);
        }
        // It learns otherwise than online TD(0) on the same games.
        const online = trainBoth(shape, games, 777, undefined, coherence).m;
        expect(m.tables().every((t, k) => sameBits(t, online.tables()[k]))).toBe(false);
      });
    }
  }

  it('late starts: a seeded share of training games starts from the given boards, as in the reference', () => {
    const late = { boards: randomBoards('late-starts', 5, 0.4, 9), share: 0.5 };
    const { m, ref, refGames } = trainBoth(SMALL, 20, 99, late);
    refGames.forEach((r, g) => expect(m.trainingGame(g).score).toBe(r.score));
    m.tables().forEach((t, k) => expect(Buffer.from(t.buffer, t.byteOffset, t.byteLength).equals(Buffer.from(ref.tables[k].buffer))).toBe(true));
  });

  it('a greedy game in WebAssembly is the engine\'s game with the network as its player (the same spawns)', async () => {
    const training = new NetworkTraining({ shape: SMALL, threads: 1, seed: 3, learningRate: 0.1, heldOut: { games: 12, seed: 5000 } });
    try {
      await training.trainTo(300);
      const held = await training.heldOut();
      const path = join(tmp(), 'small.bin');
      training.save(path);
      const player = createNetworkPlayer(networkPlayerSpec(path, { depth: 0, cprob: 1e-4 }));
      const scores = Array.from({ length: 12 }, (_, i) => playGame(player, 5000 + i).score);
      expect(scores.reduce((a, b) => a + b, 0) / 12).toBe(held.mean);
      expect(held.mean).toBeGreaterThan(1000);
      // decide (hint, the viewer): each legal move's reward + the reference's value of its afterstate; the move is their best.
      const ref = referenceOf(training.machine);
      for (const board of boards.slice(0, 200)) {
        const d = player.decide(board);
        const expected = [0, 1, 2, 3].map((dir) => {
          const after = applyMove(board, dir as Direction);
          return after.legal ? after.score + referenceValue(ref, after.board) : Number.NaN;
        });
        d.values.forEach((v, dir) => (Number.isNaN(expected[dir]) ? expect(v).toBeNaN() : expect(v).toBeCloseTo(expected[dir], 6)));
        const legal = expected.flatMap((v, dir) => (Number.isNaN(v) ? [] : [dir]));
        if (legal.length === 0) expect(d.move).toBe(-1);
        else expect(expected[d.move]).toBe(Math.max(...legal.map((dir) => expected[dir])));
      }
    } finally {
      await training.close();
    }
  });

  it('a checkpoint written while the next games train: the copy is the state at its own game count, and its files are the ones a write with the threads idle makes', async () => {
    const training = new NetworkTraining({ shape: SMALL, threads: 1, seed: 7, learningRate: 0.1, heldOut: { games: 0, seed: 1 }, coherence: true, lambda: 0.5, restarts: { at: 0.5, minMoves: 10, maxInRow: 0 } });
    try {
      await training.trainTo(200);
      const dir = tmp();
      const idle = { net: join(dir, 'idle.bin'), acc: join(dir, 'idle.acc') };
      const sums = { sha256: training.save(idle.net), accumulatorsSha256: training.saveAccumulators(idle.acc) };
      const copy = training.snapshot()!;
      expect(copy.games).toBe(200);
      // The threads go on while the copy is written: the copy keeps the tables of game 200.
      const writing = training.write(copy, join(dir, 'copy.bin'), join(dir, 'copy.acc'));
      await training.trainTo(400);
      expect(await writing).toEqual(sums);
      expect(readFileSync(join(dir, 'copy.bin')).equals(readFileSync(idle.net))).toBe(true);
      expect(readFileSync(join(dir, 'copy.acc')).equals(readFileSync(idle.acc))).toBe(true);
      expect(training.save(join(dir, 'later.bin'))).not.toBe(sums.sha256);
      // The next copy reuses the buffer and holds the new state.
      const again = training.snapshot()!;
      expect(again.tables[0].buffer).toBe(copy.tables[0].buffer);
      expect((await training.write(again, join(dir, 'again.bin'), join(dir, 'again.acc'))).sha256).toBe(training.save(join(dir, 'now.bin')));
      expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    } finally {
      await training.close();
    }
  });

  it('two threads train one network lock-free: every game below the limit is done once, the tables stay finite and it learns', async () => {
    const training = new NetworkTraining({ shape: SMALL, threads: 2, seed: 1, learningRate: 0.1, heldOut: { games: 100, seed: 777 } });
    try {
      const before = (await training.heldOut()).mean;
      expect(await training.trainTo(3000)).toBe(3000);
      expect(training.machine.control[3]).toBe(3000); // DONE: each game counted once
      for (const t of training.machine.tables()) for (const x of t) expect(Number.isFinite(x)).toBe(true);
      expect((await training.heldOut()).mean).toBeGreaterThan(2 * before);
    } finally {
      await training.close();
    }
  });
});

describe('bad shapes and network files: one line naming the problem', () => {
  it('a learning module built from other sources (no block layout, or another one) is refused, naming the build command', () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    // The smallest module: no exports at all, so no BLOCK_LAYOUT.
    const empty = new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    expect(() => instantiateLearn(empty, memory)).toThrow(/was built from other sources than this program \(block layout unknown, this program's \d+\); build both with: npm run build$/);
    // A module exporting BLOCK_LAYOUT = 999: a global section (one immutable i32, i32.const 999) and an export section.
    const name = [...Buffer.from('BLOCK_LAYOUT')];
    const other = new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 6, 7, 1, 0x7f, 0, 0x41, 0xe7, 0x07, 0x0b, 7, 4 + name.length, 1, name.length, ...name, 3, 0]));
    expect(() => instantiateLearn(other, memory)).toThrow(/was built from other sources than this program \(block layout 999, this program's \d+\); build both with: npm run build$/);
  });

  const bad: [string, Partial<NetworkShape>, RegExp][] = [
    ['a repeated cell', { tuples: [[0, 1, 1]] }, /network\.tuples\[0\]: cell 1 is repeated/],
    ['a cell out of range', { tuples: [[0, 16]] }, /network\.tuples\[0\]: cell 16 is not a cell/],
    ['a tuple of 7 cells', { tuples: [[0, 1, 2, 3, 4, 5, 6]] }, /network\.tuples\[0\] has 7 cells; a tuple has at most 6/],
    ['no tuples', { tuples: [] }, /network\.tuples is empty/],
    ['overlapping stages', { stages: [{ maxTile: [2, 8192] }, { maxTile: [4096, 32768] }] }, /network\.stages\[0\] and network\.stages\[1\] overlap: both hold boards whose largest tile is 4096/],
    ['a gap between stages', { stages: [{ maxTile: [2, 4096] }, { maxTile: [16384, 32768] }] }, /leave boards whose largest tile is 8192 in no stage/],
    ['a stage that is no tile', { stages: [{ maxTile: [2, 3000] }] }, /network\.stages\[0\]\.maxTile: 3000 is not a tile/],
  ];
  for (const [what, change, message] of bad) {
    it(what, () => {
      expect(() => checkShape({ ...SMALL, ...change }, 'learning config "x.json"')).toThrow(message);
      expect(() => parseLearnConfig({ format: 'tune2048/learn', name: 'x', seed: 1, games: 10, learningRate: 0.1, network: change }, 'learning config "x.json"')).toThrow(message);
    });
  }

  it('a learning rate of 0, negative or NaN', () => {
    for (const rate of [0, -0.1, Number.NaN]) expect(() => parseLearnConfig({ format: 'tune2048/learn', name: 'x', seed: 1, games: 10, learningRate: rate, network: {} })).toThrow(/learningRate/);
  });

  function saved(shape = SMALL): string {
    const m = machine(shape);
    randomize(m, 'file');
    const path = join(tmp(), 'net.bin');
    writeNetworkFile(path, shape, m.tables());
    return path;
  }

  it('round trip: the same shape and tables, the same hash as the whole file\'s', () => {
    const path = saved();
    const back = readNetworkFile(path);
    expect(back.shape).toEqual(SMALL);
    expect(readNetworkShape(path)).toEqual(SMALL);
    expect(back.sha256).toBe(networkPlayerSpec(path, { depth: 0, cprob: 1e-4 }).network.sha256);
  });

  it('truncated, another shape, newer, NaN, damaged, not a network: refused', () => {
    const good = readFileSync(saved());
    const write = (bytes: Buffer) => {
      const p = join(tmp(), 'bad.bin');
      writeFileSync(p, bytes);
      return p;
    };
    expect(() => readNetworkFile(write(good.subarray(0, good.length - 1000)))).toThrow(/is \d+ bytes; its shape \(4 tuples of 4 cells, one stage\) needs \d+: truncated or of another shape/);
    const newer = Buffer.from(good);
    newer.writeUInt32LE(3, 8);
    expect(() => readNetworkFile(write(newer))).toThrow(/format version 3, newer than this tune2048 reads \(2\); upgrade tune2048/);
    const nan = Buffer.from(good);
    const header = 16 + nan.readUInt32LE(12);
    nan.writeFloatLE(Number.NaN, header + 400);
    expect(() => readNetworkFile(write(nan))).toThrow(/table 0 entry 100 is NaN; entries must be finite/);
    const flipped = Buffer.from(good);
    flipped[header + 4001] ^= 1;
    expect(() => readNetworkFile(write(flipped))).toThrow(/fails its checksum \(CRC-32\): the file is damaged/);
    expect(() => readNetworkFile(write(Buffer.from('{"format":"tune2048/weights"}')))).toThrow(/is not a tune2048 network file/);
    expect(() => readNetworkFile(join(tmp(), 'missing.bin'))).toThrow(/cannot read network file .*no such file or folder/);
  });

  it('a file never half-written under its name: a failed write leaves the previous file', () => {
    const path = saved();
    const before = readFileSync(path);
    const m = machine(SMALL);
    // A table that fails to give its bytes after two were written stands in for a write that fails midway.
    const failing = {
      get buffer(): ArrayBuffer {
        throw new Error('the disk is gone');
      },
    } as unknown as Float32Array;
    expect(() => writeNetworkFile(path, SMALL, [...m.tables().slice(0, 2), failing])).toThrow(/cannot write network file ".*net\.bin": the disk is gone/);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dirname(path))).toEqual(['net.bin']); // the temporary file is gone
  });
});

describe('memory', () => {
  it('a network over 4 GiB is refused before anything is allocated, saying how much it needs', () => {
    const stages = [2, 128, 512, 2048, 8192].map((lo, k, all) => ({ maxTile: [lo, k + 1 < all.length ? all[k + 1] / 2 : 32768] as [number, number] }));
    const huge: NetworkShape = { tuples: Array.from({ length: 16 }, () => [0, 1, 2, 3, 4, 5]), stages, promote: true };
    expect(() => machine(huge)).toThrow(/needs 5\.00 GiB; WebAssembly memory holds at most 4 GiB/);
  });
});
