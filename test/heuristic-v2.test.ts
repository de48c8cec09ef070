/**
 * Version 2 of the weights format (issue 22): line-position terms and stages. Old files must play bit for
 * bit as before (checked against values recorded by the build before version 2), the new terms must equal
 * the slow reference (test/helpers/reference.ts) in the tables and in the search, and malformed stages or
 * terms must be refused with one line naming the field.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { boardToGrid, countEmpty, type Board } from '../src/engine/board';
import { playGame } from '../src/engine/game';
import { buildStagedTables } from '../src/heuristic/tables';
import { listPresets, loadWeights, parseWeights, stageOf, stageWeights, type Weights } from '../src/heuristic/weights';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { createMinimaxPlayer } from '../src/player/minimax';
import { refExpectimax, refHeuristic } from './helpers/reference';
import { randomBoards } from './helpers/boards';

const close = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)));
const positions = (seed: string, n: number) => randomBoards(seed, n, 0.3, 11).filter((b) => countEmpty(b) <= 6);

/** Every line group with coefficients of its own, over a matrix: nothing in the heuristic is symmetric. */
const lined: Weights = parseWeights({
  format: 'tune2048/weights',
  version: 2,
  alive: 1000,
  empty: 270,
  merges: 700,
  monotonicity: 47,
  monotonicityPower: 4,
  sum: 11,
  sumPower: 3.5,
  smoothness: 3,
  lines: {
    outerRows: { empty: 400, monotonicity: 90 },
    innerRows: { merges: 100, sumPower: 3 },
    outerColumns: { smoothness: 20, smoothnessOn: 'value' },
    innerColumns: { alive: -50, monotonicityPower: 2.5 },
  },
  matrix: [
    [9, 5, 3, 1],
    [0, 1, 2, 3],
    [1, 0, 0, 0],
    [0, 0, 0, 2],
  ],
});

/** Line terms on columns only: the search must score up/down moves in transposed form. */
const columnsOnly: Weights = parseWeights({ ...loadWeights('nneonneo'), version: 2, name: undefined, description: undefined, source: undefined, lines: { outerColumns: { empty: 900 } } });

