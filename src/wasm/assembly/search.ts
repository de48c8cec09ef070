/**
 * The hot path of tune2048 in WebAssembly (AssemblyScript): moves, heuristic
 * lookups and expectimax with its transposition table, after nneonneo/2048-ai's
 * 2048.cpp. One instance per process; a new weight set only rewrites the
 * heuristic tables (written by the TypeScript side into the regions below).
 *
 * It computes exactly what src/player/expectimax.ts documents, in the same
 * order of floating-point operations, so play is bit for bit the same as the
 * earlier TypeScript search: same child order, same sums, same cutoff, same
 * transposition-table hash, slot and reuse rule.
 *
 * The board is a u64 of sixteen 4-bit ranks; cell k = 4*row + col at bits
 * 4k..4k+3 (row 0 at the top; a 16-bit row has its column 0 in the low nibble).
 */

const ROWS: i32 = 65536;

// ---- memory regions (allocated once by init, the TT by setCache) ----
let rowLeft: usize = 0; //  u16[65536]: a row slid toward column 0
let rowRight: usize = 0; // u16[65536]: a row slid toward column 3
let lineTable: usize = 0; // f64[65536]: the line score (rows and columns)
let rowTables: usize = 0; // f64[4 * 65536]: row i's line score + the matrix term of row i
let columnTables: usize = 0; // f64[4 * 65536]: column c's line score (line-position terms)
let r0: usize = 0; // the table used for row i: rowTables + i*65536*8, or lineTable when rows are alike
let r1: usize = 0;
let r2: usize = 0;
let r3: usize = 0;
let c0: usize = 0; // the table used for column c: columnTables + c*65536*8, or lineTable when columns are alike
let c1: usize = 0;
let c2: usize = 0;
let c3: usize = 0;
let symmetric = true;
let rootValues: usize = 0; // f64[4]: the value of each root move (NaN when illegal)

// Transposition table: 32-byte entries (key u64, value f64, epoch i32, depth i32), one per half cache line.
let tt: usize = 0;
let ttCapacity: i32 = 0; // entries allocated
let ttMask: i32 = 0;
let useCache = false;
let epoch: i32 = 0;

// ---- search settings and counters ----
let depthLimit: i32 = 0;
let cprobMin: f64 = 0;
let nodes: i64 = 0;
let leaves: i64 = 0;
let cacheHits: i64 = 0;
let movesExecuted: i64 = 0;

export function init(): void {
  if (rowLeft != 0) return;
  rowLeft = heap.alloc(ROWS << 1);
  rowRight = heap.alloc(ROWS << 1);
  lineTable = heap.alloc(ROWS << 3);
  rowTables = heap.alloc(ROWS << 5);
  columnTables = heap.alloc(ROWS << 5);
  rootValues = heap.alloc(32);
  r0 = r1 = r2 = r3 = c0 = c1 = c2 = c3 = lineTable;
}

export function rowLeftPtr(): usize {
  return rowLeft;
}
export function rowRightPtr(): usize {
  return rowRight;
}
export function lineTablePtr(): usize {
  return lineTable;
}
export function rowTablesPtr(): usize {
  return rowTables;
}
export function columnTablesPtr(): usize {
  return columnTables;
}
export function rootValuesPtr(): usize {
  return rootValues;
}

/**
 * After the caller wrote lineTable, and rowTables when rows differ (a matrix, line-position terms), and
 * columnTables when columns differ (line-position terms).
 */
export function useHeuristic(rowsDiffer: bool, columnsDiffer: bool): void {
  symmetric = !rowsDiffer && !columnsDiffer;
  if (rowsDiffer) {
    r0 = rowTables;
    r1 = rowTables + (<usize>ROWS << 3);
    r2 = rowTables + (<usize>ROWS << 4);
    r3 = rowTables + (<usize>ROWS << 3) * 3;
  } else {
    r0 = r1 = r2 = r3 = lineTable;
  }
  if (columnsDiffer) {
    c0 = columnTables;
    c1 = columnTables + (<usize>ROWS << 3);
    c2 = columnTables + (<usize>ROWS << 4);
    c3 = columnTables + (<usize>ROWS << 3) * 3;
  } else {
    c0 = c1 = c2 = c3 = lineTable;
  }
}

