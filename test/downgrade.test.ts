/**
 * Tile-downgrading (issue 40; TDL2048+'s rule, src/player/downgrade.ts) against a slow grid reference: which
 * ranks close and where each tile goes, that the same moves stay legal and merge the same tiles, and the
 * player's values equal the brute-force search of the reference network on the reference's downgraded board.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boardFromRanks, boardToRanks, countEmpty, type Board } from '../src/engine/board';
import { applyMove, DIRECTIONS } from '../src/engine/moves';
import { referenceSearchMove, type ReferenceNetwork } from '../src/learn/ntuple/reference';
import { ONE_STAGE, type NetworkShape } from '../src/learn/ntuple/shape';
import { closeGaps, downgradeGaps, downgraded, downgradeProblem } from '../src/player/downgrade';
import { createNetworkPlayer, networkPlayerSpec } from '../src/player/network-player';
import { loadNetworkSettings } from '../src/player/network-settings';
import { playerKey } from '../src/player/spec';
import { randomBoards } from './helpers/boards';
import { trainSmallNetwork } from './helpers/network';
import { runCli } from './helpers/cli';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The reference: the ranks as a list; `gaps` times, the highest rank missing below the largest tile is closed (every tile above it one rank down). */
function referenceClose(b: Board, gaps: number): Board {
  let ranks = boardToRanks(b);
  for (let k = 0; k < gaps; k++) {
    const top = Math.max(...ranks);
    const missing = Array.from({ length: Math.max(0, top - 1) }, (_, i) => i + 1).filter((r) => !ranks.includes(r));
    if (missing.length === 0) break;
    const g = Math.max(...missing);
    ranks = ranks.map((r) => (r > g ? r - 1 : r));
  }
  return boardFromRanks(ranks);
}

function referenceGaps(b: Board, atTile: number): number {
  const holds = (x: Board) => boardToRanks(x).some((r) => r > 0 && 2 ** r >= atTile);
  if (!holds(b) || boardToRanks(b).filter((r) => r === 15).length >= 2) return 0; // two 32768s never merge here; one rank down they would
  return holds(referenceClose(b, 1)) ? 2 : 1;
}

const board = (rows: number[][]) => boardFromRanks(rows.flat().map((t) => (t === 0 ? 0 : Math.log2(t))));

