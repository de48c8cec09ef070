/**
 * TD(0) training of an n-tuple network in WebAssembly (AssemblyScript): build/learn.wasm, the hot loop of
 * `tune2048 learn` for tuple networks. Every thread instantiates it over one shared memory holding the
 * move tables, the network's tables and a control block; each claims the next game number with an atomic
 * add and trains on it lock-free (as the n-tuple programs do), so with one thread a run is a pure function
 * of its config and with several it is not reproducible to the bit.
 *
 * A game on seed s draws its spawns exactly as tune2048's engine does (src/engine/spawn.ts): seedrandom's
 * Alea generator seeded with the decimal string of s, a cell floor(u·empty) among the empty cells in cell
 * order, then a 2 if the next number is below 0.9. So a greedy game here is the game `tune2048 play`
 * plays with the same network on the same seed, and the TypeScript reference
 * (src/learn/ntuple/reference.ts) replays a training game to the bit.
 *
 * Memory (all offsets written by src/learn/ntuple/layout.ts into the block that `attach` reads): the
 * control words, per-thread scratch, the row tables, the network's description and tables, the results of
 * training and evaluation games, the late-start boards.
 */
import { addresses, maxRankOf, networkUpdate, networkValue, setCoherence, setStageStride, slot, SLOTS, updateAt, useNetwork, valueAt } from './ntuple';
import { clearLeafHeuristic, clearStageWeights, keepLeaves, LEAF_BITS, leafValuesComputed, searchMove as networkSearchMove, setNetworkSearch, setStageWeight, searchNodes, useLeafHeuristic, useSearchTable } from './network-search';
import { bestAfter, bestReward, bestSlot, bestStage, bestValue, choose, useMoveTables } from './network-moves';

// ---- the block's words (i32 at 4·k, f64 at 8·k from F_BASE) ----
/** The block's layout, checked by machine.ts (BLOCK_LAYOUT): raise both with any change to the words below. */
export const BLOCK_LAYOUT: i32 = 6;
const W_CONTROL = 0;
const W_SCRATCH = 1;
const W_ROW_MOVES = 2; // the row table (network-moves.ts); words 3–5 are free
const W_STAGE_OF_RANK = 6;
const W_TUPLES = 7;
const W_STAGES = 8;
const W_RUNS = 9;
const W_TABLE_PTRS = 10;
const W_RING = 11;
const W_EVAL = 12;
const W_STARTS = 13;
const W_START_COUNT = 14;
const W_PROMOTE = 15;
const W_SCRATCH_BYTES = 16;
const W_STAGE_STRIDE = 17;
const W_SEARCH_TABLE = 18; // the main instance's transposition table (network-search.ts), 0 when it has none
const W_SEARCH_BITS = 19;
const W_SEARCH_THREAD = 20; // the instance that holds it (the threads' instances train and have none)
const W_COHERENCE = 21; // temporal coherence: 1 on, 0 plain TD
const W_PAIR_SHIFT = 22; // with it, an entry at a has its accumulators at 2·a + this (u32, wrapping)
const W_PATHS = 23; // the training threads' episode paths (TD(λ), restarts), PATH_BYTES each; 0 without
const W_RESTARTS = 24; // 1: restarts on
const W_RESTART_MIN = 25; // restart only from an episode of more than this many moves
const W_RESTART_MAX = 26; // at most this many restarts in a row (0: no limit)
const F_BASE = 128;
const F_TRAIN_SEED = 0;
const F_EVAL_SEED = 1;
const F_STEP = 2;
const F_SHARE = 3;
const F_LAMBDA = 4; // TD(λ) backward over each episode at its end; below 0: online TD(0)
const F_RESTART_AT = 5; // a restart's board: the afterstate at this fraction of the previous episode's path

// ---- control words (byte offsets in the control block) ----
const C_NEXT = 0; //      u32: the next training game to claim
const C_LIMIT = 4; //     u32: claim no game at or past this one
const C_STOP = 8; //      i32: 1 = claim nothing more (Ctrl-C)
const C_DONE = 12; //     u32: training games finished
const C_MOVES = 16; //    u64: training moves made
const C_EVAL_NEXT = 24; // u32
const C_EVAL_LIMIT = 28; // u32

/** Training games' results, by game number modulo RING: score u32, moves u32, largest rank u32, episodes u32. */
export const RING: u32 = 4096;

/**
 * An episode's path: per move, its afterstate (u64) and reward (f64). 2^18 moves always suffice: each move
 * spawns a tile of at least 2 and a board's tiles sum to at most 16 · 32768.
 */
