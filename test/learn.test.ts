/**
 * Learned line tables (issue 22, part 3): the line network against the slow reference (values, symmetry,
 * TD training move for move), its file format and every way a file can be bad, and the weights' learned
 * term in the heuristic and the search against brute force.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { boardFromGrid, boardToGrid, countEmpty, makeBoard } from '../src/engine/board';
import { createRng, initialBoard, spawnTile } from '../src/engine/spawn';
import { loadWeights, parseWeights, type Weights } from '../src/heuristic/weights';
import { parseLearnConfig } from '../src/learn/config';
import { emptyNetwork, networkValue, type LineNetwork } from '../src/learn/line-network';
import { decodeNetwork, encodeNetwork, readNetworkFile, sha256, TABLE_FILE_BYTES } from '../src/learn/table-file';
import { trainGame } from '../src/learn/td';
import { learnState, runLearning, type StartBoards } from '../src/learn/learn-run';
import { decodeBoards, encodeBoards } from '../src/learn/late-starts';
import { lateBoards } from '../src/player/late-boards';
import { Store } from '../src/store/store';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { expectimaxSpec, playerKey } from '../src/player/spec';
import { randomBoards } from './helpers/boards';
import { refExpectimax, refHeuristic, refMove, refNetworkValue, refReadNetwork, type Grid } from './helpers/reference';

const tmp = () => mkdtempSync(join(tmpdir(), 'tune2048-learn-'));

/** A network with every entry a seeded random number (so every read matters). */
function randomNetwork(seed: string): LineNetwork {
  const rng = seedrandom.alea(seed);
  const net = emptyNetwork();
  for (let i = 0; i < 65536; i++) {
    net.outer[i] = Math.round((rng() - 0.5) * 2000);
    net.inner[i] = Math.round((rng() - 0.5) * 500);
  }
  return net;
}

function writeNetwork(net: LineNetwork): { path: string; hash: string } {
  const path = join(tmp(), 'lines.bin');
  const bytes = encodeNetwork(net);
  writeFileSync(path, bytes);
  return { path, hash: sha256(bytes) };
}

const symmetries = (g: Grid): Grid[] => {
  const rot = (x: Grid) => [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => x[3 - c][r]));
  const flip = (x: Grid) => x.map((row) => [...row].reverse());
  const out: Grid[] = [];
  let x = g;
  for (let k = 0; k < 4; k++) {
    out.push(x, flip(x));
    x = rot(x);
  }
  return out;
};

describe('the line network', () => {
  const net = randomNetwork('net');
  const ref = refReadNetwork(encodeNetwork(net));

  it('its value equals the reference (every line read both ways in its table) on 2,000 random boards, and on all 8 symmetries of each', () => {
    for (const b of randomBoards('network values', 2000)) {
      const g = boardToGrid(b);
      const want = refNetworkValue(ref, g);
      expect(networkValue(net, b.lo, b.hi)).toBe(want);
      for (const s of symmetries(g)) expect(refNetworkValue(ref, s)).toBe(want);
    }
  });

  it('TD training plays and updates move for move as the reference TD(0) on plain grids (30 games, tables equal to the bit)', () => {
    const lr = 0.25;
    const fast = emptyNetwork();
    const slow = { outer: new Float32Array(65536), inner: new Float32Array(65536) };
    const slowValue = (g: Grid) => refNetworkValue({ outer: Array.from(slow.outer), inner: Array.from(slow.inner) }, g);
    // Reference: the same spawns (the engine's seeded spawner), moves and values from the plain-grid code.
    const refGame = (seed: number) => {
      const rng = createRng(seed);
      let grid = boardToGrid(initialBoard(rng));
      const valueOf = (g: Grid) => {
        // The value as float32 tables hold it, summed in the network's order.
        let total = 0;
        [...g, ...[0, 1, 2, 3].map((c) => [0, 1, 2, 3].map((r) => g[r][c]))].forEach((values, index) => {
          const t = index % 4 === 0 || index % 4 === 3 ? slow.outer : slow.inner;
          const ranks = values.map((v) => (v === 0 ? 0 : Math.log2(v)));
          total += t[ranks[0] | (ranks[1] << 4) | (ranks[2] << 8) | (ranks[3] << 12)];
          total += t[ranks[3] | (ranks[2] << 4) | (ranks[1] << 8) | (ranks[0] << 12)];
        });
        return total;
      };
      const best = (g: Grid) => {
        let pick: { after: Grid; reward: number; value: number } | null = null;
        for (let dir = 0; dir < 4; dir++) {
          const m = refMove(g, dir);
          if (!m.legal) continue;
          const value = valueOf(m.grid);
          if (!pick || m.score + value > pick.reward + pick.value) pick = { after: m.grid, reward: m.score, value };
        }
        return pick;
      };
      const update = (g: Grid, delta: number) => {
        [...g, ...[0, 1, 2, 3].map((c) => [0, 1, 2, 3].map((r) => g[r][c]))].forEach((values, index) => {
          const t = index % 4 === 0 || index % 4 === 3 ? slow.outer : slow.inner;
          const ranks = values.map((v) => (v === 0 ? 0 : Math.log2(v)));
          t[ranks[0] | (ranks[1] << 4) | (ranks[2] << 8) | (ranks[3] << 12)] += delta;
          t[ranks[3] | (ranks[2] << 4) | (ranks[1] << 8) | (ranks[0] << 12)] += delta;
        });
      };
      let score = 0;
      let now = best(grid);
      while (now) {
        score += now.reward;
        grid = boardToGrid(spawnTile(boardFromGrid(now.after), rng));
        const next = best(grid);
        update(now.after, (lr / 16) * ((next ? next.reward + next.value : 0) - now.value));
        now = next;
      }
      return score;
    };
    for (let g = 0; g < 30; g++) expect(trainGame(fast, 500 + g, lr).score).toBe(refGame(500 + g));
    expect(Buffer.from(fast.outer.buffer).equals(Buffer.from(slow.outer.buffer))).toBe(true);
    expect(Buffer.from(fast.inner.buffer).equals(Buffer.from(slow.inner.buffer))).toBe(true);
    expect(slowValue(boardToGrid(initialBoard(createRng(1))))).not.toBe(0); // it learned something
  });

  it('training is a pure function of the network and the seed', () => {
    const a = emptyNetwork();
    const b = emptyNetwork();
    for (let g = 0; g < 50; g++) trainGame(a, g, 0.25);
    for (let g = 0; g < 50; g++) trainGame(b, g, 0.25);
    expect(sha256(encodeNetwork(a))).toBe(sha256(encodeNetwork(b)));
  });
});