/** Three stages by the largest tile, each with other coefficients and a matrix of its own. */
const staged: Weights = parseWeights({
  format: 'tune2048/weights',
  version: 2,
  alive: 200000,
  empty: 270,
  merges: 700,
  monotonicity: 47,
  sum: 11,
  stages: {
    by: 'maxTile',
    list: [
      { from: 0, to: 256, empty: 1000, matrix: [[20, 8, 3, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] },
      { from: 256, to: 1024, merges: 100, lines: { outerRows: { monotonicity: 120 } } },
      { from: 1024, monotonicity: 5, matrixOn: 'value', matrix: [[19, 9, 5, 3], [8, 4, 2, 0], [3, 0, 0, 0], [0, 0, 0, 0]] },
    ],
  },
});

describe('version-1 weights play bit for bit as before version 2', () => {
  const recorded = JSON.parse(readFileSync('test/fixtures/presets-v1.json', 'utf8')) as { presets: Record<string, { heuristic: string; game: { seed: number; depth: number; score: number; moves: number; hash: string } }> };
  // The boards the recording used: alea("golden boards"), 64 boards of 16 cells, each 80 % a rank 1–13.
  const rng = seedrandom.alea('golden boards');
  const boards = Array.from({ length: 64 }, () => {
    let lo = 0;
    let hi = 0;
    for (let k = 0; k < 32; k += 4) {
      if (rng() < 0.8) lo |= (1 + Math.floor(rng() * 13)) << k;
      if (rng() < 0.8) hi |= (1 + Math.floor(rng() * 13)) << k;
    }
    return { lo: lo | 0, hi: hi | 0 } as Board;
  });
  // Every preset there was before version 2 (presets added since are new, not "as before").
  it.each(Object.keys(recorded.presets))('%s: the heuristic on 64 boards and a depth-1 game, as the version-1 build recorded them', (name) => {
    const want = recorded.presets[name];
    expect(listPresets()).toContain(name);
    const player = createExpectimaxPlayer(loadWeights(name), { depth: want.game.depth });
    expect(createHash('sha256').update(JSON.stringify(boards.map((b) => player.heuristic(b)))).digest('hex').slice(0, 16)).toBe(want.heuristic);
    const moves: number[] = [];
    const r = playGame({ chooseMove: (b) => { const m = player.chooseMove(b); moves.push(m); return m; } }, want.game.seed);
    expect({ score: r.score, moves: r.moves, hash: createHash('sha256').update(moves.join(',')).digest('hex').slice(0, 16) }).toEqual({ score: want.game.score, moves: want.game.moves, hash: want.game.hash });
  });
});

describe('line-position terms', () => {
  it.each([
    ['every group, with a matrix', lined],
    ['outer columns only', columnsOnly],
  ] as const)('%s: the tables equal the direct per-line formula on 3,000 random boards', (_name, w) => {
    const player = createExpectimaxPlayer(w, { cacheMB: 0 });
    for (const b of randomBoards(`lines-${_name}`, 3000)) {
      const want = refHeuristic(w, boardToGrid(b));
      expect(Math.abs(player.heuristic(b) - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
    }
  });

  for (const [name, w] of [['every group', lined], ['outer columns only', columnsOnly]] as const) {
    it(`${name}: the search equals brute force at depths 1 and 2`, () => {
      for (const depth of [1, 2]) {
        const player = createExpectimaxPlayer(w, { depth, cprob: 0, cacheMB: 0 });
        for (const b of positions(`lines-bf-${name}-${depth}`, depth === 1 ? 30 : 8)) {
          const want = refExpectimax(w, boardToGrid(b), depth);
          player.evaluateMoves(b).forEach((e, i) => expect(close(e.value, want[i]), `move ${i}: ${e.value} vs ${want[i]}`).toBe(true));
        }
      }
    });
  }
});

describe('stages', () => {
  it('a board is in the stage of its largest tile (or tile sum): from ≤ m < to', () => {
    const tileSum = parseWeights({ ...staged, stages: { by: 'tileSum', list: [{ from: 0, to: 1000 }, { from: 1000 }] } });
    for (const b of randomBoards('stage-of', 2000, 0.35, 12)) {
      const tiles = boardToGrid(b).flat();
      const max = Math.max(...tiles);
      expect(stageOf(staged, b)).toBe(max < 256 ? 0 : max < 1024 ? 1 : 2);
      expect(stageOf(tileSum, b)).toBe(tiles.reduce((a, v) => a + v, 0) < 1000 ? 0 : 1);
    }
  });

  it('the heuristic of a board is its stage\'s, equal to the direct formula on 3,000 random boards of every stage', () => {
    const player = createExpectimaxPlayer(staged, { cacheMB: 0 });
    const seen = new Set<number>();
    for (const b of randomBoards('stages-heur', 3000, 0.35, 12)) {
      seen.add(stageOf(staged, b));
      const want = refHeuristic(staged, boardToGrid(b));
      expect(Math.abs(player.heuristic(b) - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
    }
    expect(seen).toEqual(new Set([0, 1, 2]));
  });

  it('a decision searches with the stage of the board to move on, at depths 1 and 2 (brute force), for expectimax and minimax', () => {
    const tables = buildStagedTables(staged);
    expect(tables.stages).toHaveLength(3);
    const seen = new Set<number>();
    for (const depth of [1, 2]) {
      const player = createExpectimaxPlayer(tables, { depth, cprob: 0, cacheMB: 0 });
      // Boards of every stage: tiles up to 2048, and up to 128 (stage 0).
      const early = randomBoards(`stages-bf-early-${depth}`, depth === 1 ? 20 : 6, 0.3, 7).filter((b) => countEmpty(b) <= 6);
      for (const b of [...positions(`stages-bf-${depth}`, depth === 1 ? 40 : 10), ...early]) {
        const k = stageOf(staged, b);
        seen.add(k);
        const want = refExpectimax(staged, boardToGrid(b), depth);
        player.evaluateMoves(b).forEach((e, i) => expect(close(e.value, want[i]), `stage ${k} move ${i}: ${e.value} vs ${want[i]}`).toBe(true));
      }
    }
    expect(seen).toEqual(new Set([0, 1, 2]));
    // Minimax over a staged heuristic: as minimax over the stage's own weights.
    const mm = createMinimaxPlayer(staged, { depth: 1 });
    for (const b of positions('stages-minimax', 30)) {
      const own = createMinimaxPlayer(stageWeights(staged, stageOf(staged, b)), { depth: 1 });
      expect(mm.chooseMove(b)).toBe(own.chooseMove(b));
    }
  });

  it('haskell-staged: seed 000\'s two matrices, the early one up to a 512 tile, equal to the direct formula on boards of both stages', () => {
    const w = loadWeights('haskell-staged');
    const player = createExpectimaxPlayer(w, { cacheMB: 0 });
    const early = [[21, 8, 3, 3], [9, 5, 2, 0], [4, 3, 0, 0], [0, 0, 0, 0]];
    for (const b of randomBoards('haskell-staged', 2000, 0.35, 11)) {
      const grid = boardToGrid(b);
      const late = Math.max(...grid.flat()) > 512;
      // Seed 000's utility: its matrix, 50 per empty cell per line, 15 per descent, −5 |a − b| per neighbour pair.
      const m = late ? loadWeights('haskell').matrix! : early;
      const want = refHeuristic({ ...loadWeights('haskell'), matrix: m }, grid);
      expect(Math.abs(player.heuristic(b) - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
    }
  });

  it('a whole game switches tables as the largest tile grows, and plays as a player of each stage would', () => {
    const player = createExpectimaxPlayer(staged, { depth: 1 });
    const own = [0, 1, 2].map((k) => createExpectimaxPlayer(stageWeights(staged, k), { depth: 1 }));
    const stagesSeen = new Set<number>();
    playGame(
      {
        chooseMove: (b) => {
          const k = stageOf(staged, b);
          stagesSeen.add(k);
          const m = player.chooseMove(b);
          expect(m).toBe(own[k].chooseMove(b));
          return m;
        },
      },
      3,
    );
    expect(stagesSeen.size).toBeGreaterThanOrEqual(2);
  });
});

describe('malformed version-2 weights', () => {
  const base = { format: 'tune2048/weights', version: 2, empty: 270 };
  const stages = (list: unknown[], by = 'maxTile') => ({ ...base, stages: { by, list } });
  it.each([
    ['line terms in a version-1 file', { ...base, version: 1, lines: { outerRows: { empty: 1 } } }, /field "lines": needs "version": 2/],
    ['an unknown line group', { ...base, lines: { corners: { empty: 1 } } }, /field "lines": unknown key "corners"/],
    ['an unknown line term', { ...base, lines: { outerRows: { matrix: 1 } } }, /field "lines.outerRows": unknown key "matrix"/],
    ['a non-finite line term', { ...base, lines: { innerRows: { empty: 'lots' } } }, /field "lines.innerRows.empty"/],
    ['one stage', stages([{ from: 0 }]), /field "stages.list": needs 2 to 4 stages/],
    ['five stages', stages([0, 1, 2, 3, 4].map((k) => (k < 4 ? { from: k * 10, to: k * 10 + 10 } : { from: 40 }))), /field "stages.list": needs 2 to 4 stages/],
    ['an unknown measure', stages([{ from: 0, to: 512 }, { from: 512 }], 'moves'), /field "stages.by"/],
    ['a first stage above 0', stages([{ from: 8, to: 512 }, { from: 512 }]), /field "stages.list.0.from": the first stage must start at 0/],
    ['a gap', stages([{ from: 0, to: 256 }, { from: 512 }]), /field "stages.list.1.from": stages leave a gap from 256 to 512/],
    ['an overlap', stages([{ from: 0, to: 512 }, { from: 256 }]), /field "stages.list.1.from": stages overlap from 256 to 512/],
    ['a closed last stage', stages([{ from: 0, to: 512 }, { from: 512, to: 4096 }]), /field "stages.list.1.to": the last stage must be open/],
    ['an open inner stage', stages([{ from: 0 }, { from: 512 }]), /field "stages.list.0.to": missing/],
    ['an empty stage', stages([{ from: 0, to: 0 }, { from: 0 }]), /field "stages.list.0.to": must be above "from"/],
    ['a stage setting stages', stages([{ from: 0, to: 512, stages: {} }, { from: 512 }]), /field "stages.list.0": unknown key "stages"/],
    ['a stage whose term overflows', stages([{ from: 0, to: 512 }, { from: 512, sum: 1e300 }]), /stages.list.1: field "sum": its term of the heuristic/],
  ])('refuses %s with one line naming the field', (_what, data, message) => {
    expect(() => parseWeights(data, 'weights file "w.json"')).toThrow(message);
    try {
      parseWeights(data, 'weights file "w.json"');
    } catch (e) {
      expect((e as Error).message).not.toContain('\n');
      expect((e as Error).message).toMatch(/^weights file "w.json": /);
    }
  });
});
