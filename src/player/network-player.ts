/**
 * A learned n-tuple network as a player, computed by build/learn.wasm (the code that trained it): at depth
 * 0 the greedy move on reward + the network's value of the afterstate; deeper, expectimax with the network
 * at the leaves (src/wasm/assembly/network-search.ts). A process loads a network once (by its hash) and
 * keeps it: its tables are hundreds of megabytes.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileStartsWith } from '../util/json-file';
import type { Board } from '../engine/board';
import { CORNER_ORDER, type Direction } from '../engine/moves';
import type { Player } from '../engine/player';
import { NetworkMachine } from '../learn/ntuple/machine';
import { NetworkSearchThreads } from './network-threads';
import { checkNetworkFile, readNetworkFile, readNetworkShape } from '../learn/ntuple/network-file';
import { InputError } from '../util/errors';
import { cacheBits, DEFAULT_SEARCH, depthOf, type DepthSetting } from './expectimax';
import type { NetworkPlayerSpec } from './spec';
import { countEmpty } from '../engine/board';
import { MAX_DEPTH } from './limits';
import { searchWithin, type Clock } from './move-budget';
import { downgraded } from './downgrade';
import { leafHeuristic, loadNetworkSettings, ruledDepth, stageWeightsProblem, stageWeightsThatAct, type DepthRule } from './network-settings';
import { buildStagedTables, loadableTables, type LoadableTables } from '../heuristic/tables';
import { heuristicFields, type Weights } from '../heuristic/weights';
import { canonicalJson } from '../util/canonical-json';

const KEEP = 2;
const loaded = new Map<string, NetworkMachine>();

/** The network of a spec in this process's memory (read once, checked against its hash), with room for `searchThreads` searching instances. */
export function networkMachineFor(ref: NetworkPlayerSpec['network'], searchThreads = 1): NetworkMachine {
  let known = loaded.get(ref.sha256);
  if (known && known.searchThreads < searchThreads) {
    // Made for fewer threads: read it again with room for more (one copy of the tables stays in memory).
    forget(ref.sha256);
    known = undefined;
  }
  if (known) {
    loaded.delete(ref.sha256); // most recently used last
    loaded.set(ref.sha256, known);
    return known;
  }
  const shape = readNetworkShape(ref.file);
  // At most two networks per process (a compare of two networks alternates them): they are hundreds of MB each.
  // The oldest goes before the next is allocated, and its memory is handed back at once (below).
  if (loaded.size >= KEEP) {
    forget(loaded.keys().next().value!);
    collectGarbage();
  }
  const machine = new NetworkMachine(shape, { threads: 0, trainSeed: 0, evalSeed: 0, step: 0, evalCapacity: 1, searchCacheBits: cacheBits(DEFAULT_SEARCH.cacheMB), leafHeuristic: true, searchThreads });
  const file = readNetworkFile(ref.file, () => machine.tables());
  if (file.sha256 !== ref.sha256) throw new InputError(`network file "${ref.file}" is not the one named (sha256 ${file.sha256.slice(0, 12)}…, expected ${ref.sha256.slice(0, 12)}…): was it trained again?`);
  // Its tables are the file's from now on: the search's leaf values stay true from one decision to the next.
  machine.keepLeaves();
  loaded.set(ref.sha256, machine);
  return machine;
}

/**
 * A full garbage collection. A forgotten network's shared WebAssembly memory is freed only when the
 * collector runs, and allocating another gives V8 no reason to run it: a worker comparing three networks
 * (two kept, the third read in turn) grew past 10 GB of forgotten tables before this. Players look their
 * network up at each decision (createNetworkPlayer), so once forgotten nothing holds it.
 */
let collector: (() => void) | null | undefined;
export function collectGarbage(): void {
  if (collector === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collector = runInNewContext('gc') as () => void;
    } catch {
      collector = null; // a runtime without it: the collector runs when it will
    }
  }
  collector?.();
}

/** Each machine's root-split helpers (started at its first split decision). */
const pools = new Map<NetworkMachine, NetworkSearchThreads>();

/** Drops a loaded network and stops its helper threads. */
function forget(sha256: string): void {
  const machine = loaded.get(sha256);
  if (!machine) return;
  loaded.delete(sha256);
  void pools.get(machine)?.close();
  pools.delete(machine);
}

