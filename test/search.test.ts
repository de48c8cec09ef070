import { describe, expect, it } from 'vitest';
import { boardToGrid, countEmpty, parseBoard } from '../src/engine/board';
import { buildHeuristicTables } from '../src/heuristic/tables';
import { loadWeights } from '../src/heuristic/weights';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { refExpectimax } from './helpers/reference';
import { randomBoards } from './helpers/boards';

const close = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

// Positions with many tiles keep brute force at depth 2 affordable.
const positions = (seed: string, n: number) => randomBoards(seed, n, 0.3, 9).filter((b) => countEmpty(b) <= 6);

describe('expectimax', () => {
  for (const preset of ['nneonneo', 'snake3', 'haskell']) {
    const weights = loadWeights(preset);
    const tables = buildHeuristicTables(weights);
    for (const depth of [1, 2]) {
      it(`${preset}: equals brute force at depth ${depth} (no cutoff, no cache)`, () => {
        const searcher = createExpectimaxPlayer(tables, { depth, cprob: 0, cacheMB: 0 });
        for (const b of positions(`bf-${preset}-${depth}`, depth === 1 ? 40 : 12)) {
          const got = searcher.evaluateMoves(b).map((e) => e.value);
          const want = refExpectimax(weights, boardToGrid(b), depth);
          got.forEach((v, i) => expect(close(v, want[i]), `move ${i}: ${v} vs ${want[i]}`).toBe(true));
        }
      });
    }
  }

  it('the cache changes neither values (no cutoff) nor the chosen move', () => {
    const tables = buildHeuristicTables(loadWeights('nneonneo'));
    const withCache = createExpectimaxPlayer(tables, { depth: 2, cprob: 0, cacheMB: 16 });
    const without = createExpectimaxPlayer(tables, { depth: 2, cprob: 0, cacheMB: 0 });
    let hits = 0;
    for (const b of positions('cache', 60)) {
      const a = withCache.evaluateMoves(b).map((e) => e.value);
      const c = without.evaluateMoves(b).map((e) => e.value);
      a.forEach((v, i) => expect(close(v, c[i])).toBe(true));
      expect(withCache.chooseMove(b)).toBe(without.chooseMove(b));
      hits = withCache.stats().cacheHits;
    }
    expect(hits).toBeGreaterThan(0); // the test exercised the cache
  });

  it('with the default cutoff and cache, picks the same move as the exact search on most positions', () => {
    const tables = buildHeuristicTables(loadWeights('nneonneo'));
    const fast = createExpectimaxPlayer(tables, { depth: 2 });
    const exact = createExpectimaxPlayer(tables, { depth: 2, cprob: 0, cacheMB: 0 });
    const boards = positions('cutoff', 80);
    const same = boards.filter((b) => fast.chooseMove(b) === exact.chooseMove(b)).length;
    expect(same / boards.length).toBeGreaterThan(0.95);
  });

  it('scores a lost board 0 and returns -1 for it', () => {
    const searcher = createExpectimaxPlayer(buildHeuristicTables(loadWeights('nneonneo')), { depth: 1 });
    const b = parseBoard('2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2'); // no legal move
    expect(searcher.chooseMove(b)).toBe(-1);
    expect(searcher.evaluateMoves(b).every((e) => !e.legal && e.value === null)).toBe(true);
    // One move from a lost board: up merges nothing, so the only legal moves lead to a full board that is lost.
    const nearlyLost = parseBoard('2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 0');
    const values = searcher.evaluateMoves(nearlyLost).filter((e) => e.legal);
    expect(values.length).toBeGreaterThan(0);
  });

  it('auto depth is max(3, distinct tiles - 2)', () => {
    const searcher = createExpectimaxPlayer(buildHeuristicTables(loadWeights('nneonneo')), { depth: 'auto' });
    for (const b of randomBoards('auto', 50)) {
      const distinct = new Set(boardToGrid(b).flat().filter((v) => v > 0)).size;
      expect(searcher.depthFor(b)).toBe(Math.min(12, Math.max(3, distinct - 2)));
    }
  });

  it('rejects bad settings', () => {
    const tables = buildHeuristicTables(loadWeights('nneonneo'));
    expect(() => createExpectimaxPlayer(tables, { depth: -1 })).toThrow(/depth/);
    expect(() => createExpectimaxPlayer(tables, { depth: 1.5 })).toThrow(/depth/);
    expect(() => createExpectimaxPlayer(tables, { cprob: 2 })).toThrow(/cprob/);
  });
});