/** A table of 2^bits entries (bits < 4: no table). Entries from before are forgotten. */
export function setCache(bits: i32): void {
  useCache = bits >= 4;
  if (!useCache) return;
  const entries = 1 << bits;
  if (entries > ttCapacity) {
    tt = heap.alloc(<usize>entries << 5);
    ttCapacity = entries;
  }
  ttMask = entries - 1;
  memory.fill(tt, 0, <usize>entries << 5);
  epoch = 0;
}

export function setSearch(limit: i32, cprob: f64): void {
  depthLimit = limit;
  cprobMin = cprob;
}

export function resetStats(): void {
  nodes = leaves = cacheHits = movesExecuted = 0;
}
export function statNodes(): f64 {
  return <f64>nodes;
}
export function statLeaves(): f64 {
  return <f64>leaves;
}
export function statCacheHits(): f64 {
  return <f64>cacheHits;
}
export function statMovesExecuted(): f64 {
  return <f64>movesExecuted;
}

// ---- the board ----

@inline function transpose(x: u64): u64 {
  const a = (x & 0xf0f00f0ff0f00f0f) | ((x & 0x0000f0f00000f0f0) << 12) | ((x & 0x0f0f00000f0f0000) >> 12);
  return (a & 0xff00ff0000ff00ff) | ((a & 0x00ff00ff00000000) >> 24) | ((a & 0x00000000ff00ff00) << 24);
}

@inline function slide(table: usize, b: u64): u64 {
  return (
    <u64>load<u16>(table + ((<usize>b & 0xffff) << 1)) |
    (<u64>load<u16>(table + ((<usize>(b >> 16) & 0xffff) << 1)) << 16) |
    (<u64>load<u16>(table + ((<usize>(b >> 32) & 0xffff) << 1)) << 32) |
    (<u64>load<u16>(table + (<usize>(b >> 48) << 1)) << 48)
  );
}

/** The board after a move (0 up, 1 down, 2 left, 3 right), before the spawn. */
export function move(lo: i32, hi: i32, dir: i32): u64 {
  const b = (<u64>(<u32>hi) << 32) | <u64>(<u32>lo);
  if (dir >= 2) return slide(dir == 2 ? rowLeft : rowRight, b);
  return transpose(slide(dir == 0 ? rowLeft : rowRight, transpose(b)));
}

/** Moves every board of `boards` (u64[count]) in all four directions, `passes` times; a checksum (bench). */
export function benchMoves(boards: usize, count: i32, passes: i32): u64 {
  let sum: u64 = 0;
  for (let p = 0; p < passes; p++) {
    for (let i = 0; i < count; i++) {
      const b = load<u64>(boards + (<usize>i << 3));
      const t = transpose(b);
      sum += slide(rowLeft, b) ^ slide(rowRight, b) ^ transpose(slide(rowLeft, t)) ^ transpose(slide(rowRight, t));
    }
  }
  return sum;
}

export function boardsPtr(count: i32): usize {
  return heap.alloc(<usize>count << 3);
}

// ---- heuristic and search ----

@inline function lookup(table: usize, row: u64): f64 {
  return load<f64>(table + (<usize>row << 3));
}

/** Σ rows + Σ columns, in the same order as the TypeScript evaluate. */
@inline function evaluate(b: u64): f64 {
  const t = transpose(b);
  return (
    lookup(r0, b & 0xffff) + lookup(r1, (b >> 16) & 0xffff) + lookup(r2, (b >> 32) & 0xffff) + lookup(r3, b >> 48) +
    lookup(c0, t & 0xffff) + lookup(c1, (t >> 16) & 0xffff) + lookup(c2, (t >> 32) & 0xffff) + lookup(c3, t >> 48)
  );
}