export const PATH_CAP: u32 = 1 << 18;
const PATH_BYTES: usize = <usize>PATH_CAP << 4;

let control: usize = 0;
let ring: usize = 0;
let evalResults: usize = 0;
let starts: usize = 0;
let startCount: u32 = 0;
let trainSeed: f64 = 0;
let evalSeed: f64 = 0;
let step: f64 = 0;
/** This thread's block: the step is read from it at each train call (a run's learning rate may change between chunks). */
let blockAt: usize = 0;
let share: f64 = 0;
/** This thread's episode path (0: none, when neither TD(λ) nor restarts are on, and on search instances). */
let path: usize = 0;
let lambda: f64 = -1;
let restarts = false;
let restartMin: u32 = 0;
let restartMax: u32 = 0;
let restartAt: f64 = 0.5;

/** Where this instance's static data ends: the layout starts above it. */
export function heapBase(): usize {
  return __heap_base;
}

/** Makes this instance (thread `thread`) use the memory laid out as `block` describes. */
export function attach(block: usize, thread: i32): void {
  blockAt = block;
  control = <usize>load<u32>(block + (W_CONTROL << 2));
  useMoveTables(<usize>load<u32>(block + (W_ROW_MOVES << 2)));
  ring = <usize>load<u32>(block + (W_RING << 2));
  evalResults = <usize>load<u32>(block + (W_EVAL << 2));
  starts = <usize>load<u32>(block + (W_STARTS << 2));
  startCount = load<u32>(block + (W_START_COUNT << 2));
  const scratch = <usize>load<u32>(block + (W_SCRATCH << 2)) + <usize>(thread * load<i32>(block + (W_SCRATCH_BYTES << 2)));
  trainSeed = load<f64>(block + F_BASE + (F_TRAIN_SEED << 3));
  evalSeed = load<f64>(block + F_BASE + (F_EVAL_SEED << 3));
  share = load<f64>(block + F_BASE + (F_SHARE << 3));
  lambda = load<f64>(block + F_BASE + (F_LAMBDA << 3));
  restartAt = load<f64>(block + F_BASE + (F_RESTART_AT << 3));
  restarts = load<i32>(block + (W_RESTARTS << 2)) != 0;
  restartMin = load<u32>(block + (W_RESTART_MIN << 2));
  restartMax = load<u32>(block + (W_RESTART_MAX << 2));
  const paths = <usize>load<u32>(block + (W_PATHS << 2));
  // The training threads 0 … threads − 1 and the calling thread's instance (thread `threads`, tests) have a path each.
  path = paths != 0 && thread <= load<i32>(block + (W_SEARCH_THREAD << 2)) ? paths + <usize>thread * PATH_BYTES : 0;
  useNetwork(
    load<i32>(block + (W_TUPLES << 2)),
    load<i32>(block + (W_STAGES << 2)),
    load<i32>(block + (W_PROMOTE << 2)) != 0,
    <usize>load<u32>(block + (W_STAGE_OF_RANK << 2)),
    <usize>load<u32>(block + (W_RUNS << 2)),
    <usize>load<u32>(block + (W_TABLE_PTRS << 2)),
    scratch,
  );
  setStageStride(<usize>load<u32>(block + (W_STAGE_STRIDE << 2)));
  setCoherence(load<i32>(block + (W_COHERENCE << 2)) != 0, <usize>load<u32>(block + (W_PAIR_SHIFT << 2)));
  // Searching instances are threads SEARCH_THREAD, SEARCH_THREAD + 1, …: the main one and the root split's helpers, a table each.
  const first = load<i32>(block + (W_SEARCH_THREAD << 2));
  const bits = load<i32>(block + (W_SEARCH_BITS << 2));
  const searching = thread >= first && bits >= 4;
  // Each searching instance's table is 2^bits entries of 32 bytes followed by its leaf cache (2^LEAF_BITS of 16).
  const each = ((<usize>1 << <usize>bits) << 5) + ((<usize>1 << <usize>LEAF_BITS) << 4);
  useSearchTable(searching ? <usize>load<u32>(block + (W_SEARCH_TABLE << 2)) + <usize>(thread - first) * each : 0, searching ? bits : 0);
}

// ---- seedrandom's Alea, as src/engine/spawn.ts uses it ----

let s0: f64 = 0;
let s1: f64 = 0;
let s2: f64 = 0;
let carry: f64 = 0;
let mashN: f64 = 0;

function mashChar(code: i32): void {
  mashN += <f64>code;
  let h = 0.02519603282416938 * mashN;
  mashN = <f64>(<u32>(<i64>h));
  h -= mashN;
  h *= mashN;
  mashN = <f64>(<u32>(<i64>h));
  h -= mashN;
  mashN += h * 4294967296.0;
}

