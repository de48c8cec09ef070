/**
 * Per weight set, the heuristic as table lookups:
 *   value(board) = Σ_i rowTables[i][row i] + Σ_c columnTables[c][column c]
 * rowTables[i] = the line score of row i's group + the matrix term of row i; columnTables[c] = the line
 * score of column c's group. Where nothing tells lines apart (no matrix, no line-position terms) all eight
 * are the one lineTable, and the search knows the heuristic is symmetric under transposition. A learned line
 * network (weights' `learned`) adds its weighted line tables to the eight.
 * Built once per weight set (and per stage), in a few ms.
 */
import { rowOf, transpose, type Board } from '../engine/board';
import { ROW_COUNT } from '../engine/tables';
import { learnedLineTables, type LineNetwork } from '../learn/line-network';
import { networkFor } from '../learn/table-file';
import { makeLineScorer, rankValue } from './features';
import { LINE_GROUPS, lineGroup, lineWeights, stageOf, stageWeights, type LineGroup, type Weights } from './weights';

type Four = readonly [Float64Array, Float64Array, Float64Array, Float64Array];

export interface HeuristicTables {
  readonly weights: Weights;
  /** The base line score (every line's, without line-position terms). */
  readonly lineTable: Float64Array;
  readonly rowTables: Four;
  readonly columnTables: Four;
}

/** A weight set with stages: the tables of each, and which one a board to move on is in. */
export interface StagedTables {
  readonly weights: Weights;
  readonly stages: readonly HeuristicTables[];
  stageOf(board: Board): number;
}

function lineTableOf(w: Weights): Float64Array {
  const score = makeLineScorer(w);
  const table = new Float64Array(ROW_COUNT);
  for (let row = 0; row < ROW_COUNT; row++) table[row] = score(row & 15, (row >>> 4) & 15, (row >>> 8) & 15, row >>> 12);
  return table;
}

/** The tables of a weight set without stages (of stage 0's weights, when it has them: see buildStagedTables). */
export function buildHeuristicTables(weights: Weights): HeuristicTables {
  const w = weights.stages ? stageWeights(weights, 0) : weights;
  const lineTable = lineTableOf(w);
  const groups = new Map<LineGroup, Float64Array>(LINE_GROUPS.map((g) => [g, w.lines?.[g] ? lineTableOf(lineWeights(w, g)) : lineTable]));
  const columnTables = [0, 1, 2, 3].map((c) => groups.get(lineGroup('column', c))!) as unknown as Four;
  const matrix = w.matrix && w.matrix.some((r) => r.some((x) => x !== 0)) ? w.matrix : null;
  const f = Float64Array.from({ length: 16 }, (_, r) => (w.matrixOn === 'rank' ? r : rankValue(r)));
  const rowTables = [0, 1, 2, 3].map((i) => {
    const line = groups.get(lineGroup('row', i))!;
    if (!matrix) return line;
    // Σ_j m[j]·f(rank j) splits into 4 per-nibble terms of 16 values each.
    const m = matrix[i];
    const cell = [0, 1, 2, 3].map((j) => Float64Array.from(f, (x) => m[j] * x));
    const table = new Float64Array(ROW_COUNT);
    for (let row = 0; row < ROW_COUNT; row++) {
      table[row] = line[row] + cell[0][row & 15] + cell[1][(row >>> 4) & 15] + cell[2][(row >>> 8) & 15] + cell[3][row >>> 12];
    }
    return table;
  }) as unknown as Four;
  if (!w.learned) return { weights: w, lineTable, rowTables, columnTables };
  const learned = learnedOf(networkFor(w.learned));
  const weight = w.learned.weight;
  const plus = (t: Float64Array, l: Float64Array) => Float64Array.from(t, (x, row) => x + weight * l[row]);
  const outer = (i: number) => i === 0 || i === 3;
  return {
    weights: w,
    lineTable,
    rowTables: rowTables.map((t, i) => plus(t, outer(i) ? learned.outerRow : learned.innerRow)) as unknown as Four,
    columnTables: columnTables.map((t, c) => plus(t, outer(c) ? learned.outerColumn : learned.innerColumn)) as unknown as Four,
  };
}

const learnedCache = new WeakMap<LineNetwork, ReturnType<typeof learnedLineTables>>();
/** A network's line tables as the search reads them, made once per network (every stage and candidate shares them). */
function learnedOf(net: LineNetwork): ReturnType<typeof learnedLineTables> {
  let t = learnedCache.get(net);
  if (!t) learnedCache.set(net, (t = learnedLineTables(net)));
  return t;
}

/** The tables of every stage (one stage for a weight set without stages). */
export function buildStagedTables(weights: Weights): StagedTables {
  const stages = weights.stages ? weights.stages.list.map((_, k) => buildHeuristicTables(stageWeights(weights, k))) : [buildHeuristicTables(weights)];
  return { weights, stages, stageOf: (board) => stageOf(weights, board) };
}

/** What the search module is given: rowTables and columnTables only where lines differ (null: each is lineTable). */
export interface LoadableTables {
  lineTable: Float64Array;
  rowTables: Float64Array[] | null;
  columnTables: Float64Array[] | null;
}

export function loadableTables(t: HeuristicTables): LoadableTables {
  const differ = (four: Four) => (four.some((x) => x !== t.lineTable) ? [...four] : null);
  return { lineTable: t.lineTable, rowTables: differ(t.rowTables), columnTables: differ(t.columnTables) };
}

/** A board's heuristic from its tables, as the search modules sum it: rows 0-3, then columns 0-3 (one lookup each). */
export function tableHeuristic(t: HeuristicTables, board: Board): number {
  const columns = transpose(board);
  let sum = 0;
  for (let i = 0; i < 4; i++) sum += t.rowTables[i][rowOf(board, i)];
  for (let c = 0; c < 4; c++) sum += t.columnTables[c][rowOf(columns, c)];
  return sum;
}
