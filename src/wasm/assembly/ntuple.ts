/**
 * An n-tuple network's value of a board, and its TD update, in WebAssembly (AssemblyScript). What
 * src/learn/ntuple/reference.ts computes on a plain grid, in the same order of floating-point operations,
 * so a value and a training game are the same to the bit in both.
 *
 * The board is a u64 of sixteen 4-bit ranks (cell k = 4*row + col at bits 4k..4k+3). A base tuple is a
 * list of cells; its index on a board is Σ rank(cell_i)·16^i. Each base tuple is read on the 8 symmetric
 * boards (below) and shares one float32 table of 16^length entries per stage. A tuple's index is made of
 * runs: cells that follow each other on the board come out with one shift and one mask.
 *
 * The value sums, tuple by tuple and within a tuple symmetry by symmetry, the float32 entries as float64.
 * Stages: a board's stage is given by its largest tile; a stage above the first may promote lazily
 * (Jaśkowski 2018): an entry still exactly 0 reads as the same entry of the stage below, and an update
 * starts from that value.
 *
 * Speed: the tables are 64 MiB each, so nearly every read misses the cache. A value first computes every
 * entry's address into a slot, then loads them in a tight loop, so the processor keeps many misses in
 * flight (1.8 times the speed of reading each entry as its index is made, measured again on a trained
 * network's afterstates; the loads' loop unrolled by a tuple's 8 reads, 1.14 times again); the training game keeps the chosen
 * afterstate's slot, so its update needs no second pass over the indices.
 */

/** The network's description, written by the TypeScript side into memory (src/learn/ntuple/machine.ts). */
let tupleCount: i32 = 0;
let stageCount: i32 = 1;
let promote = false;
let stageOfRank: usize = 0; // u8[16]: the stage of a board whose largest rank is r
let runs: usize = 0; //        per tuple RUN_WORDS i32: run count, then (shift on the board, mask, shift into the index) per run
let tablePtrs: usize = 0; //   u32[stageCount * tupleCount]: the table of (stage, tuple)
let slots: usize = 0; //       this instance's scratch: SLOTS slots of SLOT_BYTES, each the addresses of one value's reads

export const RUN_WORDS: i32 = 20;
export const SLOT_BYTES: i32 = 16 * 8 * 4;
export const SLOTS: i32 = 9;

export function useNetwork(tuples: i32, stages: i32, promoteStages: bool, stageOfRankPtr: usize, runsPtr: usize, tablePtrsPtr: usize, scratch: usize): void {
  tupleCount = tuples;
  stageCount = stages;
  promote = promoteStages;
  stageOfRank = stageOfRankPtr;
  runs = runsPtr;
  tablePtrs = tablePtrsPtr;
  slots = scratch;
  fourSix = isFourSix();
}

/**
 * Whether the network's tuples are the default four 6-tuples, in order (src/learn/ntuple/shape.ts
 * DEFAULT_TUPLES: cells 0–5, 4–9, {0,1,2,4,5,6}, {4,5,6,8,9,10}), read from their runs: then `addresses`
 * takes a path with their masks as constants (fourSixAddresses), not the runs' loop.
 */
let fourSix = false;

function isFourSix(): bool {
  if (tupleCount != 4) return false;
  // Per tuple: run count, then (shift, mask, to) per run.
  return (
    hasRuns(0, 1, 0, 0xffffff, 0, 0, 0, 0) &&
    hasRuns(1, 1, 16, 0xffffff, 0, 0, 0, 0) &&
    hasRuns(2, 2, 0, 0xfff, 0, 16, 0xfff, 12) &&
    hasRuns(3, 2, 16, 0xfff, 0, 32, 0xfff, 12)
  );
}

function hasRuns(k: i32, n: i32, sa: u32, ma: u32, ta: u32, sb: u32, mb: u32, tb: u32): bool {
  const d = runs + (<usize>(k * RUN_WORDS) << 2);
  if (load<i32>(d) != n || load<u32>(d, 4) != sa || load<u32>(d, 8) != ma || load<u32>(d, 12) != ta) return false;
  return n == 1 || (load<u32>(d, 16) == sb && load<u32>(d, 20) == mb && load<u32>(d, 24) == tb);
}

