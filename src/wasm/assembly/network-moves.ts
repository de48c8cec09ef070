/**
 * Moves of an n-tuple network's games in WebAssembly: the row tables (slides and their rewards) and the
 * greedy choice on reward + the network's value of the afterstate, shared by training (learn.ts) and the
 * search (network-search.ts).
 */
import { addresses, slot, transpose, valueAt } from './ntuple';

let rowLeft: usize = 0; //    u16[65536]: a row slid toward column 0
let rowRight: usize = 0; //   u16[65536]: a row slid toward column 3
let scoreLeft: usize = 0; //  u32[65536]: the reward of that slide
let scoreRight: usize = 0;

export function useMoveTables(left: usize, right: usize, leftScores: usize, rightScores: usize): void {
  rowLeft = left;
  rowRight = right;
  scoreLeft = leftScores;
  scoreRight = rightScores;
}

@inline export function slide(table: usize, b: u64): u64 {
  return (
    <u64>load<u16>(table + ((<usize>b & 0xffff) << 1)) |
    (<u64>load<u16>(table + ((<usize>(b >> 16) & 0xffff) << 1)) << 16) |
    (<u64>load<u16>(table + ((<usize>(b >> 32) & 0xffff) << 1)) << 32) |
    (<u64>load<u16>(table + (<usize>(b >> 48) << 1)) << 48)
  );
}

@inline export function rowScores(table: usize, b: u64): f64 {
  return <f64>(
    load<u32>(table + ((<usize>b & 0xffff) << 2)) +
    load<u32>(table + ((<usize>(b >> 16) & 0xffff) << 2)) +
    load<u32>(table + ((<usize>(b >> 32) & 0xffff) << 2)) +
    load<u32>(table + (<usize>(b >> 48) << 2))
  );
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
  let n = slide(rowLeft, t);
  after0 = n == t ? 0 : transpose(n);
  n = slide(rowRight, t);
  after1 = n == t ? 0 : transpose(n);
  n = slide(rowLeft, b);
  after2 = n == b ? 0 : n;
  n = slide(rowRight, b);
  after3 = n == b ? 0 : n;
  // A row's merges score the same whichever way it slides (engine tables: SCORE_LEFT equals SCORE_RIGHT, tested).
  reward0 = reward1 = rowScores(scoreLeft, t);
  reward2 = reward3 = rowScores(scoreLeft, b);
}

/**
 * The greedy move on reward + value of the afterstate (up, down, left, right; ties to the earlier) into
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
  for (let dir = 0; dir < 4; dir++) {
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
  if (dir >= 2) return slide(dir == 2 ? rowLeft : rowRight, b);
  return transpose(slide(dir == 0 ? rowLeft : rowRight, transpose(b)));
}

/** The reward of a move (the merges' values), legal or not. */
@inline export function reward(b: u64, dir: i32): f64 {
  return rowScores(scoreLeft, dir >= 2 ? b : transpose(b));
}
