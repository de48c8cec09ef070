/**
 * What sits on a learned network, as a tuning space: a weight per stage on the network's value at the
 * search's leaves (`stageWeight.K`), the search's cutoff (`cprob`), the depth rule's thresholds
 * (`depthRule.deeperAtEmpty`, `depthRule.shallowerAtEmpty`: empty cells, rounded) and heuristic terms added at the leaves
 * (`heuristic.<any weights parameter>`, from a start whose network player file has heuristic weights). The
 * config may leave space.params out (every stage weight, from 1/4 to 4 on a log scale); what is not tuned
 * keeps its start value (1 per stage and fitness.cprob, or a network player file's).
 */
import type { Weights } from '../../heuristic/weights';
import type { DepthRule, NetworkSettings } from '../../player/network-settings';
import { InputError } from '../../util/errors';
import { didYouMean } from '../../util/valibot-issues';
import { BoundedSpace, checkBounds, checkStart, ParameterSpace, readParam, SEARCH_DEPTH, type ParamSpec } from './space';

export interface NetworkStart {
  cprob: number;
  stageWeights: number[];
  /** One chance layer deeper or shallower by the board's empty cells (absent: the run's depth everywhere). */
  depthRule?: DepthRule;
  /** Heuristic terms added at the leaves (tune2048's weights; with stages, the root board's stage's). */
  heuristic?: Weights;
  /** Tile-downgrading's threshold (src/player/downgrade.ts), carried from the start file, not tuned. */
  downgradeAt?: number;
}

const HEURISTIC = 'heuristic.';

const STAGE_WEIGHT = /^stageWeight\.([0-7])$/;
/** The depth rule's thresholds: whole numbers of empty cells (a genome's value rounded); `off` stands for a side the rule leaves out. */
const RULE_PARAMS = {
  'depthRule.deeperAtEmpty': { field: 'deeperAtEmpty', off: -1 },
  'depthRule.shallowerAtEmpty': { field: 'shallowerAtEmpty', off: 17 },
} as const;
type RuleParam = keyof typeof RULE_PARAMS;
const DEPTH_RULE = Object.keys(RULE_PARAMS) as RuleParam[];
const isRuleParam = (name: string): name is RuleParam => name in RULE_PARAMS;

/** A rule's threshold as a parameter's value (its `off` value when the rule leaves that side out). */
function ruleValue(rule: DepthRule | undefined, name: RuleParam): number {
  return rule?.[RULE_PARAMS[name].field] ?? RULE_PARAMS[name].off;
}
const DEFAULT_STAGE_WEIGHT: ParamSpec = { min: 0.25, max: 4, scale: 'log' };

/** Every parameter name a network of `stages` stages can tune. */
export function networkParamNames(stages: number): string[] {
  return [...Array.from({ length: stages }, (_, k) => `stageWeight.${k}`), 'cprob', ...DEPTH_RULE];
}

export class NetworkSpace extends BoundedSpace {
  /** The heuristic's parameters (named without "heuristic."), after the network's in a genome; null when none is tuned. */
  private readonly heuristic: ParameterSpace | null;
  private readonly networkCount: number;

  constructor(
    readonly stages: number,
    readonly start: NetworkStart,
    params: Record<string, Partial<ParamSpec>> | undefined,
    /** The network's hash (it names the network in reports). */
    readonly sha256: string,
  ) {
    const all: Record<string, Partial<ParamSpec>> = params ?? Object.fromEntries(Array.from({ length: stages }, (_, k) => [`stageWeight.${k}`, {}]));
    const named = Object.fromEntries(Object.entries(all).filter(([n]) => !n.startsWith(HEURISTIC)));
    const heuristicParams = Object.fromEntries(Object.entries(all).flatMap(([n, p]) => (n.startsWith(HEURISTIC) ? [[n.slice(HEURISTIC.length), p]] : [])));
    let heuristic: ParameterSpace | null = null;
    if (Object.keys(heuristicParams).length > 0) {
      if (!start.heuristic) throw new InputError(`space.params: "${HEURISTIC}${Object.keys(heuristicParams)[0]}": the start has no heuristic weights to tune (space.start: a network player file with "heuristic")`);
      heuristic = new ParameterSpace(start.heuristic, heuristicParams);
    }
    const known = networkParamNames(stages);
    const specs = Object.entries(named).map(([name, given]): ParamSpec => {
      // The search depth: checked with fitness.depth where configs are read (its start put there).
      if (name === SEARCH_DEPTH) return { min: given.min!, max: given.max!, scale: 'linear', start: given.start!, integer: true };
      if (!known.includes(name)) throw new InputError(`space.params: "${name}" is not a parameter of this network${didYouMean(name, [...known, SEARCH_DEPTH])} (${known.join(', ')}, ${SEARCH_DEPTH}, or heuristic.<weight> with heuristic weights)`);
      const stage = STAGE_WEIGHT.exec(name);
      if (!stage && (given.min === undefined || given.max === undefined)) throw new InputError(`space.params.${name}: give its "min" and "max"`);
      const rule = isRuleParam(name);
      const spec: ParamSpec = { min: given.min ?? DEFAULT_STAGE_WEIGHT.min, max: given.max ?? DEFAULT_STAGE_WEIGHT.max, scale: given.scale ?? (rule ? 'linear' : 'log'), ...(given.start !== undefined ? { start: given.start } : {}) };
      if (rule && (spec.min < -1 || spec.max > 17)) throw new InputError(`space.params.${name}: [${spec.min}, ${spec.max}] must lie in [-1, 17] (empty cells; -1 or 17: the rule off)`);
      checkBounds(name, spec);
      if (stage && spec.min <= 0) throw new InputError(`space.params.${name}: a stage weight is above 0 (min ${spec.min})`);
      if (name === 'cprob' && (spec.min < 0 || spec.max >= 1)) throw new InputError(`space.params.cprob: [${spec.min}, ${spec.max}] must lie in [0, 1)`);
      checkStart(name, spec, spec.start ?? startOf(start, name));
      return spec;
    });
    super([...Object.keys(named), ...(heuristic?.names ?? []).map((n) => HEURISTIC + n)], [...specs, ...(heuristic?.specs ?? [])]);
    this.heuristic = heuristic;
    this.networkCount = specs.length;
  }

