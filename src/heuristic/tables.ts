/**
 * Per weight set, the heuristic as table lookups:
 *   value(board) = Σ_i rowTables[i][row i] + Σ_c lineTable[column c]
 * rowTables[i] = line score + the matrix term of row i (the same array as
 * lineTable when there is no matrix). Built once per weight set, in a few ms.
 */
import { ROW_COUNT } from '../engine/tables';
import { makeLineScorer, rankValue } from './features';
import type { Weights } from './weights';

export interface HeuristicTables {
  readonly weights: Weights;
  readonly lineTable: Float64Array;
  readonly rowTables: readonly [Float64Array, Float64Array, Float64Array, Float64Array];
}

export function buildHeuristicTables(weights: Weights): HeuristicTables {
  const score = makeLineScorer(weights);
  const lineTable = new Float64Array(ROW_COUNT);
  for (let row = 0; row < ROW_COUNT; row++) lineTable[row] = score(row & 15, (row >>> 4) & 15, (row >>> 8) & 15, row >>> 12);
  const matrix = weights.matrix;
  if (!matrix || matrix.every((r) => r.every((x) => x === 0))) {
    return { weights, lineTable, rowTables: [lineTable, lineTable, lineTable, lineTable] };
  }
  const f = Float64Array.from({ length: 16 }, (_, r) => (weights.matrixOn === 'rank' ? r : rankValue(r)));
  const rowTables = matrix.map((w) => {
    // Σ_j w[j]·f(rank j) splits into 4 per-nibble terms of 16 values each.
    const cell = [0, 1, 2, 3].map((j) => Float64Array.from(f, (x) => w[j] * x));
    const table = new Float64Array(ROW_COUNT);
    for (let row = 0; row < ROW_COUNT; row++) {
      table[row] = lineTable[row] + cell[0][row & 15] + cell[1][(row >>> 4) & 15] + cell[2][(row >>> 8) & 15] + cell[3][row >>> 12];
    }
    return table;
  }) as unknown as [Float64Array, Float64Array, Float64Array, Float64Array];
  return { weights, lineTable, rowTables };
}
