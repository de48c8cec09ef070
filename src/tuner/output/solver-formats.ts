/**
 * An exported result in forms any solver reads, whatever its language: `name value` lines, or a template of
 * the user's own (a C header, a command line) with `{{name}}` placeholders filled in. The names are the
 * tuner's own (empty, matrix[0][3], stageWeights[1], search.depth, an external player's parameter names);
 * every value is written as the shortest text that reads back as the same double (JavaScript's number
 * printing), so a solver parsing it with strtod gets the number tune2048 validated.
 */
import { InputError } from '../../util/errors';
import { heuristicFields, type Weights } from '../../heuristic/weights';
import { isParamsFile, type PlayerParamsFile } from '../../player/external/params-file';
import { isNetworkSettings, type NetworkSettings } from '../../player/network-settings';

/** Every number of `value` under a name: fields joined by ".", array items as [k]. */
function flatten(value: unknown, name: string, into: Map<string, number>): void {
  if (typeof value === 'number') into.set(name, value);
  else if (Array.isArray(value)) value.forEach((item, k) => flatten(item, `${name}[${k}]`, into));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) flatten(item, name === '' ? key : `${name}.${key}`, into);
}

/** The numbers an exported file holds for a solver: an external player's parameters, the weights' heuristic and search, or a network player's settings (its network itself is a file). */
export function exportedValues(file: Weights | PlayerParamsFile | NetworkSettings): Map<string, number> {
  const values = new Map<string, number>();
  if (isParamsFile(file)) flatten((file as PlayerParamsFile).params, '', values);
  else if (isNetworkSettings(file)) {
    const { format: _f, version: _v, network: _n, name: _name, provenance: _p, ...settings } = file as NetworkSettings;
    flatten(settings, '', values);
  } else {
    const weights = file as Weights;
    flatten({ ...heuristicFields(weights), ...(weights.search ? { search: weights.search } : {}) }, '', values);
  }
  return values;
}

/** `name value`, a line each, in the file's order. */
export function linesText(values: ReadonlyMap<string, number>): string {
  return [...values].map(([name, value]) => `${name} ${String(value)}\n`).join('');
}

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/**
 * `template` with each {{name}} replaced by its value. A placeholder naming no value is refused, naming the
 * names there are: a header half filled in would compile with the wrong number.
 */
export function fillTemplate(template: string, values: ReadonlyMap<string, number>, origin: string): string {
  const unknown = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((name) => !values.has(name));
  if (unknown.length > 0) throw new InputError(`${origin}: {{${unknown[0]}}} names no value of this export (it has ${[...values.keys()].join(', ')})`);
  if (!PLACEHOLDER.test(template)) throw new InputError(`${origin} has no {{name}} placeholder to fill (the names: ${[...values.keys()].join(', ')})`);
  return template.replace(PLACEHOLDER, (_, name: string) => String(values.get(name)));
}