  protected startValue(i: number): number {
    if (i >= this.networkCount) return readParam(this.start.heuristic!, this.names[i].slice(HEURISTIC.length), this.specs[i]);
    return this.specs[i].start ?? startOf(this.start, this.names[i]);
  }

  /** The depth rule's tuned thresholds as the player uses them (rounded; -1 deeper or 17 shallower: off). */
  ruleParams(genome: readonly number[]): Record<string, number> {
    const rule = ruleOf(this.params(genome), this.start.depthRule);
    return Object.fromEntries(DEPTH_RULE.filter((n) => this.names.includes(n)).map((n) => [n, ruleValue(rule, n)]));
  }

  override playedParams(genome: readonly number[]): Record<string, number> {
    return { ...this.params(genome), ...this.ruleParams(genome) };
  }

  /** The settings of a genome: tuned values from it, the others from the start. */
  toSettings(genome: readonly number[], asGiven = false): NetworkStart {
    const p = this.params(genome, asGiven);
    const heuristic = this.heuristic ? this.heuristic.toWeights(genome.slice(this.networkCount), asGiven) : this.start.heuristic;
    const depthRule = ruleOf(p, this.start.depthRule);
    return { cprob: p.cprob ?? this.start.cprob, stageWeights: this.start.stageWeights.map((w, k) => p[`stageWeight.${k}`] ?? w), ...(depthRule ? { depthRule } : {}), ...(heuristic ? { heuristic } : {}), ...(this.start.downgradeAt ? { downgradeAt: this.start.downgradeAt } : {}) };
  }
}

function startOf(start: NetworkStart, name: string): number {
  const stage = STAGE_WEIGHT.exec(name);
  if (stage) return start.stageWeights[Number(stage[1])];
  return isRuleParam(name) ? ruleValue(start.depthRule, name) : start.cprob;
}

/**
 * The depth rule of tuned thresholds (rounded to whole cells; out of 0–16: that side off), the start's where
 * not tuned; a shallower threshold at or below the deeper one is off (the deeper side wins on a full board).
 */
function ruleOf(p: Record<string, number>, start: DepthRule | undefined): DepthRule | undefined {
  const deeper = Math.round(p['depthRule.deeperAtEmpty'] ?? ruleValue(start, 'depthRule.deeperAtEmpty'));
  const shallower = Math.round(p['depthRule.shallowerAtEmpty'] ?? ruleValue(start, 'depthRule.shallowerAtEmpty'));
  const rule: DepthRule = {
    ...(deeper >= 0 && deeper <= 16 ? { deeperAtEmpty: deeper } : {}),
    ...(shallower >= 0 && shallower <= 16 && (deeper < 0 || shallower > deeper) ? { shallowerAtEmpty: shallower } : {}),
  };
  return Object.keys(rule).length > 0 ? rule : undefined;
}

/** A run's start from a network player file's settings (1 per stage and `cprob` where it says nothing). */
export function networkStart(stages: number, cprob: number, settings?: Pick<NetworkSettings, 'cprob' | 'stageWeights' | 'heuristic' | 'depthRule' | 'downgradeAt'>): NetworkStart {
  return {
    cprob: settings?.cprob ?? cprob,
    stageWeights: settings?.stageWeights ? [...settings.stageWeights] : Array.from({ length: stages }, () => 1),
    ...(settings?.depthRule ? { depthRule: { ...settings.depthRule } } : {}),
    ...(settings?.heuristic ? { heuristic: settings.heuristic } : {}),
    ...(settings?.downgradeAt ? { downgradeAt: settings.downgradeAt } : {}),
  };
}
