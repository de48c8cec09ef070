/**
 * Weights that add a learned line-table term (learn export --base --weight): the base weights' heuristic with
 * the table named where the weights file will find it, its hash and weight, and where it came from.
 */
import { dirname, relative, resolve } from 'node:path';
import { heuristicFields, WEIGHTS_FORMAT, type Weights } from '../heuristic/weights';
import type { LearnRun } from '../store/store';

export function learnedWeights(o: { base: Weights; baseName: string; weight: number; table: string; weightsFile?: string; sha256: string; run: LearnRun; games: number; database: string }): unknown {
  // The table's path as the weights file will find it: relative to that file's folder (or the working directory).
  const table = relative(o.weightsFile ? dirname(resolve(o.weightsFile)) : process.cwd(), resolve(o.table));
  return {
    format: WEIGHTS_FORMAT,
    version: 2,
    name: `${o.base.name ?? o.baseName}+learned-${o.run.id}x${o.weight}`,
    ...heuristicFields(o.base),
    learned: { table, sha256: o.sha256, weight: o.weight },
    provenance: { base: o.base.name ?? o.baseName, learnRun: o.run.id, learnName: o.run.name, games: o.games, database: o.database },
  };
}
