/**
 * The parameter space: which weights are tuned, their bounds and scale. The
 * optimizer sees a genome in [0, 1]^n (linear or log-scaled per parameter);
 * everything not tuned keeps the start weights' value.
 */
import { SCALAR_WEIGHT_NAMES, Weights, parseWeights } from '../heuristic/weights';
import { InputError } from '../util/errors';

export interface ParamSpec {
  min: number;
  max: number;
  scale: 'linear' | 'log';
  /** The start value, instead of the start weights' (required for the parameters of a structured matrix). */
  start?: number;
}

/**
 * How the positional matrix is tuned (the mission's "mutate weight matrices"):
 * - full: any `matrix[i][j]` cells, each a parameter (the default);
 * - symmetric: cells `matrix[i][j]` with i ≤ j; each also sets its transpose `matrix[j][i]` (10 parameters
 *   for the whole matrix instead of 16);
 * - snake: `matrix.amplitude` · `matrix.base`^−k along the snake path (row 0 left to right, row 1 right to
 *   left, …), so a mutation moves the whole gradient;
 * - corner: `matrix.amplitude` · `matrix.base`^−(`matrix.rowExp`·i + `matrix.colExp`·j), largest in the
 *   top-left corner.
 */
export type MatrixForm = 'full' | 'symmetric' | 'snake' | 'corner';

const MATRIX_PARAM = /^matrix\[([0-3])\]\[([0-3])\]$/;
const STRUCTURED: Record<'snake' | 'corner', readonly string[]> = {
  snake: ['matrix.amplitude', 'matrix.base'],
  corner: ['matrix.amplitude', 'matrix.base', 'matrix.rowExp', 'matrix.colExp'],
};

/** The cells in snake order: row 0 left to right, row 1 right to left, and so on. */
export function snakeCells(): [number, number][] {
  const cells: [number, number][] = [];
  for (let i = 0; i < 4; i++) for (let k = 0; k < 4; k++) cells.push([i, i % 2 === 0 ? k : 3 - k]);
  return cells;
}

/** The matrix of a structured form from its parameters. */
export function structuredMatrix(form: 'snake' | 'corner', p: Record<string, number>): number[][] {
  const m = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
  const amp = p['matrix.amplitude'];
  const base = p['matrix.base'];
  if (form === 'snake') snakeCells().forEach(([i, j], k) => (m[i][j] = amp * base ** -k));
  else for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) m[i][j] = amp * base ** -(p['matrix.rowExp'] * i + p['matrix.colExp'] * j);
  return m;
}

function readParam(w: Weights, name: string, spec: ParamSpec): number {
  if (spec.start !== undefined) return spec.start;
  const m = MATRIX_PARAM.exec(name);
  if (m) return w.matrix ? w.matrix[Number(m[1])][Number(m[2])] : 0;
  return w[name as (typeof SCALAR_WEIGHT_NAMES)[number]];
}

export class ParameterSpace {
  readonly names: readonly string[];
  readonly specs: readonly ParamSpec[];
  readonly start: Weights;

  readonly form: MatrixForm;

  constructor(start: Weights, params: Record<string, ParamSpec>, form: MatrixForm = 'full') {
    this.start = start;
    this.form = form;
    this.names = Object.keys(params);
    this.specs = this.names.map((n) => params[n]);
    const structured = form === 'snake' || form === 'corner' ? STRUCTURED[form] : [];
    for (const name of structured) {
      if (!(name in params)) throw new InputError(`space.params: a ${form} matrix needs "${name}" (with min, max and start)`);
      if (params[name].start === undefined) throw new InputError(`space.params.${name}: a ${form} matrix parameter needs a "start" value`);
    }
    this.names.forEach((name, i) => {
      const cell = MATRIX_PARAM.exec(name);
      const known = (SCALAR_WEIGHT_NAMES as readonly string[]).includes(name) || structured.includes(name) || (cell && structured.length === 0);
      if (!known) {
        const matrixNames = structured.length > 0 ? structured.join(', ') : 'matrix[i][j]';
        throw new InputError(`space.params: unknown parameter "${name}" for a ${form} matrix (tunable: ${SCALAR_WEIGHT_NAMES.join(', ')}, ${matrixNames})`);
      }
      if (cell && form === 'symmetric' && Number(cell[1]) > Number(cell[2])) {
        throw new InputError(`space.params: "${name}" of a symmetric matrix: name the cell with i ≤ j (matrix[${cell[2]}][${cell[1]}]); it sets both`);
      }
      const v = readParam(start, name, this.specs[i]);
      const { min, max } = this.specs[i];
      if (v < min || v > max) throw new InputError(`space.params.${name}: the start value ${v} is outside [${min}, ${max}]`);
    });
  }

  get size(): number {
    return this.names.length;
  }

  /** Parameter value → [0, 1]. */
  normalize(i: number, value: number): number {
    const { min, max, scale } = this.specs[i];
    const x = scale === 'log' ? (Math.log(value) - Math.log(min)) / (Math.log(max) - Math.log(min)) : (value - min) / (max - min);
    return Math.min(1, Math.max(0, x));
  }

  /** [0, 1] → parameter value (clamped, so bounds always hold). */
  denormalize(i: number, x: number): number {
    const { min, max, scale } = this.specs[i];
    const t = Math.min(1, Math.max(0, x));
    if (t === 0) return min; // exact at the bounds despite exp/log round-off
    if (t === 1) return max;
    const v = scale === 'log' ? Math.exp(Math.log(min) + t * (Math.log(max) - Math.log(min))) : min + t * (max - min);
    return Math.min(max, Math.max(min, v));
  }

  startGenome(): number[] {
    return this.names.map((n, i) => this.normalize(i, readParam(this.start, n, this.specs[i])));
  }

  /** The tuned values by name. */
  params(genome: readonly number[]): Record<string, number> {
    return Object.fromEntries(this.names.map((n, i) => [n, this.denormalize(i, genome[i])]));
  }

  /** Full weights: the start weights with the tuned values put in. */
  toWeights(genome: readonly number[]): Weights {
    const w: Weights = structuredClone(this.start);
    delete w.provenance;
    const values = this.params(genome);
    for (const [name, v] of Object.entries(values)) {
      const m = MATRIX_PARAM.exec(name);
      if (m) {
        w.matrix ??= [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
        w.matrix[Number(m[1])][Number(m[2])] = v;
        if (this.form === 'symmetric') w.matrix[Number(m[2])][Number(m[1])] = v;
      } else if (!name.startsWith('matrix.')) {
        (w as Record<string, unknown>)[name] = v;
      }
    }
    if (this.form === 'snake' || this.form === 'corner') w.matrix = structuredMatrix(this.form, values);
    return parseWeights(w, 'tuned weights');
  }
}
