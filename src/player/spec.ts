/**
 * What a player is, as data: the one description that travels from the CLI or
 * the tuner to a worker process on this machine or another one. Settings not
 * given take the player's defaults, so a spec plays the same game everywhere.
 */
import { heuristicFields, type Weights } from '../heuristic/weights';
import { canonicalJson } from '../util/canonical-json';
import type { DepthSetting } from './expectimax';
import { searchAsPlayed, type DepthRule } from './network-settings';
import type { SyntheticLandscape } from './synthetic';
import { InputError } from '../util/errors';

/**
 * The players that play moves (every playing command's --player): expectimax, the default (nneonneo's
 * search); minimax: seed 000's alpha-beta with adversarial placement; mcts / mcts-emm: seed 004's tree
 * search with random or expectimax rollouts.
 */
export const PLAYER_KINDS = ['expectimax', 'minimax', 'mcts', 'mcts-emm'] as const;
/** …and what a run can tune for: those, and the synthetic player (a known landscape, for proving optimizers; synthetic.ts). */
export const RUN_PLAYER_KINDS = [...PLAYER_KINDS, 'synthetic'] as const;
export type PlayerKind = (typeof RUN_PLAYER_KINDS)[number];

export interface SearchSpec {
  /** expectimax and minimax: chance layers below the root move; mcts-emm: the rollouts' expectimax depth. */
  depth: DepthSetting;
  /** expectimax (and mcts-emm's rollouts): probability cutoff. */
  cprob: number;
  /** Transposition table size; the default (4 MiB) unless a benchmark sets it. */
  cacheMB?: number;
  /**
   * expectimax: the root split (each root move searched with a table of its own) on this many threads of
   * one process; the same moves for any count, though not always the default search's (which shares one
   * table between the root moves). Absent: the default search.
   */
  threads?: number;
  /** expectimax: a time budget per move in ms (iterative deepening up to `depth`; src/player/move-budget.ts). */
  msPerMove?: number;
  /** mcts, mcts-emm: iterations per move, UCB1's C, rollout length. */
  iterations?: number;
  c?: number;
  rolloutDepth?: number;
}

/** A player of tune2048's own heuristic: its weights and search settings. */
export interface HeuristicPlayerSpec {
  kind: PlayerKind;
  weights: Weights;
  search: SearchSpec;
  /** The synthetic player's landscape and noise (kind synthetic only). */
  synthetic?: SyntheticLandscape;
}

/** How to start an external player on this machine. */
export interface Launch {
  /** The program and its arguments (no shell). */
  command: string[];
  /** Its working directory. */
  cwd: string;
  /** Seconds it may take to announce itself and to answer one board. */
  timeoutSec: number;
  /** A built program's identity: the hash of its build recipe and sources (build.ts), the same wherever and by whichever compiler it was built. */
  sources?: string;
}

/** An external program that plays over the line protocol (src/player/external/, docs/protocol.md). */
export interface ExternalPlayerRef {
  /** The name and version the program announced. */
  name: string;
  version: string;
  /** The hash of its whole announcement (protocol.ts announcementHash): a worker whose program announces otherwise refuses the job. */
  announced: string;
  /** A value for every announced parameter. */
  params: Record<string, number>;
  /** How to start it on this machine; absent in a Redis job (a job never carries a command line: workers start their own registered players). */
  launch?: Launch;
  /**
   * The hash of the files its command names (resolve.ts programHash): the same name and version from changed
   * code is another player. Set by compare and play, and by a tuning run (stored with it when it began; absent
   * in runs stored before): every worker checks it before it plays (play.ts externalProcessFor), so games of
   * two programs are never mixed, and resume checks it before anything is played.
   */
  program?: string;
}

export interface ExternalPlayerSpec {
  kind: 'external';
  external: ExternalPlayerRef;
}

/**
 * A learned n-tuple network (src/player/network-player.ts): its file and the file's SHA-256, and its search:
 * expectimax with the network at the leaves, depth 0 = the greedy move (src/wasm/assembly/network-search.ts).
 */
export interface NetworkPlayerSpec {
  kind: 'network';
  network: { file: string; sha256: string };
  /**
   * Depth 0: greedy; msPerMove: a time budget per move, deepening up to `depth` (src/player/move-budget.ts);
   * stageWeights: per stage, a weight on the network's value at the leaves (absent: 1 each, training's values);
   * depthRule: one deeper or shallower by the board's empty cells (network-settings.ts);
   * threads: the root moves split over this many threads sharing the tables (network-threads.ts: the same games);
   * downgradeAt: a board holding a tile this large is decided with its highest missing ranks closed (downgrade.ts).
   */
  search: { depth: DepthSetting; cprob: number; msPerMove?: number; stageWeights?: number[]; depthRule?: DepthRule; threads?: number; downgradeAt?: number };
  /** Heuristic terms added to the network's value at every leaf (weights without stages or learned lines). */
  heuristic?: Weights;
  /** The decision screen (a run's fitness.screen): each game also judged, every k-th decision, by the plain network searched to this depth (PlayedGame.regret). */
  screen?: DecisionScreen;
}

/** How a screened game's decisions are judged: the network at `depth` with cutoff `cprob`, every `every`-th decision. */
export interface DecisionScreen {
  depth: number;
  cprob: number;
  every: number;
}

