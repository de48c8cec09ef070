/**
 * Expectimax with an n-tuple network at the leaves (build/learn.wasm): the search of search.ts, with the
 * heuristic replaced by what the network estimates, the score still to come from an afterstate.
 *
 * A root move is worth its reward + the value of its afterstate (a chance node). A chance node expanded
 * averages its max nodes over every empty cell × {2: 0.9, 4: 0.1}; a max node is worth the best over its
 * legal moves of reward + the chance node of the afterstate, 0 when none is legal (the game is over: nothing
 * more will be scored). A chance node at the depth limit, or whose path probability fell below cprob, is
 * worth the network's value of the afterstate; a max node at the limit takes the greedy choice over its
 * moves (reward + value), as training does. So depth 0 is the greedy player, and depth d counts the chance
 * layers expanded below the root move, as nneonneo's depth and tune2048's expectimax do.
 *
 * The same order of floating-point operations as src/learn/ntuple/search-reference.ts (a plain-grid brute
 * force), so with no transposition table the two give the same values to the bit. The table (one per
 * instance, 32-byte entries: key, value, epoch, depth) is search.ts's: keyed by the afterstate, reused only
 * at the same or a shallower depth, forgotten at each new root move. Beside it, a leaf cache of the
 * network's values (below), exact, forgotten at each decision.
 */
import { addresses, networkValue, slot, SLOTS, transpose, valueAt } from './ntuple';
import { after0, after1, after2, after3, afterstate, bestReward, bestValue, choose, expand, reward, reward0, reward1, reward2, reward3 } from './network-moves';

let depthLimit: i32 = 0;
let cprobMin: f64 = 0;
let tt: usize = 0;
let ttMask: i32 = 0;
let useCache = false;
let epoch: i32 = 0;
let nodes: i64 = 0;

/**
 * The leaf cache: the network's values of leaf afterstates (2^LEAF_BITS entries of 16 bytes: the board, 0 in
 * an empty entry — never a legal afterstate —, and its value), after each instance's transposition table. A
 * search reaches one leaf afterstate by many paths (a tile spawned in either of two cells of a row, then the
 * row slid), and a value is 32 reads that mostly miss the processor's cache: two leaves in three are found
 * here at depth 2, seven in ten at depth 3. Its size is set by the processor's cache, not by hits: 2^14
 * entries of 16 bytes (256 KiB) search ziap's network at depth 2 1.09–1.14× faster than the same entries at
 * 32 bytes (with an epoch each) did, and 2^15 entries of 16 bytes are 7 % slower than 2^14 though they find a
 * few more (scripts/bench-network-search.ts). A value is a pure function of the board while the tables stay
 * (only the plain network's values are kept: stage weights and a leaf heuristic go around it), so a hit is
 * exact. The cache is cleared at each decision unless the tables can no longer change (keepLeaves: a
 * network loaded to play): then a decision finds the leaves of the one before, where the game went on (the
 * next decision's leaves are the last one's, a move further down its tree).
 */
export const LEAF_BITS: i32 = 14;
const LEAF_BYTES: usize = 16;
let leaves: usize = 0;
let leavesKept = false;
/** Leaf values computed (not found in the cache) since this instance began: what the cache saves, counted. */
let leafComputations: i64 = 0;

export function leafValuesComputed(): f64 {
  return <f64>leafComputations;
}

/** Keep the leaf cache from one decision to the next (1: the tables will not change again; 0: forget it at each decision, the default). */
export function keepLeaves(on: i32): void {
  if ((on != 0) == leavesKept) return;
  leavesKept = on != 0;
  clearLeaves();
}

/** Forgets every leaf value. */
function clearLeaves(): void {
  if (useCache) memory.fill(leaves, 0, <usize>LEAF_BYTES << LEAF_BITS);
}

/**
 * This instance's transposition table (2^bits entries of 32 bytes at `base`; bits < 4: none), and the leaf
 * cache right after it (2^LEAF_BITS entries of LEAF_BYTES).
 */
export function useSearchTable(base: usize, bits: i32): void {
  useCache = bits >= 4 && base != 0;
  tt = base;
  ttMask = useCache ? (1 << bits) - 1 : 0;
  leaves = useCache ? base + (<usize>(ttMask + 1) << 5) : 0;
  if (useCache) memory.fill(tt, 0, (<usize>(ttMask + 1) << 5) + (LEAF_BYTES << LEAF_BITS));
  epoch = 0;
}

/** The depth and cutoff of the next decision; its leaf cache starts afresh unless kept (the tables may have changed since the last). */
export function setNetworkSearch(limit: i32, cprob: f64): void {
  depthLimit = limit;
  cprobMin = cprob;
  if (!leavesKept) clearLeaves();
}

// Stage weights (shape.ts's MAX_STAGES = 8): a leaf's value is its stage's weight × the network's value.
// Off (the default), the leaves are the network's values as training reads them.
let weighted = false;
let w0: f64 = 1;
let w1: f64 = 1;
let w2: f64 = 1;
let w3: f64 = 1;
let w4: f64 = 1;
let w5: f64 = 1;
let w6: f64 = 1;
let w7: f64 = 1;