/** Slot k of this instance's scratch. */
@inline export function slot(k: i32): usize {
  return slots + <usize>(k * SLOT_BYTES);
}

// ---- symmetries: identity, mirror left-right (H), mirror top-bottom (V), and their compositions with the transpose ----

@inline export function transpose(x: u64): u64 {
  const a = (x & 0xf0f00f0ff0f00f0f) | ((x & 0x0000f0f00000f0f0) << 12) | ((x & 0x0f0f00000f0f0000) >> 12);
  return (a & 0xff00ff0000ff00ff) | ((a & 0x00ff00ff00000000) >> 24) | ((a & 0x00000000ff00ff00) << 24);
}

/** Each row's cells in reverse order: b[r][c] ← b[r][3 − c]. */
@inline function mirrorH(b: u64): u64 {
  return ((b & 0x000f000f000f000f) << 12) | ((b & 0x00f000f000f000f0) << 4) | ((b >> 4) & 0x00f000f000f000f0) | ((b >> 12) & 0x000f000f000f000f);
}

/** The rows in reverse order: b[r][c] ← b[3 − r][c]. */
@inline function mirrorV(b: u64): u64 {
  return (b << 48) | ((b & 0xffff0000) << 16) | ((b >> 16) & 0xffff0000) | (b >> 48);
}

/** Whether a board, as its even (e) and odd (o) cells in bytes, holds a rank of at least r (1..15): bit 7 of a byte is set once it reaches 128 - r + r. */
@inline function holdsRank(e: u64, o: u64, r: i32): bool {
  const k = <u64>(128 - r) * 0x0101010101010101;
  return (((e + k) | (o + k)) & 0x8080808080808080) != 0;
}

/** The largest rank on a board: a binary search over the ranks, each step one test of all 16 cells at once. */
@inline export function maxRankOf(b: u64): i32 {
  const e = b & 0x0f0f0f0f0f0f0f0f;
  const o = (b >> 4) & 0x0f0f0f0f0f0f0f0f;
  let m: i32 = holdsRank(e, o, 8) ? 8 : 0;
  if (holdsRank(e, o, m + 4)) m += 4;
  if (holdsRank(e, o, m + 2)) m += 2;
  if (holdsRank(e, o, m + 1)) m += 1;
  return m;
}

@inline function stageOf(b: u64): i32 {
  return stageCount == 1 ? 0 : <i32>load<u8>(stageOfRank + <usize>maxRankOf(b));
}

/** A tuple's index, run by run (any number of runs). */
@inline function tupleIndex(d: usize, b: u64): u32 {
  const n = load<i32>(d);
  let index: u32 = 0;
  for (let r = 0; r < n; r++) {
    const p = d + 4 + <usize>(r * 12);
    index |= (<u32>(b >> <u64>load<u32>(p)) & load<u32>(p, 4)) << load<u32>(p, 8);
  }
  return index;
}

// A tuple's byte offset in its table, for one, two or three runs (the first run is always at the index's bottom).
@inline function offset1(b: u64, sa: u64, ma: u32): usize {
  return <usize>((<u32>(b >> sa) & ma) << 2);
}
@inline function offset2(b: u64, sa: u64, ma: u32, sb: u64, mb: u32, tb: u32): usize {
  return <usize>(((<u32>(b >> sa) & ma) | ((<u32>(b >> sb) & mb) << tb)) << 2);
}
@inline function offset3(b: u64, sa: u64, ma: u32, sb: u64, mb: u32, tb: u32, sc: u64, mc: u32, tc: u32): usize {
  return <usize>(((<u32>(b >> sa) & ma) | ((<u32>(b >> sb) & mb) << tb) | ((<u32>(b >> sc) & mc) << tc)) << 2);
}

// The same 8 boards two at a time, as u64 lanes of a vector: [b, transpose(b)] → [H, HT], [V, VT], [HV, HVT].

