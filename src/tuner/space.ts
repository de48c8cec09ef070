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
}

const MATRIX_PARAM = /^matrix\[([0-3])\]\[([0-3])\]$/;

function readParam(w: Weights, name: string): number {
  const m = MATRIX_PARAM.exec(name);
  if (m) return w.matrix ? w.matrix[Number(m[1])][Number(m[2])] : 0;
  return w[name as (typeof SCALAR_WEIGHT_NAMES)[number]];
}

export class ParameterSpace {
  readonly names: readonly string[];
  readonly specs: readonly ParamSpec[];
  readonly start: Weights;

  constructor(start: Weights, params: Record<string, ParamSpec>) {
    this.start = start;
    this.names = Object.keys(params);
    this.specs = this.names.map((n) => params[n]);
    this.names.forEach((name, i) => {
      if (!MATRIX_PARAM.test(name) && !(SCALAR_WEIGHT_NAMES as readonly string[]).includes(name)) {
        throw new InputError(`space.params: unknown parameter "${name}" (tunable: ${SCALAR_WEIGHT_NAMES.join(', ')}, matrix[i][j])`);
      }
      const v = readParam(start, name);
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
    return this.names.map((n, i) => this.normalize(i, readParam(this.start, n)));
  }

  /** The tuned values by name. */
  params(genome: readonly number[]): Record<string, number> {
    return Object.fromEntries(this.names.map((n, i) => [n, this.denormalize(i, genome[i])]));
  }

  /** Full weights: the start weights with the tuned values put in. */
  toWeights(genome: readonly number[]): Weights {
    const w: Weights = structuredClone(this.start);
    delete w.provenance;
    this.names.forEach((name, i) => {
      const v = this.denormalize(i, genome[i]);
      const m = MATRIX_PARAM.exec(name);
      if (m) {
        w.matrix ??= [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
        w.matrix[Number(m[1])][Number(m[2])] = v;
      } else {
        (w as Record<string, unknown>)[name] = v;
      }
    });
    return parseWeights(w, 'tuned weights');
  }
}
