/**
 * The TypeScript expectimax that tune2048 played with before the search moved
 * to WebAssembly (src/wasm): kept, unchanged in behaviour, as the judge of
 * "bit for bit the same play" and for the side-by-side benchmark
 * (scripts/bench-search.ts). The library no longer uses it.
 *
 * Expectimax over the table engine, after nneonneo/2048-ai's 2048.cpp.
 *
 * - Max node: the best legal move's chance value; a board with no legal move
 *   (lost) scores 0, so a positive `alive` bonus rewards survival.
 *   (nneonneo starts its max at 0, which also clamps negative heuristics to 0;
 *   we take the true maximum so tuned weights with negative values stay correct.)
 * - Chance node: the average over every empty cell of 0.9·(a 2 spawns) + 0.1·(a 4).
 * - `depth` counts the chance layers expanded below the root move; a chance node
 *   at that depth, or whose path probability is below `cprob`, is scored by the
 *   heuristic. `auto` = max(3, distinct tiles − 2).
 * - Transposition table: typed arrays (no objects), direct-mapped, keyed by the
 *   board, stamped with a per-decision epoch so it never needs clearing. An
 *   entry stored at chance depth d is reused at depth ≥ d (it was searched at
 *   least as deep), as nneonneo does.
 *
 * Everything hot lives in one closure: no allocation per node, boards are two
 * int32 locals, moves are table lookups, the transpose is inlined.
 */
import { Board, countDistinctTiles, makeBoard } from '../../src/engine/board';
import { Direction, DIRECTIONS, moveInto, moved } from '../../src/engine/moves';
import * as engineTables from '../../src/engine/tables';
import type { HeuristicTables } from '../../src/heuristic/tables';
import { MAX_DEPTH } from '../../src/player/limits';
import { DEFAULT_SEARCH, validateSearchSettings, type MoveEvaluation, type ExpectimaxPlayer, type SearchSettings } from '../../src/player/expectimax';

// Local aliases: transpilers (tsx, vitest) may turn imported bindings into
// getter calls, which costs ~5x on the hot path.
const ROW_LEFT = engineTables.ROW_LEFT;
const ROW_RIGHT = engineTables.ROW_RIGHT;
const EMPTY_COUNT = engineTables.EMPTY_COUNT;

const TT_BYTES_PER_ENTRY = 4 + 4 + 4 + 1 + 8;