function poolOf(machine: NetworkMachine): NetworkSearchThreads {
  let pool = pools.get(machine);
  if (!pool) pools.set(machine, (pool = new NetworkSearchThreads(machine)));
  return pool;
}

/** Root moves searched by helper threads so far, over every machine (tests wait for it to be positive). */
export function networkHelperTasks(): number {
  let n = 0;
  for (const p of pools.values()) n += p.tasksByHelpers;
  return n;
}

/** Stops every helper thread (tests; a process may also just exit: helpers never keep it alive). */
export async function closeNetworkThreads(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

/** A heuristic's leaf tables per stage (one without stages), each with the key the machine knows it by, and the stage of a root board. */
function leafTables(w: Weights): { stages: { key: string; tables: LoadableTables }[]; stageOf(board: Board): number } {
  const staged = buildStagedTables(w);
  const key = canonicalJson(heuristicFields(w));
  return { stages: staged.stages.map((t, k) => ({ key: `${key}#${k}`, tables: loadableTables(t) })), stageOf: staged.stageOf };
}

/** The depth of a decision on `board`: expectimax's (fixed, or auto's rule), then the depth rule's step by empty cells. */
function depthOn(depth: DepthSetting, board: Board, rule: DepthRule | undefined): number {
  return ruledDepth(depthOf(depth, board), countEmpty(board), rule, MAX_DEPTH);
}

export function createNetworkPlayer(spec: Pick<NetworkPlayerSpec, 'network' | 'search' | 'heuristic'>, clock?: Clock): Player & { depthFor(board: Board): number; searchNodes(): number; searchDepths(): number } {
  const { depth, cprob, msPerMove, depthRule, threads = 1, downgradeAt } = spec.search;
  // The network is looked up at each decision, never held: a process that reads others in turn may forget it (and read it again).
  const machineNow = () => networkMachineFor(spec.network, threads);
  if (spec.search.stageWeights) {
    const problem = stageWeightsProblem(spec.search.stageWeights, machineNow().shape.stages.length);
    if (problem) throw new InputError(`network "${spec.network.file}": ${problem}`);
  }
  const stageWeights = stageWeightsThatAct(spec.search.stageWeights);
  // The heuristic's tables, built once per stage; a machine holds one stage's, rewritten only when another stage or player's are asked for.
  const heuristic = spec.heuristic ? leafTables(leafHeuristic(spec.heuristic, 'the heuristic on a network')) : null;
  const valuesAt = (board: Board, d: number): number[] => {
    const machine = machineNow();
    // Per decision: another player (other settings) may share the machine.
    machine.exports.setNetworkSearch(d, cprob);
    if (stageWeights) stageWeights.forEach((w, k) => machine.exports.setStageWeight(k, w));
    else machine.exports.clearStageWeights();
    const stage = heuristic ? heuristic.stageOf(board) : 0;
    machine.setLeafHeuristic(heuristic?.stages[stage].key ?? null, heuristic?.stages[stage].tables ?? null);
    if (threads > 1 && d > 0) return poolOf(machine).values({ lo: board.lo, hi: board.hi, dirs: [0, 1, 2, 3], depth: d, cprob, stageWeights: stageWeights ?? null });
    return [0, 1, 2, 3].map((dir) => machine.exports.searchMove(board.lo, board.hi, dir));
  };
  let depthsSearched = 0;
  /** What each move is worth (NaN when illegal): reward + the afterstate's value, searched to the depth (or as deep as the time per move allows). */
  const values = (real: Board): number[] => {
    // Tile-downgrading: the same moves are legal on the downgraded board, and its move is played on the real one.
    const board = downgradeAt ? downgraded(real, downgradeAt) : real;
    let vs: number[] = [];
    const searched = searchWithin(depthOn(depth, board, depthRule), msPerMove, (d) => (vs = valuesAt(board, d)), clock);
    if (vs.some((v) => !Number.isNaN(v))) depthsSearched += searched;
    return vs;
  };
  /** The best move, ties to the earlier in CORNER_ORDER (as training's greedy choice breaks them); -1 when none is legal. */
  const best = (vs: number[]): Direction | -1 => {
    let move = -1;
    for (const d of CORNER_ORDER) if (!Number.isNaN(vs[d]) && (move < 0 || vs[d] > vs[move])) move = d;
    return move as Direction | -1;
  };
  // Depth 0 is the greedy move that training plays (one pass over the four afterstates' reads).
  const chooseMove = depth === 0 && !msPerMove && !stageWeights && !heuristic && !depthRule && !downgradeAt ? (board: Board): Direction | -1 => machineNow().exports.greedyMove(board.lo, board.hi) as Direction | -1 : (board: Board) => best(values(board));
  return {
    chooseMove,
    decide(board: Board) {
      const vs = values(board);
      return { move: best(vs), values: vs };
    },
    /** The depth a decision on `board` searches (the depth rule's, on the downgraded board; with a time per move, its limit). */
    depthFor: (board: Board) => depthOn(depth, downgradeAt ? downgraded(board, downgradeAt) : board, depthRule),
    // The machine's count (players of one network share it; a worker plays one game at a time, so a game's difference is its own).
    searchNodes: () => machineNow().exports.searchNodes(),
    // The greedy fast path searches depth 0: nothing to add.
    searchDepths: () => depthsSearched,
  };
}

/** Whether the command set the depth or cutoff itself (a flag, or compare's @dN, @cP): else a file's own goes first. */
export interface SearchGiven {
  depth: boolean;
  cprob: boolean;
}

/**
 * The spec of a network file (its hash read from the whole file) searched as `search` says; or of a network
 * player file (network-settings.ts): its network, checked against the hash it names, with its stage weights,
 * depth rule and heuristic, and its depth and cprob where `given` says the command set none (the time per
 * move stays `search`'s).
 */
export function networkPlayerSpec(path: string, search: NetworkPlayerSpec['search'], given: SearchGiven = { depth: true, cprob: false }): NetworkPlayerSpec {
  if (looksLikeJson(path)) {
    const settings = loadNetworkSettings(path);
    // The network named by the file: its problem is the player file's (a path gone stale, a file moved).
    let network: NetworkPlayerSpec;
    try {
      network = networkPlayerSpec(settings.network.file, { ...search, ...(!given.depth && settings.depth !== undefined ? { depth: settings.depth } : {}) });
    } catch (e) {
      if (e instanceof InputError) throw new InputError(`network player file "${path}": its network: ${e.message}`);
      throw e;
    }
    const spec: NetworkPlayerSpec = { ...network, search: { ...network.search, cprob: given.cprob ? search.cprob : settings.cprob ?? search.cprob, ...(settings.stageWeights ? { stageWeights: settings.stageWeights } : {}), ...(settings.depthRule ? { depthRule: settings.depthRule } : {}), ...(settings.downgradeAt ? { downgradeAt: settings.downgradeAt } : {}) }, ...(settings.heuristic ? { heuristic: settings.heuristic } : {}) };
    if (spec.network.sha256 !== settings.network.sha256) throw new InputError(`network player file "${path}" names the network "${settings.network.file}" with sha256 ${settings.network.sha256.slice(0, 12)}…; that file now has ${spec.network.sha256.slice(0, 12)}… (trained or exported again?)`);
    if (settings.stageWeights) {
      const problem = stageWeightsProblem(settings.stageWeights, readNetworkShape(settings.network.file).stages.length);
      if (problem) throw new InputError(`network player file "${path}": ${problem}`);
    }
    return spec;
  }
  return { kind: 'network', network: { file: path, sha256: fileSha256(path) }, search: { depth: search.depth, cprob: search.cprob, ...(search.msPerMove ? { msPerMove: search.msPerMove } : {}), ...(search.stageWeights ? { stageWeights: [...search.stageWeights] } : {}), ...(search.depthRule ? { depthRule: { ...search.depthRule } } : {}), ...(search.threads && search.threads > 1 ? { threads: search.threads } : {}), ...(search.downgradeAt ? { downgradeAt: search.downgradeAt } : {}) } };
}

/** A file whose first byte is "{" (a network file begins with its magic, "tune2048"); a missing file or a folder is not, and readNetworkShape names it. */
const looksLikeJson = (path: string): boolean => fileStartsWith(path, '{');

/** The SHA-256 of a network file, checked whole (a file that is not a network, or a damaged one, says so in one line). */
export function fileSha256(path: string): string {
  return checkNetworkFile(path).sha256;
}