describe('line-table files', () => {
  const net = randomNetwork('file');
  const bytes = encodeNetwork(net);

  it('round-trip exactly, and read back with the hash the weights name', () => {
    expect(bytes.length).toBe(TABLE_FILE_BYTES);
    const back = decodeNetwork(bytes, 't');
    expect(Buffer.from(back.outer.buffer).equals(Buffer.from(net.outer.buffer))).toBe(true);
    const { path, hash } = writeNetwork(net);
    expect(readNetworkFile(path, hash).hash).toBe(hash);
  });

  const patched = (f: (b: Uint8Array, v: DataView) => void) => {
    const b = Uint8Array.from(bytes);
    f(b, new DataView(b.buffer));
    return b;
  };
  it.each([
    ['another file', patched((b) => b.set([0x7b, 0x22], 0)), /not a tune2048 line-table file/],
    ['a newer format', patched((_b, v) => v.setUint32(8, 2, true)), /format version 2 is newer than this tune2048 understands \(1\)/],
    ['tables of the wrong size', patched((_b, v) => v.setUint32(16, 4096, true)), /holds 2 tables of 4096 entries; a line network is 2 tables \(outer, inner\) of 65536/],
    ['a truncated file', bytes.subarray(0, bytes.length - 4), /is 524304 bytes; a line-table file is 524308 \(truncated or padded\)/],
    ['a NaN entry', patched((_b, v) => v.setFloat32(20 + 4 * (65536 + 0x1234), Number.NaN, true)), /table "inner" entry 4660 \(0x1234\) is NaN/],
    ['an infinite entry', patched((_b, v) => v.setFloat32(20 + 4 * 7, Number.POSITIVE_INFINITY, true)), /table "outer" entry 7 \(0x0007\) is Infinity/],
  ])('%s: refused with one line naming the file and the problem', (_name, b, message) => {
    expect(() => decodeNetwork(b, 'line-table file "x.bin"')).toThrow(message);
  });

  it('a file that is not the one the weights name (trained again) is refused, naming both hashes', () => {
    const { path } = writeNetwork(net);
    expect(() => readNetworkFile(path, 'a'.repeat(64))).toThrow(/is not the one the weights name \(sha256 [0-9a-f]{12}…, weights say aaaaaaaaaaaa…\)/);
    expect(() => readNetworkFile(join(tmp(), 'missing.bin'))).toThrow(/cannot read line-table file ".*missing.bin": no such file or folder/);
  });
});