/** mirrorH on both lanes: the bytes of each row swapped, then the two cells of each byte. */
@inline function mirrorH2(v: v128): v128 {
  const s = i8x16.shuffle(v, v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  const low = i64x2.splat(0x0f0f0f0f0f0f0f0f);
  return v128.or(i64x2.shl(v128.and(s, low), 4), v128.and(i64x2.shr_u(s, 4), low));
}

/** mirrorV on both lanes: each lane's four rows (u16) in reverse order. */
@inline function mirrorV2(v: v128): v128 {
  return i8x16.shuffle(v, v, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9);
}

/**
 * The default four 6-tuples' 32 addresses, the 8 symmetric boards four at a time in 32-bit lanes (WebAssembly
 * SIMD; 1.05× the recipe's training and 1.07× the depth-2 search over the same in scalar code). Each tuple's
 * 8 addresses are 32 contiguous bytes of the slot (symmetries I, H, V, HV, then T, HT, VT, HVT): two stores.
 * A board's x is its low 32 bits (cells 0–7), its y the 32 above bit 16 (cells 4–11): tuple 0 is x's low 24
 * bits, tuple 1 y's; {0,1,2,4,5,6} is x's low 12 bits and the 12 above bit 16, {4,5,6,8,9,10} the same of y.
 */
@inline function fourSixAddresses(at: usize, b: u64, t: u64, stage: i32): void {
  const bt = i64x2(b, t);
  const h = mirrorH2(bt);
  const v = mirrorV2(bt);
  const hv = mirrorH2(v);
  // x: bytes 0-3 of each u64 lane; y: bytes 2-5.
  const xa = i8x16.shuffle(bt, h, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27); // b, t, H, HT
  const xb = i8x16.shuffle(v, hv, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27); // V, VT, HV, HVT
  const ya = i8x16.shuffle(bt, h, 2, 3, 4, 5, 10, 11, 12, 13, 18, 19, 20, 21, 26, 27, 28, 29);
  const yb = i8x16.shuffle(v, hv, 2, 3, 4, 5, 10, 11, 12, 13, 18, 19, 20, 21, 26, 27, 28, 29);
  const x0 = i8x16.shuffle(xa, xb, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27); // I, H, V, HV
  const x1 = i8x16.shuffle(xa, xb, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31); // T, HT, VT, HVT
  const y0 = i8x16.shuffle(ya, yb, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27);
  const y1 = i8x16.shuffle(ya, yb, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31);
  const m24 = i32x4.splat(0xffffff);
  const m12 = i32x4.splat(0xfff);
  const m12h = i32x4.splat(0xfff000);
  const t0 = i32x4.splat(<i32>tableOf(stage, 0));
  const t1 = i32x4.splat(<i32>tableOf(stage, 1));
  const t2 = i32x4.splat(<i32>tableOf(stage, 2));
  const t3 = i32x4.splat(<i32>tableOf(stage, 3));
  v128.store(at, i32x4.add(t0, i32x4.shl(v128.and(x0, m24), 2)));
  v128.store(at, i32x4.add(t0, i32x4.shl(v128.and(x1, m24), 2)), 16);
  v128.store(at, i32x4.add(t1, i32x4.shl(v128.and(y0, m24), 2)), 32);
  v128.store(at, i32x4.add(t1, i32x4.shl(v128.and(y1, m24), 2)), 48);
  v128.store(at, i32x4.add(t2, i32x4.shl(v128.or(v128.and(x0, m12), v128.and(i32x4.shr_u(x0, 4), m12h)), 2)), 64);
  v128.store(at, i32x4.add(t2, i32x4.shl(v128.or(v128.and(x1, m12), v128.and(i32x4.shr_u(x1, 4), m12h)), 2)), 80);
  v128.store(at, i32x4.add(t3, i32x4.shl(v128.or(v128.and(y0, m12), v128.and(i32x4.shr_u(y0, 4), m12h)), 2)), 96);
  v128.store(at, i32x4.add(t3, i32x4.shl(v128.or(v128.and(y1, m12), v128.and(i32x4.shr_u(y1, 4), m12h)), 2)), 112);
}

@inline function tableOf(stage: i32, tuple: i32): usize {
  return <usize>load<u32>(tablePtrs + (<usize>(stage * tupleCount + tuple) << 2));
}

/**
 * The addresses of a board's reads in its stage's tables into slot `at` (u32 each, tuple by tuple,
 * symmetry by symmetry: I, H, V, HV, T, HT, VT, HVT). Returns the stage.
 */
export function addresses(b: u64, at: usize): i32 {
  const stage = stageOf(b);
  const t = transpose(b);
  if (fourSix) {
    fourSixAddresses(at, b, t, stage);
    return stage;
  }
  const b1 = mirrorH(b);
  const b2 = mirrorV(b);
  const b3 = mirrorH(b2);
  const b5 = mirrorH(t);
  const b6 = mirrorV(t);
  const b7 = mirrorH(b6);
  for (let k = 0; k < tupleCount; k++) {
    const d = runs + (<usize>(k * RUN_WORDS) << 2);
    const table = tableOf(stage, k);
    const p = at + (<usize>(k << 3) << 2);
    const n = load<i32>(d);
    // Most tuples are one or two runs of cells (the common 6-tuples: a straight 6 is one run of a row and a half,
    // a 2×3 rectangle two runs of 3): the index then costs one or two shifts and masks a board.
    if (n == 1) {
      const sa = <u64>load<u32>(d, 4);
      const ma = load<u32>(d, 8);
      store<u32>(p, table + offset1(b, sa, ma));
      store<u32>(p, table + offset1(b1, sa, ma), 4);
      store<u32>(p, table + offset1(b2, sa, ma), 8);
      store<u32>(p, table + offset1(b3, sa, ma), 12);
      store<u32>(p, table + offset1(t, sa, ma), 16);
      store<u32>(p, table + offset1(b5, sa, ma), 20);
      store<u32>(p, table + offset1(b6, sa, ma), 24);
      store<u32>(p, table + offset1(b7, sa, ma), 28);
    } else if (n == 2) {
      const sa = <u64>load<u32>(d, 4);
      const ma = load<u32>(d, 8);
      const sb = <u64>load<u32>(d, 16);
      const mb = load<u32>(d, 20);
      const tb = load<u32>(d, 24);
      store<u32>(p, table + offset2(b, sa, ma, sb, mb, tb));
      store<u32>(p, table + offset2(b1, sa, ma, sb, mb, tb), 4);
      store<u32>(p, table + offset2(b2, sa, ma, sb, mb, tb), 8);
      store<u32>(p, table + offset2(b3, sa, ma, sb, mb, tb), 12);
      store<u32>(p, table + offset2(t, sa, ma, sb, mb, tb), 16);
      store<u32>(p, table + offset2(b5, sa, ma, sb, mb, tb), 20);
      store<u32>(p, table + offset2(b6, sa, ma, sb, mb, tb), 24);
      store<u32>(p, table + offset2(b7, sa, ma, sb, mb, tb), 28);
    } else if (n == 3) {
      const sa = <u64>load<u32>(d, 4);
      const ma = load<u32>(d, 8);
      const sb = <u64>load<u32>(d, 16);
      const mb = load<u32>(d, 20);
      const tb = load<u32>(d, 24);
      const sc = <u64>load<u32>(d, 28);
      const mc = load<u32>(d, 32);
      const tc = load<u32>(d, 36);
      store<u32>(p, table + offset3(b, sa, ma, sb, mb, tb, sc, mc, tc));
      store<u32>(p, table + offset3(b1, sa, ma, sb, mb, tb, sc, mc, tc), 4);
      store<u32>(p, table + offset3(b2, sa, ma, sb, mb, tb, sc, mc, tc), 8);
      store<u32>(p, table + offset3(b3, sa, ma, sb, mb, tb, sc, mc, tc), 12);
      store<u32>(p, table + offset3(t, sa, ma, sb, mb, tb, sc, mc, tc), 16);
      store<u32>(p, table + offset3(b5, sa, ma, sb, mb, tb, sc, mc, tc), 20);
      store<u32>(p, table + offset3(b6, sa, ma, sb, mb, tb, sc, mc, tc), 24);
      store<u32>(p, table + offset3(b7, sa, ma, sb, mb, tb, sc, mc, tc), 28);
    } else {
      store<u32>(p, table + (<usize>tupleIndex(d, b) << 2));
      store<u32>(p, table + (<usize>tupleIndex(d, b1) << 2), 4);
      store<u32>(p, table + (<usize>tupleIndex(d, b2) << 2), 8);
      store<u32>(p, table + (<usize>tupleIndex(d, b3) << 2), 12);
      store<u32>(p, table + (<usize>tupleIndex(d, t) << 2), 16);
      store<u32>(p, table + (<usize>tupleIndex(d, b5) << 2), 20);
      store<u32>(p, table + (<usize>tupleIndex(d, b6) << 2), 24);
      store<u32>(p, table + (<usize>tupleIndex(d, b7) << 2), 28);
    }
  }
  return stage;
}


/**
 * An entry as the value reads it: with lazy promotion, a 0 in a later stage is the same entry of the
 * stage below (the tables of one tuple sit at a fixed distance from stage to stage: see machine.ts).
 */
@inline function entryAt(address: usize, stage: i32, stride: usize): f32 {
  let v = load<f32>(address);
  if (v == 0 && promote) {
    let a = address;
    for (let s = stage; s > 0 && v == 0; s--) {
      a -= stride;
      v = load<f32>(a);
    }
  }
  return v;
}

/** The distance in bytes between one tuple's tables of consecutive stages (0 with one stage). */
let stageStride: usize = 0;

export function setStageStride(stride: usize): void {
  stageStride = stride;
}

/**
 * Temporal coherence learning (Beal & Smith 1999; Jaśkowski 2018): each entry has two float32 accumulators,
 * E (the sum of its errors) and A (the sum of their magnitudes), side by side so one cache miss brings both;
 * the pair of the entry at address a is at 2·a + pairShift (wrapping). An entry's step is scaled by |E| / A
 * (1 while A is 0): entries whose errors keep one sign learn at the full rate, entries whose errors cancel
 * out settle.
 */
let coherence = false;
let pairShift: usize = 0;

export function setCoherence(on: bool, shift: usize): void {
  coherence = on;
  pairShift = shift;
}

/** Loads of the accumulator pairs, summed here so they are made: the second pass then finds them in the cache. */
let touched: f32 = 0;

/** The value from a slot of addresses (its stage as `addresses` returned it). */
export function valueAt(at: usize, stage: i32): f64 {
  let sum: f64 = 0;
  const end = at + (<usize>(tupleCount << 3) << 2);
  if (stage == 0 || !promote) {
    // A tuple's 8 reads a turn, in order: fewer instructions a read lets more reads be in flight at once.
    for (let p = at; p < end; p += 32) {
      sum += <f64>load<f32>(<usize>load<u32>(p));
      sum += <f64>load<f32>(<usize>load<u32>(p, 4));
      sum += <f64>load<f32>(<usize>load<u32>(p, 8));
      sum += <f64>load<f32>(<usize>load<u32>(p, 12));
      sum += <f64>load<f32>(<usize>load<u32>(p, 16));
      sum += <f64>load<f32>(<usize>load<u32>(p, 20));
      sum += <f64>load<f32>(<usize>load<u32>(p, 24));
      sum += <f64>load<f32>(<usize>load<u32>(p, 28));
    }
  } else {
    // Most entries of a trained stage are set: read them as the first stage's are, and go down to the stages
    // below only when one of them is still 0 (then every entry again through entryAt, in the same order).
    let zeros: i32 = 0;
    for (let p = at; p < end; p += 32) {
      const v0 = load<f32>(<usize>load<u32>(p));
      const v1 = load<f32>(<usize>load<u32>(p, 4));
      const v2 = load<f32>(<usize>load<u32>(p, 8));
      const v3 = load<f32>(<usize>load<u32>(p, 12));
      const v4 = load<f32>(<usize>load<u32>(p, 16));
      const v5 = load<f32>(<usize>load<u32>(p, 20));
      const v6 = load<f32>(<usize>load<u32>(p, 24));
      const v7 = load<f32>(<usize>load<u32>(p, 28));
      sum += <f64>v0;
      sum += <f64>v1;
      sum += <f64>v2;
      sum += <f64>v3;
      sum += <f64>v4;
      sum += <f64>v5;
      sum += <f64>v6;
      sum += <f64>v7;
      zeros |= <i32>(v0 == 0) | <i32>(v1 == 0) | <i32>(v2 == 0) | <i32>(v3 == 0) | <i32>(v4 == 0) | <i32>(v5 == 0) | <i32>(v6 == 0) | <i32>(v7 == 0);
    }
    if (zeros != 0) {
      sum = 0;
      for (let p = at; p < end; p += 4) sum += <f64>entryAt(<usize>load<u32>(p), stage, stageStride);
    }
  }
  return sum;
}

/** The value of a board (an afterstate): Σ over tuples, then over its 8 symmetric boards, of its entries. */
export function networkValue(b: u64): f64 {
  const at = slot(SLOTS - 1);
  return valueAt(at, addresses(b, at));
}

/**
 * One TD step on the board whose addresses are in slot `at`: its value now is read, and each of its
 * entries moves by step · (target − value), one after the other in the value's order (an entry read twice
 * moves twice).
 */
export function updateAt(at: usize, stage: i32, target: f64, step: f64): void {
  if (coherence) {
    coherentUpdateAt(at, stage, target, step);
    return;
  }
  const delta = step * (target - valueAt(at, stage));
  const end = at + (<usize>(tupleCount << 3) << 2);
  if (stage == 0 || !promote) {
    for (let p = at; p < end; p += 4) {
      const a = <usize>load<u32>(p);
      store<f32>(a, <f32>(<f64>load<f32>(a) + delta));
    }
  } else {
    for (let p = at; p < end; p += 4) {
      const a = <usize>load<u32>(p);
      store<f32>(a, <f32>(<f64>entryAt(a, stage, stageStride) + delta));
    }
  }
}

/** updateAt with temporal coherence: each entry's move scaled by its |E| / A before E and A take the error. */
function coherentUpdateAt(at: usize, stage: i32, target: f64, step: f64): void {
  const end = at + (<usize>(tupleCount << 3) << 2);
  // First every pair's load in a tight loop, unrolled by a tuple's 8 (the misses in flight together, and
  // together with the value's reads just after), then the value, then the updates.
  let t: f32 = 0;
  for (let p = at; p < end; p += 32) {
    t += load<f32>((<usize>load<u32>(p) << 1) + pairShift);
    t += load<f32>((<usize>load<u32>(p, 4) << 1) + pairShift);
    t += load<f32>((<usize>load<u32>(p, 8) << 1) + pairShift);
    t += load<f32>((<usize>load<u32>(p, 12) << 1) + pairShift);
    t += load<f32>((<usize>load<u32>(p, 16) << 1) + pairShift);
    t += load<f32>((<usize>load<u32>(p, 20) << 1) + pairShift);
    t += load<f32>((<usize>load<u32>(p, 24) << 1) + pairShift);
    t += load<f32>((<usize>load<u32>(p, 28) << 1) + pairShift);
  }
  touched = t;
  const error = target - valueAt(at, stage);
  const delta = step * error;
  const size = Math.abs(error);
  const lazy = stage != 0 && promote;
  for (let p = at; p < end; p += 4) {
    const a = <usize>load<u32>(p);
    const pair = (a << 1) + pairShift;
    const e = <f64>load<f32>(pair);
    const m = <f64>load<f32>(pair, 4);
    const rate = m == 0 ? 1.0 : Math.abs(e) / m;
    const w = lazy ? <f64>entryAt(a, stage, stageStride) : <f64>load<f32>(a);
    store<f32>(a, <f32>(w + delta * rate));
    store<f32>(pair, <f32>(e + error));
    store<f32>(pair, <f32>(m + size), 4);
  }
}

export function networkUpdate(b: u64, target: f64, step: f64): void {
  const at = slot(SLOTS - 1);
  updateAt(at, addresses(b, at), target, step);
}