/** Stage `stage`'s weight on the network's value at the leaves; any weight set turns weighting on until clearStageWeights. */
export function setStageWeight(stage: i32, w: f64): void {
  weighted = true;
  if (stage == 0) w0 = w;
  else if (stage == 1) w1 = w;
  else if (stage == 2) w2 = w;
  else if (stage == 3) w3 = w;
  else if (stage == 4) w4 = w;
  else if (stage == 5) w5 = w;
  else if (stage == 6) w6 = w;
  else w7 = w;
}

export function clearStageWeights(): void {
  weighted = false;
  w0 = w1 = w2 = w3 = w4 = w5 = w6 = w7 = 1;
}

@inline function stageWeight(stage: i32): f64 {
  return stage == 0 ? w0 : stage == 1 ? w1 : stage == 2 ? w2 : stage == 3 ? w3 : stage == 4 ? w4 : stage == 5 ? w5 : stage == 6 ? w6 : w7;
}

// Heuristic terms on top (tune2048's weights as search.ts reads them: f64[65536] per row and per column).
let withHeuristic = false;
let h0: usize = 0;
let h1: usize = 0;
let h2: usize = 0;
let h3: usize = 0;
let h4: usize = 0;
let h5: usize = 0;
let h6: usize = 0;
let h7: usize = 0;

/** Adds the heuristic of these row tables (rows 0-3) and column tables (columns 0-3) to every leaf. */
export function useLeafHeuristic(row0: usize, row1: usize, row2: usize, row3: usize, col0: usize, col1: usize, col2: usize, col3: usize): void {
  withHeuristic = true;
  h0 = row0;
  h1 = row1;
  h2 = row2;
  h3 = row3;
  h4 = col0;
  h5 = col1;
  h6 = col2;
  h7 = col3;
}

export function clearLeafHeuristic(): void {
  withHeuristic = false;
}

@inline function lookup(table: usize, row: u64): f64 {
  return load<f64>(table + (<usize>row << 3));
}

/** Σ rows + Σ columns, in search.ts's order. */
function heuristicOf(b: u64): f64 {
  const t = transpose(b);
  return (
    lookup(h0, b & 0xffff) + lookup(h1, (b >> 16) & 0xffff) + lookup(h2, (b >> 32) & 0xffff) + lookup(h3, b >> 48) +
    lookup(h4, t & 0xffff) + lookup(h5, (t >> 16) & 0xffff) + lookup(h6, (t >> 32) & 0xffff) + lookup(h7, t >> 48)
  );
}

/** A leaf afterstate's value: the network's, times its stage's weight when weighting is on, + the heuristic when one is on. */
function leafValue(b: u64): f64 {
  if (!weighted && !withHeuristic) {
    if (!useCache) return networkValue(b);
    const v = cachedLeaf(b);
    return isNaN(v) ? computedLeaf(b, SLOTS - 1, addresses(b, slot(SLOTS - 1))) : v;
  }
  const at = slot(SLOTS - 1);
  const stage = addresses(b, at);
  const v = weighted ? stageWeight(stage) * valueAt(at, stage) : valueAt(at, stage);
  return withHeuristic ? v + heuristicOf(b) : v;
}

@inline function hashOf(b: u64): i32 {
  const lo = <i32>b;
  const hi = <i32>(b >> 32);
  const h = (lo ^ (hi * 0x27d4eb2d)) * <i32>0x9e3779b1;
  return h ^ <i32>(<u32>h >> 15);
}

@inline function leafEntry(after: u64): usize {
  return leaves + <usize>(hashOf(after) & ((1 << LEAF_BITS) - 1)) * LEAF_BYTES;
}

// The stages of the afterstates whose addresses cachedGreedyLeaf put in slots 0-3.
let stage0: i32 = 0;
let stage1: i32 = 0;
let stage2: i32 = 0;
let stage3: i32 = 0;

/** A leaf afterstate's value from the leaf cache, NaN when it is not there; 0 for an illegal move (`after` 0). */
@inline function cachedLeaf(after: u64): f64 {
  if (after == 0) return 0;
  const e = leafEntry(after);
  return load<u64>(e) == after ? load<f64>(e, 8) : NaN;
}

/** The value of the afterstate whose addresses are in slot k, kept in the leaf cache. */
@inline function computedLeaf(after: u64, k: i32, stage: i32): f64 {
  leafComputations++;
  const v = valueAt(slot(k), stage);
  const e = leafEntry(after);
  store<u64>(e, after);
  store<f64>(e, v, 8);
  return v;
}

/**
 * greedyLeaf of the plain network through the leaf cache: the addresses of every afterstate not found,
 * then their values (so up to four values' reads are in flight together, as in choose), then the best
 * reward + value, ties to the earlier, 0 when no move is legal: choose's value to the bit.
 */