export function heuristic(lo: i32, hi: i32): f64 {
  return evaluate((<u64>(<u32>hi) << 32) | <u64>(<u32>lo));
}

@inline function emptyCount(b: u64): i32 {
  // Nibbles that are zero: fold each nibble's bits into its low bit, count the zeros.
  let x = b | (b >> 1);
  x |= x >> 2;
  return 16 - <i32>popcnt(x & 0x1111111111111111);
}

function chanceNode(b: u64, cprob: f64, curdepth: i32): f64 {
  if (curdepth >= depthLimit || cprob < cprobMin) {
    leaves++;
    return evaluate(b);
  }
  let entry: usize = 0;
  if (useCache) {
    const lo = <i32>b;
    const hi = <i32>(b >> 32);
    let h = (lo ^ (hi * 0x27d4eb2d)) * <i32>0x9e3779b1;
    h ^= <i32>(<u32>h >> 15);
    entry = tt + (<usize>(h & ttMask) << 5);
    if (load<i32>(entry, 16) == epoch && load<u64>(entry) == b && load<i32>(entry, 20) <= curdepth) {
      cacheHits++;
      return load<f64>(entry, 8);
    }
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

/** A max node whose children are all leaves: the best heuristic value over legal moves (0 when none). */
function maxLeaf(b: u64): f64 {
  nodes++;
  movesExecuted += 4;
  let best = -Infinity;
  let n = slide(rowLeft, b);
  if (n != b) {
    leaves++;
    const v = evaluate(n);
    if (v > best) best = v;
  }
  n = slide(rowRight, b);
  if (n != b) {
    leaves++;
    const v = evaluate(n);
    if (v > best) best = v;
  }
  const t = transpose(b);
  n = slide(rowLeft, t);
  if (n != t) {
    leaves++;
    // When all lines are scored alike the heuristic is symmetric under transposition: score the transposed board as it is.
    const v = symmetric ? evaluate(n) : evaluate(transpose(n));
    if (v > best) best = v;
  }
  n = slide(rowRight, t);
  if (n != t) {
    leaves++;
    const v = symmetric ? evaluate(n) : evaluate(transpose(n));
    if (v > best) best = v;
  }
  return best == -Infinity ? 0 : best;
}

function maxNode(b: u64, cprob: f64, curdepth: i32): f64 {
  if (curdepth >= depthLimit || cprob < cprobMin) return maxLeaf(b);
  nodes++;
  movesExecuted += 4;
  let best = -Infinity;
  let n = slide(rowLeft, b);
  if (n != b) {
    const v = chanceNode(n, cprob, curdepth);
    if (v > best) best = v;
  }
  n = slide(rowRight, b);
  if (n != b) {
    const v = chanceNode(n, cprob, curdepth);
    if (v > best) best = v;
  }
  const t = transpose(b);
  n = slide(rowLeft, t);
  if (n != t) {
    const v = chanceNode(transpose(n), cprob, curdepth);
    if (v > best) best = v;
  }
  n = slide(rowRight, t);
  if (n != t) {
    const v = chanceNode(transpose(n), cprob, curdepth);
    if (v > best) best = v;
  }
  return best == -Infinity ? 0 : best;
}

/** Forgets every table entry at once: entries of an older epoch never match. */
function newEpoch(): void {
  epoch++;
  if (epoch == 0x7fffffff) {
    epoch = 1;
    if (useCache) memory.fill(tt, 0, <usize>(ttMask + 1) << 5);
  }
}

/**
 * One decision: the value of each legal root move (up, down, left, right) into rootValues (NaN when
 * illegal); returns the best move (ties to the earlier), or -1 when none is legal.
 */
export function searchRoot(lo: i32, hi: i32): i32 {
  const b = (<u64>(<u32>hi) << 32) | <u64>(<u32>lo);
  newEpoch();
  let best = -Infinity;
  let bestMove = -1;
  for (let dir = 0; dir < 4; dir++) {
    const n = move(lo, hi, dir);
    if (n == b) {
      store<f64>(rootValues + (<usize>dir << 3), NaN);
      continue;
    }
    const v = chanceNode(n, 1, 0);
    store<f64>(rootValues + (<usize>dir << 3), v);
    if (v > best) {
      best = v;
      bestMove = dir;
    }
  }
  return bestMove;
}

/**
 * The root-split search's unit: the value of one root move (0 up, 1 down, 2 left, 3 right; NaN when
 * illegal), searched with a table of its own (a new epoch). Nothing searched before changes it, so any
 * thread may search any root move, in any order, and get the same value.
 */
export function searchMove(lo: i32, hi: i32, dir: i32): f64 {
  const b = (<u64>(<u32>hi) << 32) | <u64>(<u32>lo);
  const n = move(lo, hi, dir);
  if (n == b) return NaN;
  newEpoch();
  return chanceNode(n, 1, 0);
}

// ---- seed 000's minimax (src/player/minimax.ts documents it) ----

let mmPruning = true;
let mmNodes: i64 = 0;

/** The board after a move (0 up, 1 down, 2 left, 3 right), before the spawn. */
@inline function moveBoard(b: u64, dir: i32): u64 {
  if (dir >= 2) return slide(dir == 2 ? rowLeft : rowRight, b);
  return transpose(slide(dir == 0 ? rowLeft : rowRight, transpose(b)));
}

function mmMax(b: u64, depth: i32, alpha: f64, beta: f64): f64 {
  mmNodes++;
  let best = -Infinity;
  for (let dir = 0; dir < 4; dir++) {
    const n = moveBoard(b, dir);
    if (n == b) continue;
    const v = mmChance(n, depth, mmPruning ? Math.max(alpha, best) : -Infinity, beta);
    if (v > best) best = v;
    if (mmPruning && best >= beta) return best;
  }
  return best == -Infinity ? 0 : best; // no legal move: the game is lost
}

/** The placement's worst case for one tile rank, fail-soft within (lo, hi). */
function mmMin(b: u64, rank: u64, depth: i32, lo: f64, hi: f64): f64 {
  let worst = Infinity;
  for (let s: u64 = 0; s < 64; s += 4) {
    if (((b >> s) & 15) != 0) continue;
    const v = mmMax(b | (rank << s), depth, lo, mmPruning ? Math.min(hi, worst) : Infinity);
    if (v < worst) worst = v;
    if (mmPruning && worst <= lo) return worst;
  }
  return worst;
}

function mmChance(b: u64, depth: i32, alpha: f64, beta: f64): f64 {
  mmNodes++;
  if (depth == 0) return evaluate(b);
  const m2 = mmMin(b, 1, depth - 1, -Infinity, Infinity);
  if (m2 == Infinity) return evaluate(b);
  const m4 = mmPruning ? mmMin(b, 2, depth - 1, (alpha - 0.9 * m2) / 0.1, (beta - 0.9 * m2) / 0.1) : mmMin(b, 2, depth - 1, -Infinity, Infinity);
  return 0.9 * m2 + 0.1 * m4;
}

/** The exact minimax value of one root move (a full window), NaN when illegal. */
export function minimaxMove(lo: i32, hi: i32, dir: i32, depth: i32, pruning: bool): f64 {
  const b = (<u64>(<u32>hi) << 32) | <u64>(<u32>lo);
  const n = moveBoard(b, dir);
  if (n == b) return NaN;
  mmPruning = pruning;
  return mmChance(n, depth, -Infinity, Infinity);
}

export function minimaxNodes(): f64 {
  return <f64>mmNodes;
}
