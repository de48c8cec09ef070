/** What crosses the IPC channel between the tuner and its workers. */
import type { Weights } from '../heuristic/weights';
import type { DepthSetting } from '../search/expectimax';

/** A batch: several seeded games of one candidate. */
export interface BatchTask {
  weights: Weights;
  search: { depth: DepthSetting; cprob: number; cacheMB?: number };
  seeds: number[];
}

export interface BatchGame {
  seed: number;
  score: number;
  maxTile: number;
  moves: number;
  ms: number;
}

export interface BatchResult {
  pid: number;
  games: BatchGame[];
}