export type PlayerSpec = HeuristicPlayerSpec | ExternalPlayerSpec | NetworkPlayerSpec;

/**
 * Seed 004's parameters. mcts: as seed 004 (C 1.4, 1500 iterations, rollouts of 30). mcts-emm: seed 004
 * used 50 iterations of 30-move rollouts played by expectimax at depth 5, ~1,500 depth-5 searches a move
 * (minutes per move, days per game here); scaled down to rollouts of 10 moves at the --depth given
 * (default 1), about 25 ms a move.
 */
export const MCTS_DEFAULTS: Record<'mcts' | 'mcts-emm', { iterations: number; c: number; rolloutDepth: number }> = {
  mcts: { iterations: 1500, c: 1.4, rolloutDepth: 30 },
  'mcts-emm': { iterations: 50, c: 1.4, rolloutDepth: 10 },
};

/** A player of a weight set with its settings (MCTS defaults filled in): the only place a spec is built. */
export function playerSpec(kind: PlayerKind, weights: Weights, search: Partial<SearchSpec> & { depth: DepthSetting; cprob: number }, synthetic?: SyntheticLandscape): HeuristicPlayerSpec {
  if (kind === 'synthetic') {
    if (!synthetic) throw new InputError('the synthetic player needs its landscape (fitness.synthetic in a run config)');
    return { kind, weights, search: { depth: search.depth, cprob: search.cprob }, synthetic };
  }
  const problem = playerSettingsProblem(kind, search.depth);
  if (problem) throw new InputError(problem);
  const s: SearchSpec = { depth: search.depth, cprob: search.cprob };
  if (search.cacheMB !== undefined) s.cacheMB = search.cacheMB;
  if (search.threads !== undefined) {
    if (kind !== 'expectimax') throw new InputError(`--threads splits expectimax's root moves over threads; the ${kind} player has no such split`);
    s.threads = search.threads;
  }
  if (search.msPerMove !== undefined) {
    if (kind !== 'expectimax') throw new InputError(`--ms-per-move deepens expectimax's search (or a network's) within a time per move; the ${kind} player has no such search`);
    s.msPerMove = search.msPerMove;
  }
  if (kind === 'mcts' || kind === 'mcts-emm') {
    const d = MCTS_DEFAULTS[kind];
    s.iterations = search.iterations ?? d.iterations;
    s.c = search.c ?? d.c;
    s.rolloutDepth = search.rolloutDepth ?? d.rolloutDepth;
  }
  return { kind, weights, search: s };
}

/** What is wrong with a player's settings, or null (checked where specs are built and in run configs). */
export function playerSettingsProblem(kind: PlayerKind, depth: DepthSetting): string | null {
  return kind === 'minimax' && depth === 'auto' ? 'minimax needs a fixed --depth (auto is for expectimax)' : null;
}

/** The expectimax player of a weight set at a depth and cutoff. */
export function expectimaxSpec(weights: Weights, search: { depth: DepthSetting; cprob: number; cacheMB?: number }): HeuristicPlayerSpec {
  return playerSpec('expectimax', weights, search);
}

/**
 * A player's identity: everything that changes how it plays (kind, the heuristic's fields, search settings;
 * for an external player, its announcement and parameter values, not where its program lies) and nothing
 * that does not (a preset's name, description or provenance; where the learned tables' file lies:
 * their hash names them), as canonical JSON. Two specs with
 * the same key play the same game on every seed (but for a player with a time per move, whose depth depends on
 * the machine's speed): the tuner plays a copy's games once, workers reuse a
 * player built for the same key, and compare --db finds stored games by it.
 */
export function playerKey(spec: PlayerSpec): string {
  // A network is named by its hash: the same tables play the same games wherever their file lies.
  if (spec.kind === 'network') {
    const { threads: _sameGames, ...search } = spec.search; // a network's root split plays the same games on any number of threads
    return canonicalJson({ kind: spec.kind, sha256: spec.network.sha256, search, ...(spec.heuristic ? { heuristic: heuristicFields(spec.heuristic) } : {}), ...(spec.screen ? { screen: spec.screen } : {}) });
  }
  if (spec.kind === 'external') {
    const { name, version, announced, params, program } = spec.external;
    return canonicalJson({ kind: spec.kind, name, version, announced, params, ...(program ? { program } : {}) });
  }
  const fields = heuristicFields(spec.weights);
  const weights = fields.learned ? { ...fields, learned: { sha256: fields.learned.sha256, weight: fields.learned.weight } } : fields;
  return canonicalJson({ kind: spec.kind, weights, search: spec.search, ...(spec.synthetic ? { synthetic: spec.synthetic } : {}) });
}

/**
 * What a player's games are a function of, with settings that change no move left out (a network search's
 * cutoff that never prunes, a depth-rule side that changes no depth, stage weights all 1: searchAsPlayed): two specs with one
 * gamesKey play the same games. The tuner plays such twins once and validates them once; records keep
 * playerKey (what was asked for), so stored games stay found by what named them.
 */
export function gamesKey(spec: PlayerSpec): string {
  return playerKey(spec.kind === 'network' ? { ...spec, search: searchAsPlayed(spec.search) } : spec);
}