describe('tile-downgrading', () => {
  it('on hand-made boards: the highest missing ranks close, the tiles above move down, the ones below stay', () => {
    // 16384, 4096, 2048, 2: 8192 missing (the highest gap), then 1024 … 4. One gap: 16384 → 8192, the rest stay.
    const b = board([[16384, 4096, 2048, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    expect(closeGaps(b, 1)).toEqual(board([[8192, 4096, 2048, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]));
    // Two gaps: 8192 and 1024 close: 16384 → 4096, 4096 → 2048, 2048 → 1024, 2 stays.
    expect(closeGaps(b, 2)).toEqual(board([[4096, 2048, 1024, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]));
    // No missing rank below the largest tile: unchanged.
    const full = board([[32768, 16384, 8192, 4096], [256, 512, 1024, 2048], [128, 64, 32, 16], [2, 4, 8, 0]]);
    expect(closeGaps(full, 2)).toEqual(full);
    // A threshold of 16384: that board downgrades once (8192 is then its largest); 32768 + 16384 twice.
    expect(downgradeGaps(b, 16384)).toBe(1);
    expect(downgradeGaps(b, 32768)).toBe(0);
    expect(downgraded(b, 32768)).toEqual(b);
    const two = board([[32768, 16384, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    expect(downgradeGaps(two, 16384)).toBe(2);
    expect(downgraded(two, 16384)).toEqual(board([[8192, 4096, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]));
    // Two 32768s never merge here and would one rank down: such a board is never downgraded.
    const twins = board([[32768, 32768, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    expect(downgradeGaps(twins, 16384)).toBe(0);
    expect(downgraded(twins, 16384)).toEqual(twins);
  });

  it('equals the reference on 3,000 boards with and without large tiles; the same moves are legal and merge the same cells', () => {
    const boards = [...randomBoards('downgrade-small', 1000, 0.3, 11), ...randomBoards('downgrade-large', 2000, 0.25, 15)];
    let changed = 0;
    for (const b of boards) {
      for (const gaps of [1, 2]) expect(closeGaps(b, gaps)).toEqual(referenceClose(b, gaps));
      for (const at of [8192, 16384, 32768]) {
        expect(downgradeGaps(b, at)).toBe(referenceGaps(b, at));
        const x = downgraded(b, at);
        if (x.lo !== b.lo || x.hi !== b.hi) changed++;
        for (const dir of DIRECTIONS) {
          const real = applyMove(b, dir);
          const down = applyMove(x, dir);
          expect(down.legal).toBe(real.legal);
          // The same cells hold tiles after the move (the same merges), and the order of tiles is kept.
          const occupied = (y: Board) => boardToRanks(y).map((r) => r > 0);
          expect(occupied(down.board)).toEqual(occupied(real.board));
        }
      }
    }
    expect(changed).toBeGreaterThan(1000);
  });

  it('a threshold that is not a tile from 8 to 32768 is refused', () => {
    for (const bad of [0, 3, 12, 4, 65536, -16384, Number.NaN]) expect(downgradeProblem(bad)).toMatch(/is not a tile from 8 to 32768/);
    for (const ok of [8, 4096, 32768]) expect(downgradeProblem(ok)).toBeNull();
  });
});

describe('the network player with tile-downgrading', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-downgrade-'));
  dirs.push(dir);
  const file = join(dir, 'small.bin');
  const SMALL: NetworkShape = { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [4, 5, 8, 9]], stages: ONE_STAGE, promote: true };
  let ref: ReferenceNetwork;

  it('trains a small network to play with', async () => {
    ref = await trainSmallNetwork(SMALL, file, 11, 300);
  });

  it('each move\'s value is the brute-force search of the reference\'s downgraded board, on boards with and without large tiles; below the threshold, the plain player\'s', () => {
    const boards = randomBoards('downgrade-player', 400, 0.3, 15).filter((b) => countEmpty(b) >= 1 && countEmpty(b) <= 6).slice(0, 80);
    const player = createNetworkPlayer(networkPlayerSpec(file, { depth: 1, cprob: 1e-4, downgradeAt: 16384 }));
    const plain = createNetworkPlayer(networkPlayerSpec(file, { depth: 1, cprob: 1e-4 }));
    let downgradedBoards = 0;
    for (const b of boards) {
      const gaps = referenceGaps(b, 16384);
      const x = gaps === 0 ? b : referenceClose(b, gaps);
      if (gaps > 0) downgradedBoards++;
      const want = [0, 1, 2, 3].map((d) => referenceSearchMove(ref, x, d, 1, 1e-4));
      const got = player.decide!(b).values;
      got.forEach((v, d) => (Number.isNaN(want[d]) ? expect(v).toBeNaN() : expect(v).toBe(want[d])));
      if (gaps === 0) expect(player.decide!(b)).toEqual(plain.decide!(b));
    }
    expect(downgradedBoards).toBeGreaterThan(20);
    expect(downgradedBoards).toBeLessThan(boards.length);
  });

  it('is in the player\'s key, and a network player file carries it; a threshold that is not a tile is refused naming the field', () => {
    const plain = networkPlayerSpec(file, { depth: 1, cprob: 1e-4 });
    expect(playerKey(networkPlayerSpec(file, { depth: 1, cprob: 1e-4, downgradeAt: 16384 }))).not.toBe(playerKey(plain));
    const json = join(dir, 'down.json');
    writeFileSync(json, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'small.bin', sha256: plain.network.sha256 }, downgradeAt: 32768 }));
    expect(networkPlayerSpec(json, { depth: 2, cprob: 1e-4 }).search).toEqual({ depth: 2, cprob: 1e-4, downgradeAt: 32768 });
    writeFileSync(json, JSON.stringify({ format: 'tune2048/network-player', version: 1, network: { file: 'small.bin', sha256: plain.network.sha256 }, downgradeAt: 20000 }));
    expect(() => loadNetworkSettings(json)).toThrow(/downgradeAt.*must be a tile from 8 to 32768/);
    // From the command line: one line naming the field, exit 2, no game played.
    const r = runCli(['play', '--player', `network:${json}`, '-n', '1', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/network player file ".*down\.json": field "downgradeAt": must be a tile from 8 to 32768/);
    expect(r.stdout).toBe('');
  });
});
