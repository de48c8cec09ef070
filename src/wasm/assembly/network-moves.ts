/**
 * Moves of an n-tuple network's games in WebAssembly: the row tables (slides and their rewards) and the
 * greedy choice on reward + the network's value of the afterstate, shared by training (learn.ts) and the
 * search (network-search.ts).
 */
import { addresses, slot, transpose, valueAt } from './ntuple';

/**
 * The row table: per row (u16), one u64 of its slide toward column 0 (bits 0–15), toward column 3 (16–31)
 * and the reward of either (32–63: a row's merges score the same both ways). One load, one cache line, a
 * row for all three (three tables of their own took three lines a row).
 */
let rowMoves: usize = 0;

export function useMoveTables(table: usize): void {
  rowMoves = table;
}

@inline function rowEntry(b: u64, shift: u64): u64 {
  return load<u64>(rowMoves + ((<usize>(b >> shift) & 0xffff) << 3));
}

// A board's four rows' entries (rowsOf), then what they give.
let e0: u64 = 0;
let e1: u64 = 0;
let e2: u64 = 0;
let e3: u64 = 0;

@inline function rowsOf(b: u64): void {
  e0 = rowEntry(b, 0);
  e1 = rowEntry(b, 16);
  e2 = rowEntry(b, 32);
  e3 = rowEntry(b, 48);
}

/** The board of rowsOf slid left (toward column 0). */
@inline function slidLeft(): u64 {
  return (e0 & 0xffff) | ((e1 & 0xffff) << 16) | ((e2 & 0xffff) << 32) | (e3 << 48);
}

/** The board of rowsOf slid right (toward column 3). */
@inline function slidRight(): u64 {
  return ((e0 >> 16) & 0xffff) | (e1 & 0xffff0000) | ((e2 & 0xffff0000) << 16) | ((e3 & 0xffff0000) << 32);
}

/** The reward of the board of rowsOf slid either way. */
@inline function rowsReward(): f64 {
  return <f64>(<u32>(e0 >> 32) + <u32>(e1 >> 32) + <u32>(e2 >> 32) + <u32>(e3 >> 32));
}

// The chosen move of `choose`: its afterstate, reward and value, and the slot holding its addresses.
export let bestAfter: u64 = 0;
export let bestReward: f64 = 0;
export let bestValue: f64 = 0;
export let bestSlot: usize = 0;
export let bestStage: i32 = 0;
// Per direction, of the last `expand`: the afterstate (0 when illegal: a legal move's afterstate is never
// empty, a move keeps every tile) and its reward.
export let after0: u64 = 0;
export let after1: u64 = 0;
export let after2: u64 = 0;
export let after3: u64 = 0;
export let reward0: f64 = 0;
export let reward1: f64 = 0;
export let reward2: f64 = 0;
export let reward3: f64 = 0;

/** The four moves of a board into after0..3 and reward0..3 (up, down, left, right). */
@inline export function expand(b: u64): void {
  const t = transpose(b);
  rowsOf(t);
  let n = slidLeft();
  after0 = n == t ? 0 : transpose(n);
  n = slidRight();
  after1 = n == t ? 0 : transpose(n);
  reward0 = reward1 = rowsReward();
  rowsOf(b);
  n = slidLeft();
  after2 = n == b ? 0 : n;
  n = slidRight();
  after3 = n == b ? 0 : n;
  reward2 = reward3 = rowsReward();
}

/**
 * The greedy move on reward + value of the afterstate (ties to the earlier in the order up, right, down, left:
 * ziap/2048-tdl's, so an untrained network's first games push toward a corner, as ziap's do) into
 * bestAfter/bestReward/bestValue/bestSlot; -1 when no move is legal. The addresses of each legal
 * afterstate go to slots 4·set + dir (every address first, then every value: see ntuple.ts).
 */
export function choose(b: u64, set: i32): i32 {
  const first = set << 2;
  expand(b);
  const stage0 = after0 != 0 ? addresses(after0, slot(first)) : 0;
  const stage1 = after1 != 0 ? addresses(after1, slot(first + 1)) : 0;
  const stage2 = after2 != 0 ? addresses(after2, slot(first + 2)) : 0;
  const stage3 = after3 != 0 ? addresses(after3, slot(first + 3)) : 0;
  let best: i32 = -1;
  let bestSum: f64 = 0;
  for (let k = 0; k < 4; k++) {
    const dir = k == 0 ? 0 : k == 1 ? 3 : k == 2 ? 1 : 2; // up, right, down, left
    const after = dir == 0 ? after0 : dir == 1 ? after1 : dir == 2 ? after2 : after3;
    if (after == 0) continue;
    const reward = dir == 0 ? reward0 : dir == 1 ? reward1 : dir == 2 ? reward2 : reward3;
    const stage = dir == 0 ? stage0 : dir == 1 ? stage1 : dir == 2 ? stage2 : stage3;
    const at = slot(first + dir);
    const value = valueAt(at, stage);
    if (best < 0 || reward + value > bestSum) {
      best = dir;
      bestSum = reward + value;
      bestAfter = after;
      bestReward = reward;
      bestValue = value;
      bestSlot = at;
      bestStage = stage;
    }
  }
  return best;
}

/** The afterstate of a move (0 up, 1 down, 2 left, 3 right), or b itself when the move is illegal. */
@inline export function afterstate(b: u64, dir: i32): u64 {
  rowsOf(dir >= 2 ? b : transpose(b));
  const n = dir == 0 || dir == 2 ? slidLeft() : slidRight();
  return dir >= 2 ? n : transpose(n);
}

/** The reward of a move (the merges' values), legal or not. */
@inline export function reward(b: u64, dir: i32): f64 {
  rowsOf(dir >= 2 ? b : transpose(b));
  return rowsReward();
}