function mashEnd(): f64 {
  return <f64>(<u32>(<i64>mashN)) * 2.3283064365386963e-10;
}

/** Mash of String(seed) for an integer seed (|seed| < 2^53). */
function mashSeed(seed: f64): f64 {
  let x = seed;
  if (x < 0) {
    mashChar(45); // '-'
    x = -x;
  }
  let digits: u64 = <u64>x;
  let power: u64 = 1;
  while (power <= digits / 10) power *= 10;
  while (power > 0) {
    mashChar(48 + <i32>(digits / power));
    digits %= power;
    power /= 10;
  }
  return mashEnd();
}

function seedRng(seed: f64): void {
  mashN = 4022871197.0; // 0xefc8249d
  carry = 1;
  mashChar(32);
  s0 = mashEnd();
  mashChar(32);
  s1 = mashEnd();
  mashChar(32);
  s2 = mashEnd();
  s0 -= mashSeed(seed);
  if (s0 < 0) s0 += 1;
  s1 -= mashSeed(seed);
  if (s1 < 0) s1 += 1;
  s2 -= mashSeed(seed);
  if (s2 < 0) s2 += 1;
}

@inline function random(): f64 {
  const t = 2091639.0 * s0 + carry * 2.3283064365386963e-10;
  s0 = s1;
  s1 = s2;
  carry = <f64>(<i32>t);
  s2 = t - carry;
  return s2;
}

// ---- the game ----

@inline function emptyCount(b: u64): i32 {
  let x = b | (b >> 1);
  x |= x >> 2;
  return 16 - <i32>popcnt(x & 0x1111111111111111);
}

/** One spawn as src/engine/spawn.ts draws it (the board unchanged when full). */
function spawn(b: u64): u64 {
  const empties = emptyCount(b);
  if (empties == 0) return b;
  let pick = <i32>(random() * <f64>empties);
  const rank: u64 = random() < 0.9 ? 1 : 2;
  for (let s: u64 = 0; s < 64; s += 4) {
    if (((b >> s) & 15) != 0) continue;
    if (pick == 0) return b | (rank << s);
    pick--;
  }
  return b;
}

// The last game's result.
let gameScore: f64 = 0;
let gameMoves: u32 = 0;
let gameTop: i32 = 0;

/** The first board of game `g` on its seed: for training games, a late start for a seeded share of them; else two spawns. */
function firstBoard(g: u32, late: bool): u64 {
  if (late && startCount > 0 && random() < share) return load<u64>(starts + (<usize>(g % startCount) << 3));
  return spawn(spawn(0));
}

/** Moves in this thread's path (the last episode's, when it has a path and learned). */
let pathLength: u32 = 0;

/**
 * Plays greedily from `start` (the generator already seeded) to the game's end. Learning, it updates
 * online (TD(0) on afterstates, Szubert & Jaśkowski 2014) unless TD(λ) is on, and records each move's
 * afterstate and reward in the path when the thread has one (TD(λ) learns from it at the end; a restart
 * starts from one of its boards).
 */
function playFrom(start: u64, learn: bool): void {
  let board = start;
  let score: f64 = 0;
  let moves: u32 = 0;
  let set = 0;
  const online = learn && lambda < 0;
  const record = learn && path != 0;
  pathLength = 0;
  let alive = choose(board, set) >= 0;
  while (alive) {
    const after = bestAfter;
    const at = bestSlot;
    const stage = bestStage;
    score += bestReward;
    moves++;
    if (record && pathLength < PATH_CAP) {
      const p = path + (<usize>pathLength << 4);
      store<u64>(p, after);
      store<f64>(p, bestReward, 8);
      pathLength++;
    }
    board = spawn(after);
    set ^= 1; // the other slots: `at` still holds the afterstate's addresses for its update
    alive = choose(board, set) >= 0;
    if (online) updateAt(at, stage, alive ? bestReward + bestValue : 0, step);
  }
  gameScore = score;
  gameMoves = moves;
  // A tile only ever grows (merging makes a larger one), so the last board holds the game's largest.
  gameTop = maxRankOf(board);
}

/**
 * TD(λ) over the episode in the path, backward from its end (as ziap/2048-tdl learns): the last afterstate
 * moves toward 0, each one before it toward its λ-return r + λ·G + (1 − λ)·V, where r, G and V are the next
 * afterstate's reward, λ-return and value just after its own update.
 */