export function createJsSearcher(tables: HeuristicTables, options: Partial<SearchSettings> = {}): ExpectimaxPlayer {
  const settings: SearchSettings = { ...DEFAULT_SEARCH, ...options };
  validateSearchSettings(settings);
  const L = tables.lineTable;
  const [R0, R1, R2, R3] = tables.rowTables;
  const [C0, C1, C2, C3] = tables.columnTables;
  const cprobMin = settings.cprob;

  // Transposition table: the largest power of two of entries within the cap.
  let ttBits = 0;
  while (ttBits < 30 && 2 ** (ttBits + 1) * TT_BYTES_PER_ENTRY <= settings.cacheMB * 1024 * 1024) ttBits++;
  const useCache = settings.cacheMB > 0 && ttBits >= 4;
  const ttSize = useCache ? 2 ** ttBits : 1;
  const ttMask = ttSize - 1;
  const ttLo = new Int32Array(ttSize);
  const ttHi = new Int32Array(ttSize);
  const ttEpoch = new Int32Array(ttSize); // 0 = never written
  const ttDepth = new Uint8Array(ttSize);
  const ttValue = new Float64Array(ttSize);
  let epoch = 0;

  let depthLimit = 0;
  let nodes = 0;
  let leaves = 0;
  let cacheHits = 0;
  let movesExecuted = 0;

  function evaluate(lo: number, hi: number): number {
    const alo = (lo & 0xf0f00f0f) | ((lo & 0x0000f0f0) << 12) | ((lo & 0x0f0f0000) >>> 12);
    const ahi = (hi & 0xf0f00f0f) | ((hi & 0x0000f0f0) << 12) | ((hi & 0x0f0f0000) >>> 12);
    const tlo = (alo & 0x00ff00ff) | ((ahi & 0x00ff00ff) << 8);
    const thi = (ahi & 0xff00ff00) | ((alo & 0xff00ff00) >>> 8);
    return (
      R0[lo & 0xffff] + R1[lo >>> 16] + R2[hi & 0xffff] + R3[hi >>> 16] +
      C0[tlo & 0xffff] + C1[tlo >>> 16] + C2[thi & 0xffff] + C3[thi >>> 16]
    );
  }

  function chanceNode(lo: number, hi: number, cprob: number, curdepth: number): number {
    if (curdepth >= depthLimit || cprob < cprobMin) {
      leaves++;
      return evaluate(lo, hi);
    }
    let slot = 0;
    if (useCache) {
      let h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
      h ^= h >>> 15;
      slot = h & ttMask;
      if (ttEpoch[slot] === epoch && ttLo[slot] === lo && ttHi[slot] === hi && ttDepth[slot] <= curdepth) {
        cacheHits++;
        return ttValue[slot];
      }
    }
    nodes++;
    const open = EMPTY_COUNT[lo & 0xffff] + EMPTY_COUNT[lo >>> 16] + EMPTY_COUNT[hi & 0xffff] + EMPTY_COUNT[hi >>> 16];
    const p = cprob / open;
    const p2 = p * 0.9;
    const p4 = p * 0.1;
    const next = curdepth + 1;
    let sum = 0;
    for (let s = 0; s < 32; s += 4) {
      if (((lo >>> s) & 15) === 0) {
        sum += 0.9 * maxNode(lo | (1 << s), hi, p2, next) + 0.1 * maxNode(lo | (2 << s), hi, p4, next);
      }
    }
    for (let s = 0; s < 32; s += 4) {
      if (((hi >>> s) & 15) === 0) {
        sum += 0.9 * maxNode(lo, hi | (1 << s), p2, next) + 0.1 * maxNode(lo, hi | (2 << s), p4, next);
      }
    }
    const value = sum / open;
    if (useCache) {
      ttLo[slot] = lo;
      ttHi[slot] = hi;
      ttEpoch[slot] = epoch;
      ttDepth[slot] = curdepth;
      ttValue[slot] = value;
    }
    return value;
  }

  // With no matrix the heuristic is symmetric under transposition (rows and
  // columns use the same table), so up/down leaves can be scored in transposed form.
  const symmetric = [R0, R1, R2, R3, C0, C1, C2, C3].every((t) => t === L);

  /**
   * A max node whose children are all leaves: the best heuristic value over legal moves.
   * Its four moves are written out like maxNode's on purpose: sharing them through a helper
   * that returns boards (via a scratch array or a callback) would add a call and a memory
   * round trip per child on the hottest path of the search.
   */
  function maxLeaf(lo: number, hi: number): number {
    nodes++;
    movesExecuted += 4;
    let best = -Infinity;
    let v = 0;
    const r0 = lo & 0xffff;
    const r1 = lo >>> 16;
    const r2 = hi & 0xffff;
    const r3 = hi >>> 16;
    let nlo = ROW_LEFT[r0] | (ROW_LEFT[r1] << 16);
    let nhi = ROW_LEFT[r2] | (ROW_LEFT[r3] << 16);
    if (nlo !== lo || nhi !== hi) {
      leaves++;
      v = evaluate(nlo, nhi);
      if (v > best) best = v;
    }
    nlo = ROW_RIGHT[r0] | (ROW_RIGHT[r1] << 16);
    nhi = ROW_RIGHT[r2] | (ROW_RIGHT[r3] << 16);
    if (nlo !== lo || nhi !== hi) {
      leaves++;
      v = evaluate(nlo, nhi);
      if (v > best) best = v;
    }
    let alo = (lo & 0xf0f00f0f) | ((lo & 0x0000f0f0) << 12) | ((lo & 0x0f0f0000) >>> 12);
    let ahi = (hi & 0xf0f00f0f) | ((hi & 0x0000f0f0) << 12) | ((hi & 0x0f0f0000) >>> 12);
    const tlo = (alo & 0x00ff00ff) | ((ahi & 0x00ff00ff) << 8);
    const thi = (ahi & 0xff00ff00) | ((alo & 0xff00ff00) >>> 8);
    const c0 = tlo & 0xffff;
    const c1 = tlo >>> 16;
    const c2 = thi & 0xffff;
    const c3 = thi >>> 16;
    for (let k = 0; k < 2; k++) {
      const table = k === 0 ? ROW_LEFT : ROW_RIGHT;
      nlo = table[c0] | (table[c1] << 16);
      nhi = table[c2] | (table[c3] << 16);
      if (nlo !== tlo || nhi !== thi) {
        leaves++;
        if (symmetric) {
          v = evaluate(nlo, nhi);
        } else {
          alo = (nlo & 0xf0f00f0f) | ((nlo & 0x0000f0f0) << 12) | ((nlo & 0x0f0f0000) >>> 12);
          ahi = (nhi & 0xf0f00f0f) | ((nhi & 0x0000f0f0) << 12) | ((nhi & 0x0f0f0000) >>> 12);
          v = evaluate((alo & 0x00ff00ff) | ((ahi & 0x00ff00ff) << 8), (ahi & 0xff00ff00) | ((alo & 0xff00ff00) >>> 8));
        }
        if (v > best) best = v;
      }
    }
    return best === -Infinity ? 0 : best;
  }

  function maxNode(lo: number, hi: number, cprob: number, curdepth: number): number {
    // Children are chance nodes at (cprob, curdepth): if those are leaves, score them directly.
    if (curdepth >= depthLimit || cprob < cprobMin) return maxLeaf(lo, hi);
    nodes++;
    movesExecuted += 4;
    let best = -Infinity;
    let v = 0;
    const r0 = lo & 0xffff;
    const r1 = lo >>> 16;
    const r2 = hi & 0xffff;
    const r3 = hi >>> 16;
    // left
    let nlo = ROW_LEFT[r0] | (ROW_LEFT[r1] << 16);
    let nhi = ROW_LEFT[r2] | (ROW_LEFT[r3] << 16);
    if (nlo !== lo || nhi !== hi) {
      v = chanceNode(nlo, nhi, cprob, curdepth);
      if (v > best) best = v;
    }
    // right
    nlo = ROW_RIGHT[r0] | (ROW_RIGHT[r1] << 16);
    nhi = ROW_RIGHT[r2] | (ROW_RIGHT[r3] << 16);
    if (nlo !== lo || nhi !== hi) {
      v = chanceNode(nlo, nhi, cprob, curdepth);
      if (v > best) best = v;
    }
    // up and down: slide the rows of the transpose, then transpose back
    let alo = (lo & 0xf0f00f0f) | ((lo & 0x0000f0f0) << 12) | ((lo & 0x0f0f0000) >>> 12);
    let ahi = (hi & 0xf0f00f0f) | ((hi & 0x0000f0f0) << 12) | ((hi & 0x0f0f0000) >>> 12);
    const tlo = (alo & 0x00ff00ff) | ((ahi & 0x00ff00ff) << 8);
    const thi = (ahi & 0xff00ff00) | ((alo & 0xff00ff00) >>> 8);
    const c0 = tlo & 0xffff;
    const c1 = tlo >>> 16;
    const c2 = thi & 0xffff;
    const c3 = thi >>> 16;
    nlo = ROW_LEFT[c0] | (ROW_LEFT[c1] << 16);
    nhi = ROW_LEFT[c2] | (ROW_LEFT[c3] << 16);
    if (nlo !== tlo || nhi !== thi) {
      alo = (nlo & 0xf0f00f0f) | ((nlo & 0x0000f0f0) << 12) | ((nlo & 0x0f0f0000) >>> 12);
      ahi = (nhi & 0xf0f00f0f) | ((nhi & 0x0000f0f0) << 12) | ((nhi & 0x0f0f0000) >>> 12);
      v = chanceNode((alo & 0x00ff00ff) | ((ahi & 0x00ff00ff) << 8), (ahi & 0xff00ff00) | ((alo & 0xff00ff00) >>> 8), cprob, curdepth);
      if (v > best) best = v;
    }
    nlo = ROW_RIGHT[c0] | (ROW_RIGHT[c1] << 16);
    nhi = ROW_RIGHT[c2] | (ROW_RIGHT[c3] << 16);
    if (nlo !== tlo || nhi !== thi) {
      alo = (nlo & 0xf0f00f0f) | ((nlo & 0x0000f0f0) << 12) | ((nlo & 0x0f0f0000) >>> 12);
      ahi = (nhi & 0xf0f00f0f) | ((nhi & 0x0000f0f0) << 12) | ((nhi & 0x0f0f0000) >>> 12);
      v = chanceNode((alo & 0x00ff00ff) | ((ahi & 0x00ff00ff) << 8), (ahi & 0xff00ff00) | ((alo & 0xff00ff00) >>> 8), cprob, curdepth);
      if (v > best) best = v;
    }
    return best === -Infinity ? 0 : best;
  }

  function depthFor(board: Board): number {
    return settings.depth === 'auto' ? Math.min(MAX_DEPTH, Math.max(3, countDistinctTiles(board) - 2)) : settings.depth;
  }

  function beginDecision(board: Board): void {
    depthLimit = depthFor(board);
    epoch++;
    if (epoch === 0x7fffffff) {
      epoch = 1;
      ttEpoch.fill(0);
    }
  }

  function chooseMove(board: Board): Direction | -1 {
    beginDecision(board);
    let best = -Infinity;
    let bestMove: Direction | -1 = -1;
    for (const dir of DIRECTIONS) {
      moveInto(board.lo, board.hi, dir);
      const lo = moved[0];
      const hi = moved[1];
      if (lo === board.lo && hi === board.hi) continue;
      const v = chanceNode(lo, hi, 1, 0);
      if (v > best) {
        best = v;
        bestMove = dir;
      }
    }
    return bestMove;
  }

  function evaluateMoves(board: Board): MoveEvaluation[] {
    beginDecision(board);
    return DIRECTIONS.map((dir) => {
      moveInto(board.lo, board.hi, dir);
      const after = makeBoard(moved[0], moved[1]);
      const score = moved[2];
      const legal = after.lo !== board.lo || after.hi !== board.hi;
      return { move: dir, legal, board: after, score, value: legal ? chanceNode(after.lo, after.hi, 1, 0) : null };
    });
  }

  // The depth counter as the WebAssembly player keeps it: a decision that found a move adds its depth.
  let depths = 0;
  const counted = (board: Board): Direction | -1 => {
    const move = chooseMove(board);
    if (move >= 0) depths += depthFor(board);
    return move;
  };
  return {
    settings: Object.freeze({ ...settings }),
    chooseMove: counted,
    evaluateMoves,
    decide: (board) => ({ move: counted(board), values: evaluateMoves(board).map((m) => m.value ?? NaN) }),
    heuristic: (board) => evaluate(board.lo | 0, board.hi | 0),
    depthFor,
    stats: () => ({ nodes, leaves, cacheHits, movesExecuted }),
    searchNodes: () => nodes,
    searchDepths: () => depths,
    resetStats: () => {
      nodes = leaves = cacheHits = movesExecuted = 0;
    },
  };
}
