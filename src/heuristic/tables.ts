/**
 * Per weight set, the heuristic as table lookups:
 *   value(board) = Σ_i rowTables[i][row i] + Σ_c lineTable[column c]
 * rowTables[i] = line score + the matrix term of row i (the same array as
 * lineTable when there is no matrix). Built once per weight set (~10 ms).
 */
import { ROW_COUNT, rowToRanks } from '../engine/tables';
import { lineScore, rankValue } from './features';
import type { Weights } from './weights';

export interface HeuristicTables {
  readonly weights: Weights;
  readonly lineTable: Float64Array;
  readonly rowTables: readonly [Float64Array, Float64Array, Float64Array, Float64Array];
}

export function buildHeuristicTables(weights: Weights): HeuristicTables {
  const lineTable = new Float64Array(ROW_COUNT);
  for (let row = 0; row < ROW_COUNT; row++) lineTable[row] = lineScore(weights, rowToRanks(row));
  const matrix = weights.matrix;
  if (!matrix || matrix.every((r) => r.every((x) => x === 0))) {
    return { weights, lineTable, rowTables: [lineTable, lineTable, lineTable, lineTable] };
  }
  const f = weights.matrixOn === 'rank' ? (r: number) => r : rankValue;
  const rowTables = [0, 1, 2, 3].map((i) => {
    const w = matrix[i];
    const table = new Float64Array(ROW_COUNT);
    for (let row = 0; row < ROW_COUNT; row++) {
      const r = rowToRanks(row);
      table[row] = lineTable[row] + w[0] * f(r[0]) + w[1] * f(r[1]) + w[2] * f(r[2]) + w[3] * f(r[3]);
    }
    return table;
  }) as unknown as [Float64Array, Float64Array, Float64Array, Float64Array];
  return { weights, lineTable, rowTables };
}