function learnBackward(): void {
  let target: f64 = 0;
  const at = slot(SLOTS - 1);
  for (let i = pathLength; i-- > 0; ) {
    const p = path + (<usize>i << 4);
    const stage = addresses(load<u64>(p), at);
    updateAt(at, stage, target, step);
    target = load<f64>(p, 8) + lambda * target + (1 - lambda) * valueAt(at, stage);
  }
}

/** Plays held-out game `i` greedily on `seed`, learning nothing. */
function playGame(seed: f64, g: u32): void {
  seedRng(seed);
  playFrom(firstBoard(g, false), false);
}

/** The episodes of the last training game (1 + its restarts). */
let gameEpisodes: u32 = 0;

/**
 * Training game `g`: an episode from its first board, then with restarts (Matsuzaki 2017; ziap/2048-tdl)
 * episodes each from a board of the one before — a spawn on the afterstate at `restartAt` of its path —
 * while that episode made more than `restartMin` moves (and at most `restartMax` in a row), so the late
 * game is learned from many more positions. One generator, seeded by the game, draws every spawn of them.
 * The game's result is its first episode's (a whole game of the network as it played), its moves every
 * episode's.
 */
function trainGame(g: u32): void {
  seedRng(trainSeed + <f64>g);
  let start = firstBoard(g, true);
  let score: f64 = 0;
  let top: i32 = 0;
  let moves: u32 = 0;
  let episodes: u32 = 0;
  while (true) {
    playFrom(start, true);
    if (episodes == 0) {
      score = gameScore;
      top = gameTop;
    }
    moves += gameMoves;
    episodes++;
    const again = restarts && pathLength > restartMin && (restartMax == 0 || episodes <= restartMax);
    if (again) start = spawn(load<u64>(path + (<usize>(<u32>(<f64>pathLength * restartAt)) << 4)));
    if (lambda >= 0) learnBackward();
    if (!again) break;
  }
  gameScore = score;
  gameTop = top;
  gameMoves = moves;
  gameEpisodes = episodes;
}

/** Trains on the next unclaimed games until the limit or a stop; returns when none is left to claim. */
export function train(): void {
  step = load<f64>(blockAt + F_BASE + (F_STEP << 3));
  while (atomic.load<i32>(control + C_STOP) == 0) {
    const g = atomic.add<u32>(control + C_NEXT, 1);
    if (g >= atomic.load<u32>(control + C_LIMIT)) return;
    trainGame(g);
    const at = ring + (<usize>(g % RING) << 4);
    store<u32>(at, <u32>gameScore);
    store<u32>(at, gameMoves, 4);
    store<u32>(at, <u32>gameTop, 8);
    store<u32>(at, gameEpisodes, 12);
    atomic.add<u64>(control + C_MOVES, <u64>gameMoves);
    atomic.add<u32>(control + C_DONE, 1);
  }
}

/** Plays the next unclaimed held-out games greedily (no learning): score, moves, largest rank each. */
export function evaluate(): void {
  while (atomic.load<i32>(control + C_STOP) == 0) {
    const i = atomic.add<u32>(control + C_EVAL_NEXT, 1);
    if (i >= atomic.load<u32>(control + C_EVAL_LIMIT)) return;
    playGame(evalSeed + <f64>i, i);
    const at = evalResults + (<usize>i << 4);
    store<u32>(at, <u32>gameScore);
    store<u32>(at, gameMoves, 4);
    store<u32>(at, <u32>gameTop, 8);
  }
}

// ---- single calls (the greedy player, tests) ----

export function value(lo: i32, hi: i32): f64 {
  return networkValue((<u64>(<u32>hi) << 32) | <u64>(<u32>lo));
}

/** The greedy move on a board (0 up, 1 down, 2 left, 3 right), -1 when none is legal. */
export function greedyMove(lo: i32, hi: i32): i32 {
  return choose((<u64>(<u32>hi) << 32) | <u64>(<u32>lo), 0);
}

export function lastValue(): f64 {
  return bestValue;
}

/** One TD step on an afterstate (tests): its entries move by step · (target − value). */
export function tdStep(lo: i32, hi: i32, target: f64, tdStepSize: f64): void {
  networkUpdate((<u64>(<u32>hi) << 32) | <u64>(<u32>lo), target, tdStepSize);
}

// ---- the search (network-search.ts) ----

export { clearLeafHeuristic, clearStageWeights, keepLeaves, leafValuesComputed, setNetworkSearch, setStageWeight, searchNodes, useLeafHeuristic };

export function searchMove(lo: i32, hi: i32, dir: i32): f64 {
  return networkSearchMove(lo, hi, dir);
}

export { LEAF_BITS };
