/**
 * What a player is, as data: the one description that travels from the CLI or
 * the tuner to a worker process on this machine or another one. Settings not
 * given take the search defaults, so a spec plays the same game everywhere.
 */
import type { Weights } from '../heuristic/weights';
import type { DepthSetting } from '../search/expectimax';

export interface SearchSpec {
  depth: DepthSetting;
  cprob: number;
  /** Transposition table size; the default (4 MiB) unless a benchmark sets it. */
  cacheMB?: number;
}

export interface PlayerSpec {
  /** The player's algorithm. Only expectimax exists today; the seeds' other players are coming (issue 14). */
  kind: 'expectimax';
  weights: Weights;
  search: SearchSpec;
}

/** The expectimax player of a weight set at a depth and cutoff (the only place such a spec is built). */
export function expectimaxSpec(weights: Weights, search: { depth: DepthSetting; cprob: number; cacheMB?: number }): PlayerSpec {
  const s: SearchSpec = { depth: search.depth, cprob: search.cprob };
  if (search.cacheMB !== undefined) s.cacheMB = search.cacheMB;
  return { kind: 'expectimax', weights, search: s };
}
