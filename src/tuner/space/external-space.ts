/**
 * An external player's announced parameters as a tuning space. The config may leave space.params out (every
 * announced parameter, with its announced bounds and scale) or name some of them, narrowing their bounds;
 * the parameters not tuned keep their start values (the announced defaults, or a parameter file's).
 */
import type { Announcement } from '../../player/external/protocol';
import { InputError } from '../../util/errors';
import { BoundedSpace, checkBounds, checkStart, type ParamSpec } from './space';

export class ExternalSpace extends BoundedSpace {
  constructor(
    readonly announcement: Announcement,
    /** Every announced parameter's start value. */
    readonly start: Record<string, number>,
    params: Record<string, Partial<ParamSpec>> | undefined,
  ) {
    const named: Record<string, Partial<ParamSpec>> = params ?? Object.fromEntries(announcement.params.map((p) => [p.name, {}]));
    const specs = Object.entries(named).map(([name, given]): ParamSpec => {
      const p = announcement.params.find((q) => q.name === name);
      if (!p) throw new InputError(`space.params: "${name}" is not a parameter of the player ${announcement.name} (it announces ${announcement.params.map((q) => q.name).join(', ') || 'none'})`);
      const spec: ParamSpec = { min: given.min ?? p.min, max: given.max ?? p.max, scale: given.scale ?? p.scale, ...(given.start !== undefined ? { start: given.start } : {}) };
      if (spec.min < p.min || spec.max > p.max) throw new InputError(`space.params.${name}: [${spec.min}, ${spec.max}] reaches outside the bounds ${announcement.name} announces, [${p.min}, ${p.max}]`);
      checkBounds(name, spec);
      checkStart(name, spec, spec.start ?? start[name]);
      return spec;
    });
    if (specs.length === 0) throw new InputError(`space.params: the player ${announcement.name} announces no parameter to tune`);
    super(Object.keys(named), specs);
  }

  protected startValue(i: number): number {
    return this.specs[i].start ?? this.start[this.names[i]];
  }

  /** Every announced parameter's value for a genome: the tuned ones from it, the others from the start. */
  toParams(genome: readonly number[], asGiven = false): Record<string, number> {
    return { ...this.start, ...this.params(genome, asGiven) };
  }
}
