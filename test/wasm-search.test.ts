/**
 * The WebAssembly search plays bit for bit as the TypeScript search it
 * replaced (test/helpers/js-search.ts): the same seeded games at depth 0–2 for
 * every preset, the same values on random boards at depth 1–3, any cache size.
 * (Its agreement with the slow brute-force reference is in search.test.ts.)
 * TUNE2048_IDENTITY_SEEDS=N scales the game check up: N seeds per preset at depth 0 and 1, N/5 at depth 2
 * (the note's figures: N = 300).
 */
import { describe, expect, it } from 'vitest';
import { countEmpty } from '../src/engine/board';
import { playGame } from '../src/engine/game';
import { buildHeuristicTables } from '../src/heuristic/tables';
import { listPresets, loadWeights } from '../src/heuristic/weights';
import { createExpectimaxPlayer, MAX_CACHE_MB } from '../src/player/expectimax';
import { createJsSearcher } from './helpers/js-search';
import { randomBoards } from './helpers/boards';

const SEEDS = Number(process.env.TUNE2048_IDENTITY_SEEDS ?? 0);
const seedsAt = (depth: number) => (SEEDS > 0 ? (depth < 2 ? SEEDS : Math.ceil(SEEDS / 5)) : [30, 12, 3][depth]);

describe('the WebAssembly search', () => {
  for (const preset of listPresets()) {
    it(`${preset}: the same seeded games as the TypeScript search at depth 0, 1 and 2`, () => {
      const tables = buildHeuristicTables(loadWeights(preset));
      for (const depth of [0, 1, 2]) {
        const wasm = createExpectimaxPlayer(tables, { depth, cacheMB: 16 });
        const js = createJsSearcher(tables, { depth, cacheMB: 16 });
        for (let seed = 1; seed <= seedsAt(depth); seed++) {
          const a = playGame(wasm, 1000 * depth + seed);
          const b = playGame(js, 1000 * depth + seed);
          expect({ ...a, ms: 0 }, `${preset} depth ${depth} seed ${seed}`).toEqual({ ...b, ms: 0 });
        }
      }
    });
  }

  it('gives exactly the same move values on random boards at depth 1–3, with and without a cache, with a cutoff or none', () => {
    for (const preset of ['nneonneo', 'snake3', 'tuned-d2']) {
      const tables = buildHeuristicTables(loadWeights(preset));
      for (const [depth, cprob, cacheMB] of [[1, 1e-4, 64], [2, 0, 0], [2, 1e-4, 1], [3, 1e-4, 16], ['auto', 1e-3, 64]] as const) {
        const wasm = createExpectimaxPlayer(tables, { depth, cprob, cacheMB });
        const js = createJsSearcher(tables, { depth, cprob, cacheMB });
        for (const b of randomBoards(`id-${preset}-${depth}-${cacheMB}`, 25, 0.4, 9).filter((x) => countEmpty(x) <= 8)) {
          expect(wasm.evaluateMoves(b)).toEqual(js.evaluateMoves(b));
          expect(wasm.heuristic(b)).toBe(js.heuristic(b));
        }
        expect(wasm.stats()).toEqual(js.stats());
      }
    }
  });

  it('searchers of different weights and settings may take turns in one process', () => {
    const a = buildHeuristicTables(loadWeights('nneonneo'));
    const b = buildHeuristicTables(loadWeights('snake3'));
    const wa = createExpectimaxPlayer(a, { depth: 2, cacheMB: 16 });
    const wb = createExpectimaxPlayer(b, { depth: 1, cacheMB: 4 });
    const ja = createJsSearcher(a, { depth: 2, cacheMB: 16 });
    const jb = createJsSearcher(b, { depth: 1, cacheMB: 4 });
    for (const board of randomBoards('turns', 30, 0.4, 9)) {
      expect(wa.evaluateMoves(board)).toEqual(ja.evaluateMoves(board));
      expect(wb.evaluateMoves(board)).toEqual(jb.evaluateMoves(board));
    }
    expect([wa.stats(), wb.stats()]).toEqual([ja.stats(), jb.stats()]);
  });

  it('refuses a cache it cannot hold, with one line', () => {
    const tables = buildHeuristicTables(loadWeights('nneonneo'));
    expect(() => createExpectimaxPlayer(tables, { cacheMB: MAX_CACHE_MB + 1 })).toThrow(new RegExp(`cache size must be 0..${MAX_CACHE_MB} MiB`));
  });
});
