/**
 * The parameter space: which weights are tuned, their bounds and scale. The
 * optimizer sees a genome in [0, 1]^n (linear or log-scaled per parameter);
 * everything not tuned keeps the start weights' value.
 */
import { LINE_GROUPS, SCALAR_WEIGHT_NAMES, Weights, lineWeights, oldestVersion, parseWeights, stageWeights, type LineGroup, type StageMeasure } from '../../heuristic/weights';
import { cliName } from '../../util/command-hint';
import { InputError } from '../../util/errors';
import { didYouMean } from '../../util/valibot-issues';

export interface ParamSpec {
  min: number;
  max: number;
  scale: 'linear' | 'log';
  /** The start value, instead of the start weights' (required for the parameters of a structured matrix). */
  start?: number;
  /** Whole numbers only (the search depth): a genome's value is rounded. */
  integer?: boolean;
}

/**
 * The search depth as a parameter of any run of tune2048's own players (heuristic or network): a whole number,
 * its start fitness.depth (parseConfig puts it in), so a two-objective run can trade depth against cost.
 */
export const SEARCH_DEPTH = 'depth';

/** The chance cutoff as a parameter of the heuristic's search (a network's space has its own `cprob`), starting at fitness.cprob. */
export const SEARCH_CPROB = 'cprob';

/** The search depth a genome gives, when the space tunes it (else the run's fitness.depth stands). */
export function searchDepthOf(space: BoundedSpace, genome: readonly number[]): number | undefined {
  const i = space.names.indexOf(SEARCH_DEPTH);
  return i < 0 ? undefined : space.denormalize(i, genome[i]);
}