function cachedGreedyLeaf(b: u64): f64 {
  expand(b);
  const a0 = after0;
  const a1 = after1;
  const a2 = after2;
  const a3 = after3;
  let v0 = cachedLeaf(a0);
  let v1 = cachedLeaf(a1);
  let v2 = cachedLeaf(a2);
  let v3 = cachedLeaf(a3);
  if (isNaN(v0)) stage0 = addresses(a0, slot(0));
  if (isNaN(v1)) stage1 = addresses(a1, slot(1));
  if (isNaN(v2)) stage2 = addresses(a2, slot(2));
  if (isNaN(v3)) stage3 = addresses(a3, slot(3));
  if (isNaN(v0)) v0 = computedLeaf(a0, 0, stage0);
  if (isNaN(v1)) v1 = computedLeaf(a1, 1, stage1);
  if (isNaN(v2)) v2 = computedLeaf(a2, 2, stage2);
  if (isNaN(v3)) v3 = computedLeaf(a3, 3, stage3);
  let best: f64 = 0;
  let found = false;
  if (a0 != 0) {
    best = reward0 + v0;
    found = true;
  }
  if (a1 != 0 && (!found || reward1 + v1 > best)) {
    best = reward1 + v1;
    found = true;
  }
  if (a2 != 0 && (!found || reward2 + v2 > best)) {
    best = reward2 + v2;
    found = true;
  }
  if (a3 != 0 && (!found || reward3 + v3 > best)) best = reward3 + v3;
  return best;
}

/** A max node at the limit: the best reward + leaf value over its legal moves (ties to the earlier), 0 when none is legal. */
function greedyLeaf(b: u64): f64 {
  if (!weighted && !withHeuristic) return useCache ? cachedGreedyLeaf(b) : choose(b, 0) < 0 ? 0 : bestReward + bestValue;
  let best = -Infinity;
  for (let dir = 0; dir < 4; dir++) {
    const n = afterstate(b, dir);
    if (n == b) continue;
    const v = reward(b, dir) + leafValue(n);
    if (v > best) best = v;
  }
  return best == -Infinity ? 0 : best;
}

export function searchNodes(): f64 {
  return <f64>nodes;
}

@inline function emptyCount(b: u64): i32 {
  let x = b | (b >> 1);
  x |= x >> 2;
  return 16 - <i32>popcnt(x & 0x1111111111111111);
}

/** An afterstate's value: the expected score still to come. */
function chanceNode(b: u64, cprob: f64, curdepth: i32): f64 {
  if (curdepth >= depthLimit || cprob < cprobMin) return leafValue(b);
  let entry: usize = 0;
  if (useCache) {
    entry = tt + (<usize>(hashOf(b) & ttMask) << 5);
    if (load<i32>(entry, 16) == epoch && load<u64>(entry) == b && load<i32>(entry, 20) <= curdepth) return load<f64>(entry, 8);
  }
  nodes++;
  const open = emptyCount(b);
  const p = cprob / <f64>open;
  const p2 = p * 0.9;
  const p4 = p * 0.1;
  const next = curdepth + 1;
  let sum: f64 = 0;
  for (let s: u64 = 0; s < 64; s += 4) {
    if (((b >> s) & 15) == 0) {
      sum += 0.9 * maxNode(b | (<u64>1 << s), p2, next) + 0.1 * maxNode(b | (<u64>2 << s), p4, next);
    }
  }
  const value = sum / <f64>open;
  if (useCache) {
    store<u64>(entry, b);
    store<f64>(entry, value, 8);
    store<i32>(entry, epoch, 16);
    store<i32>(entry, curdepth, 20);
  }
  return value;
}

/** A board after a spawn: the best reward + afterstate value over its legal moves, 0 when none is legal. */
function maxNode(b: u64, cprob: f64, curdepth: i32): f64 {
  nodes++;
  if (curdepth >= depthLimit || cprob < cprobMin) return greedyLeaf(b);
  // The four moves at once, kept here: the chance nodes below expand boards of their own.
  expand(b);
  const a0 = after0;
  const a1 = after1;
  const a2 = after2;
  const a3 = after3;
  const vertical = reward0;
  const horizontal = reward2;
  let best = -Infinity;
  if (a0 != 0) best = max(best, vertical + chanceNode(a0, cprob, curdepth));
  if (a1 != 0) best = max(best, vertical + chanceNode(a1, cprob, curdepth));
  if (a2 != 0) best = max(best, horizontal + chanceNode(a2, cprob, curdepth));
  if (a3 != 0) best = max(best, horizontal + chanceNode(a3, cprob, curdepth));
  return best == -Infinity ? 0 : best;
}

/**
 * The value of one root move (0 up, 1 down, 2 left, 3 right): its reward + its afterstate's chance node,
 * NaN when illegal. Each root move starts a new epoch of the table, so any instance may search any root
 * move, in any order, and get the same value.
 */
export function searchMove(lo: i32, hi: i32, dir: i32): f64 {
  const b = (<u64>(<u32>hi) << 32) | <u64>(<u32>lo);
  const n = afterstate(b, dir);
  if (n == b) return NaN;
  epoch++;
  if (epoch == 0x7fffffff) {
    epoch = 1;
    if (useCache) memory.fill(tt, 0, <usize>(ttMask + 1) << 5);
  }
  return reward(b, dir) + chanceNode(n, 1, 0);
}