describe("weights with a learned term", () => {
  const { path, hash } = writeNetwork(randomNetwork('weights'));
  const base = loadWeights('tuned-d3s');
  const learned = (extra: Record<string, unknown> = {}): Weights =>
    parseWeights({ ...base, name: undefined, version: 2, learned: { table: path, sha256: hash, weight: 0.7 }, ...extra });

  it('the heuristic equals base + weight × (network value + tile score), from the reference, on 2,000 boards (and with stages, in every stage)', () => {
    const staged = learned({ stages: { by: 'maxTile', list: [{ from: 0, to: 512, empty: 900 }, { from: 512, merges: 10 }] } });
    // A stage of its own learned weight (0: the tables left out there), the others the base's.
    const weighed = learned({ stages: { by: 'maxTile', list: [{ from: 0, to: 256, learned: { weight: 3 } }, { from: 256, to: 2048 }, { from: 2048, learned: { weight: 0 } }] } });
    for (const w of [learned(), staged, weighed]) {
      const player = createExpectimaxPlayer(w, { cacheMB: 0 });
      // Boards of every stage: small tiles only (below 256), up to 1024, and any.
      for (const b of [7, 10, 14].flatMap((top) => randomBoards(`learned heuristic ${top}`, 700, 0.3, top))) {
        const want = refHeuristic(w, boardToGrid(b));
        expect(Math.abs(player.heuristic(b) - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
      }
    }
  });

  it('the search equals brute force at depths 1 and 2', () => {
    const w = learned();
    for (const depth of [1, 2]) {
      const player = createExpectimaxPlayer(w, { depth, cprob: 0, cacheMB: 0 });
      for (const b of randomBoards(`learned-bf-${depth}`, 200, 0.3, 11).filter((x) => countEmpty(x) <= 6).slice(0, depth === 1 ? 30 : 6)) {
        const want = refExpectimax(w, boardToGrid(b), depth);
        player.evaluateMoves(b).forEach((e, i) => {
          if (want[i] === null) expect(e.value).toBeNull();
          else expect(Math.abs(e.value! - want[i]!)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want[i]!)));
        });
      }
    }
  });

  it.each([
    ['in a version-1 file', { version: 1 }, /field "learned": needs "version": 2/],
    ['a malformed hash', { learned: { table: 'x.bin', sha256: 'abc', weight: 1 } }, /field "learned.sha256": must be the 64 hex digits/],
    ['no table', { learned: { table: '', sha256: hash, weight: 1 } }, /field "learned.table": must name a line-table file/],
    ['a NaN weight', { learned: { table: path, sha256: hash, weight: Number.NaN } }, /field "learned.weight"/],
    ['an unknown key', { learned: { table: path, sha256: hash, weight: 1, rate: 2 } }, /field "learned": unknown key "rate"/],
    ['a stage weight without tables to weigh', { learned: undefined, stages: { by: 'maxTile', list: [{ from: 0, to: 512 }, { from: 512, learned: { weight: 0 } }] } }, /field "stages.list.1.learned": the weights have no learned tables to weigh/],
    ['a stage naming tables of its own', { stages: { by: 'maxTile', list: [{ from: 0, to: 512 }, { from: 512, learned: { table: path, sha256: hash, weight: 0 } }] } }, /field "stages.list.1.learned": unknown key "table"/],
    ['a weight whose term could overflow', { learned: { table: path, sha256: hash, weight: 1e6 } }, /field "learned.weight": its term of the heuristic can reach/],
  ])('refused: %s', (_name, extra, message) => {
    expect(() => parseWeights({ ...base, version: 2, learned: { table: path, sha256: hash, weight: 1 }, ...extra })).toThrow(message);
  });

  it("a player's identity names the tables by hash, not by where the file lies (a Redis worker plays its own copy)", () => {
    const spec = (table: string) => expectimaxSpec(parseWeights({ ...base, version: 2, learned: { table, sha256: hash, weight: 2 } }), { depth: 1, cprob: 1e-4 });
    expect(playerKey(spec(path))).toBe(playerKey(spec('/elsewhere/lines.bin')));
    expect(playerKey(spec(path))).not.toBe(playerKey(expectimaxSpec(parseWeights({ ...base, version: 2, learned: { table: path, sha256: hash, weight: 3 } }), { depth: 1, cprob: 1e-4 })));
  });

  it('a table file that changed since the weights were written is refused when the player is made, naming the file', () => {
    // The weights name a network no player of this process has loaded (one already loaded is found by its hash).
    const named = sha256(encodeNetwork(randomNetwork('named')));
    const other = writeNetwork(randomNetwork('other'));
    const w = parseWeights({ ...base, version: 2, learned: { table: other.path, sha256: named, weight: 1 } });
    expect(() => createExpectimaxPlayer(w)).toThrow(/line-table file ".*lines.bin" is not the one the weights name/);
  });
});