/** The heuristic search's cutoff a genome gives, when the space tunes it. */
export function searchCprobOf(space: BoundedSpace, genome: readonly number[]): number | undefined {
  const i = space instanceof ParameterSpace ? space.names.indexOf(SEARCH_CPROB) : -1;
  return i < 0 ? undefined : space.denormalize(i, genome[i]);
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
/** Line-position terms: `lines.<group>.<coefficient>` (weights version 2). */
const LINE_PARAM = new RegExp(`^lines\\.(${LINE_GROUPS.join('|')})\\.(${SCALAR_WEIGHT_NAMES.join('|')})$`);
/** The weight of the learned line network (weights version 2), for start weights that have one. */
const LEARNED_PARAM = 'learned.weight';
/** A stage's own value of any other parameter: `stages.<k>.<parameter>`. */
const STAGE_PARAM = /^stages\.([0-3])\.(.+)$/;

/** Stages to split the start weights into (space.stages of a config): each begins as the start itself. */
export interface StageSplit {
  by: StageMeasure;
  /** Where each stage after the first begins (increasing). */
  at: number[];
}

/** The start weights split into stages that all play as it does (a version-2 weight set). */
export function splitIntoStages(w: Weights, split: StageSplit): Weights {
  const bounds = [0, ...split.at];
  const list = bounds.map((from, k) => (k < split.at.length ? { from, to: bounds[k + 1] } : { from }));
  return parseWeights({ ...w, version: 2, stages: { by: split.by, list } }, 'the start weights split into stages (space.stages)');
}
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

/** A parameter's value in w (a stage's, a line group's, a matrix cell's or a scalar's). */
function readValue(w: Weights, name: string): number {
  const stage = STAGE_PARAM.exec(name);
  if (stage) return readValue(stageWeights(w, Number(stage[1])), stage[2]);
  const line = LINE_PARAM.exec(name);
  if (line) return lineWeights(w, line[1] as LineGroup)[line[2] as (typeof SCALAR_WEIGHT_NAMES)[number]];
  const m = MATRIX_PARAM.exec(name);
  if (m) return w.matrix ? w.matrix[Number(m[1])][Number(m[2])] : 0;
  if (name === LEARNED_PARAM) return w.learned!.weight;
  return w[name as (typeof SCALAR_WEIGHT_NAMES)[number]];
}

export function readParam(w: Weights, name: string, spec: ParamSpec): number {
  return spec.start !== undefined ? spec.start : readValue(w, name);
}

/** Sets a scalar, line or matrix-cell parameter in a plain weights object (the caller parses the result). */
function writeValue(w: Record<string, any>, name: string, v: number, symmetric: boolean): void {
  const line = LINE_PARAM.exec(name);
  const m = MATRIX_PARAM.exec(name);
  if (line) {
    w.lines ??= {};
    w.lines[line[1]] = { ...w.lines[line[1]], [line[2]]: v };
  } else if (name === LEARNED_PARAM) {
    w.learned = { ...w.learned, weight: v };
  } else if (m) {
    w.matrix ??= [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
    w.matrix[Number(m[1])][Number(m[2])] = v;
    if (symmetric) w.matrix[Number(m[2])][Number(m[1])] = v;
  } else {
    w[name] = v;
  }
}

/**
 * Named parameters with bounds and scales, and the genome the optimizers see: [0, 1]^n, linear or
 * log-scaled per parameter. The weights of tune2048's heuristic (ParameterSpace) and an external player's
 * announced parameters (ExternalSpace) are both such a space; the tuner and the optimizers see only this.
 */
export abstract class BoundedSpace {
  constructor(
    readonly names: readonly string[],
    readonly specs: readonly ParamSpec[],
  ) {}

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
    const clamped = Math.min(max, Math.max(min, v));
    return this.specs[i].integer ? Math.round(clamped) : clamped;
  }

  /** Parameter i's value at the start point. */
  protected abstract startValue(i: number): number;

  startGenome(): number[] {
    return this.names.map((_, i) => this.normalize(i, this.startValue(i)));
  }

  /**
   * The tuned values by name. `asGiven` (export): a gene at the start's own value gives the start's value
   * as the user wrote it (3, not the 2.9999999999999996 that log and exp leave); games and stored runs keep
   * the plain mapping, so a run plays as it always did.
   */
  params(genome: readonly number[], asGiven = false): Record<string, number> {
    const start = asGiven ? this.startGenome() : null;
    return Object.fromEntries(this.names.map((n, i) => [n, start && genome[i] === start[i] ? this.startValue(i) : this.denormalize(i, genome[i])]));
  }

  /** The tuned values as the player uses them, for tables (here the values themselves; a network's rule thresholds are whole cells, or off). */
  playedParams(genome: readonly number[]): Record<string, number> {
    return this.params(genome);
  }

  /** The genome of what a genome plays: whole-number parameters rounded (two genomes that play alike give one). */
  canonical(genome: readonly number[]): number[] {
    const played = this.playedParams(genome);
    return this.names.map((n, i) => (this.specs[i].integer || played[n] !== this.denormalize(i, genome[i]) ? this.normalize(i, played[n]) : genome[i]));
  }
}

/** A parameter's bounds make a range its scale can span (the spaces that fill bounds in check them here). */
export function checkBounds(name: string, spec: ParamSpec): void {
  if (!(spec.max > spec.min)) throw new InputError(`space.params.${name}: max must be greater than min`);
  if (spec.scale === 'log' && spec.min <= 0) throw new InputError(`space.params.${name}: a log scale needs min > 0`);
}

/** A parameter's start value lies within its bounds. */
export function checkStart(name: string, spec: ParamSpec, start: number): void {
  if (start < spec.min || start > spec.max) throw new InputError(`space.params.${name}: the start value ${start} is outside [${spec.min}, ${spec.max}]`);
}

/** A config's parameter entries with their bounds required (an external player's may take its announced ones). */
export function boundedSpecs(params: Record<string, Partial<ParamSpec>>): Record<string, ParamSpec> {
  return Object.fromEntries(
    Object.entries(params).map(([name, p]) => {
      if (p.min === undefined || p.max === undefined) throw new InputError(`space.params.${name}: give its "min" and "max"`);
      return [name, { scale: 'linear', ...p } as ParamSpec];
    }),
  );
}

/** The weights of tune2048's own heuristic as a space: the start weights, and the weights a genome gives. */
export class ParameterSpace extends BoundedSpace {
  readonly start: Weights;

  readonly form: MatrixForm;

  constructor(start: Weights, params: Record<string, Partial<ParamSpec>>, form: MatrixForm = 'full', stages?: StageSplit) {
    const bounded = boundedSpecs(params);
    // The search depth is a whole number (its bounds and start are checked where configs are read).
    super(Object.keys(bounded), Object.entries(bounded).map(([name, spec]) => (name === SEARCH_DEPTH ? { ...spec, integer: true } : spec)));
    params = bounded;
    this.start = stages ? splitIntoStages(start, stages) : start;
    this.form = form;
    const structured = form === 'snake' || form === 'corner' ? STRUCTURED[form] : [];
    for (const name of structured) {
      if (!(name in params)) throw new InputError(`space.params: a ${form} matrix needs "${name}" (with min, max and start)`);
      if (params[name].start === undefined) throw new InputError(`space.params.${name}: a ${form} matrix parameter needs a "start" value`);
    }
    const stageCount = this.start.stages?.list.length ?? 0;
    this.names.forEach((name, i) => {
      const stage = STAGE_PARAM.exec(name);
      const own = stage ? stage[2] : name;
      if (stage && Number(stage[1]) >= stageCount) {
        throw new InputError(`space.params: "${name}": the start weights have ${stageCount === 0 ? 'no stages' : `${stageCount} stages (0 to ${stageCount - 1})`}; split them with space.stages ({ "by": "maxTile", "at": [1024] }) or start from staged weights`);
      }
      if (stage && structured.includes(own) && this.specs[i].start === undefined) throw new InputError(`space.params.${name}: a ${form} matrix parameter needs a "start" value`);
      if (stage && structured.includes(own) && !(own in params)) throw new InputError(`space.params: "${name}" needs "${own}" too (a stage's ${form} matrix starts from the base's)`);
      if (own === LEARNED_PARAM && !this.start.learned) {
        throw new InputError(`space.params: "${name}": the start weights have no learned term (write weights with one: ${cliName()} learn export RUN --out FILE --base PRESET --weight W --weights-out WEIGHTS)`);
      }
      if (name === SEARCH_DEPTH || name === SEARCH_CPROB) return; // the search's: checked with fitness.depth and cprob (config.ts)
      const cell = MATRIX_PARAM.exec(own);
      const known = own === LEARNED_PARAM || (SCALAR_WEIGHT_NAMES as readonly string[]).includes(own) || LINE_PARAM.test(own) || structured.includes(own) || (cell && structured.length === 0);
      if (!known) {
        const matrixNames = structured.length > 0 ? structured.join(', ') : 'matrix[i][j]';
        const guess = didYouMean(own, [...SCALAR_WEIGHT_NAMES, ...structured, LEARNED_PARAM, SEARCH_DEPTH, SEARCH_CPROB]);
        throw new InputError(`space.params: unknown parameter "${name}"${guess} for a ${form} matrix (tunable: ${SCALAR_WEIGHT_NAMES.join(', ')}, ${matrixNames}, lines.<${LINE_GROUPS.join('|')}>.<weight>, learned.weight, and stages.<k>.<any of these>)`);
      }
      if (cell && form === 'symmetric' && Number(cell[1]) > Number(cell[2])) {
        throw new InputError(`space.params: "${name}" of a symmetric matrix: name the cell with i ≤ j (matrix[${cell[2]}][${cell[1]}]); it sets both`);
      }
      checkStart(name, this.specs[i], readParam(this.start, name, this.specs[i]));
    });
  }

  protected startValue(i: number): number {
    return readParam(this.start, this.names[i], this.specs[i]);
  }

  /** Full weights: the start weights with the tuned values put in (a stage's own values into that stage). */
  toWeights(genome: readonly number[], asGiven = false): Weights {
    const w = structuredClone(this.start) as Record<string, any>;
    delete w.provenance;
    const values = this.params(genome, asGiven);
    const symmetric = this.form === 'symmetric';
    for (const [name, v] of Object.entries(values)) {
      if (name === SEARCH_DEPTH || name === SEARCH_CPROB) continue; // the search's, not the weights'
      const stage = STAGE_PARAM.exec(name);
      if (stage) {
        if (!stage[2].startsWith('matrix.')) writeValue(w.stages.list[Number(stage[1])], stage[2], v, symmetric);
      } else if (!name.startsWith('matrix.')) {
        writeValue(w, name, v, symmetric);
      }
    }
    if (this.form === 'snake' || this.form === 'corner') {
      w.matrix = structuredMatrix(this.form, values);
      // A stage with structured parameters of its own gets its own matrix (the others from the base's).
      (w.stages?.list ?? []).forEach((st: Record<string, unknown>, k: number) => {
        const prefix = `stages.${k}.`;
        const own = Object.keys(values).filter((n) => n.startsWith(prefix) && n.slice(prefix.length).startsWith('matrix.'));
        if (own.length > 0) st.matrix = structuredMatrix(this.form as 'snake' | 'corner', { ...values, ...Object.fromEntries(own.map((n) => [n.slice(prefix.length), values[n]])) });
      });
    }
    w.version = Math.max(oldestVersion(w), w.version);
    return parseWeights(w, 'tuned weights');
  }
}

/** The space as weights (runs of tune2048's own heuristic); an external player's run has none. */
export function weightSpace(space: BoundedSpace): ParameterSpace {
  if (!(space instanceof ParameterSpace)) throw new InputError('this run tunes an external player: it has parameters, not weights');
  return space;
}