describe('learning configs', () => {
  const good = { format: 'tune2048/learn', name: 'x', seed: 1, games: 10, learningRate: 0.25 };
  it('defaults a checkpoint every 2,000 games', () => expect(parseLearnConfig(good).checkpointEvery).toBe(2000));
  it.each([
    ['a zero learning rate', { learningRate: 0 }, /field "learningRate": must be above 0/],
    ['a learning rate above 1', { learningRate: 2 }, /field "learningRate": must be at most 1/],
    ['fractional games', { games: 2.5 }, /field "games": must be a whole number/],
    ['an unknown key', { depth: 3 }, /top level: unknown key\(s\) "depth"/],
    ['another format', { format: 'tune2048/config' }, /field "format"/],
  ])('refused: %s', (_name, extra, message) => {
    expect(() => parseLearnConfig({ ...good, ...extra })).toThrow(message);
  });
});

describe('late starts (multi-stage TD)', () => {
  const starts = { weights: 'tuned-d1', depth: 0, maxTile: 128, positions: 4, share: 0.5 };

  it('collects the same boards every time, each the first of its game to hold the tile; reports each game and gives up on a stop', async () => {
    const seen: [number, number][] = [];
    const a = (await lateBoards(starts, 5, { onGame: (found, games) => seen.push([found, games]) }))!;
    expect(a).toEqual(await lateBoards(starts, 5));
    expect(a).toHaveLength(4);
    for (const b of a) expect(Math.max(...boardToGrid(b).flat())).toBe(128);
    expect(await lateBoards(starts, 6)).not.toEqual(a);
    expect(seen.at(-1)![0]).toBe(4);
    expect(seen.map(([, games]) => games)).toEqual(seen.map((_, k) => k + 1));
    expect(await lateBoards(starts, 5, { shouldStop: () => true })).toBeNull();
  });

  it('a player that does not reach the tile: one line saying what it reached and what to change', async () => {
    await expect(lateBoards({ ...starts, maxTile: 32768, positions: 1 }, 5)).rejects.toThrow(/starts: tuned-d1 at depth 0 reached 32768 in 0 of 50 games \(1 wanted\); lower starts.maxTile/);
  });

  it('a run with late starts stopped at a game boundary and resumed ends with the tables of a run never stopped (and other tables than without them); the boards are collected once, stored with the run', async () => {
    const config = parseLearnConfig({ format: 'tune2048/learn', name: 'late', seed: 3, games: 400, learningRate: 0.25, checkpointEvery: 100, starts });
    const tables = async (stopAfter?: number, withStarts = true) => {
      const dir = tmp();
      const store = Store.open(join(dir, 'l.sqlite'));
      try {
        const id = store.createLearnRun({ name: 'late', storedConfig: withStarts ? config : { ...config, starts: undefined } });
        let checkpoints = 0;
        let collections = 0;
        const startBoards: StartBoards = (...args) => (collections++, lateBoards(...args));
        const options = { startBoards, onCheckpoint: () => checkpoints++ };
        if (stopAfter !== undefined) {
          const first = await runLearning(store, id, { ...options, shouldStop: () => checkpoints >= stopAfter });
          expect(first.status).toBe('stopped');
        }
        expect((await runLearning(store, id, options)).status).toBe('finished');
        expect(collections).toBe(withStarts ? 1 : 0);
        return sha256(encodeNetwork(learnState(store, id).net));
      } finally {
        store.close();
      }
    };
    const whole = await tables();
    expect(await tables(2)).toBe(whole);
    expect(await tables(undefined, false)).not.toBe(whole);
  });

  it('stored boards read back as they were (the sign bits of both halves included); damaged ones are refused in one line', () => {
    const rng = seedrandom('boards');
    const boards = Array.from({ length: 50 }, () => makeBoard((rng() * 2 ** 32) | 0, (rng() * 2 ** 32) | 0));
    boards.push(makeBoard(-1, -(2 ** 31)), makeBoard(0, 2 ** 31 - 1));
    expect(decodeBoards(encodeBoards(boards), 'x')).toEqual(boards);
    expect(() => decodeBoards(encodeBoards(boards).subarray(0, 12), "learning run 1's stored start boards")).toThrow(/^learning run 1's stored start boards are damaged \(12 bytes; 8 a board\)$/);
  });

  it.each([
    ['a tile that is not a power of two', { maxTile: 1000 }, /field "starts.maxTile": must be a tile/],
    ['a share of 0', { share: 0 }, /field "starts.share": must be above 0/],
    ['too deep a player', { depth: 4 }, /field "starts.depth": must be at most 3/],
  ])('refused: %s', (_name, extra, message) => {
    expect(() => parseLearnConfig({ format: 'tune2048/learn', name: 'x', seed: 1, games: 10, learningRate: 0.25, starts: { ...starts, ...extra } })).toThrow(message);
  });
});
