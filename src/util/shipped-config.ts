/**
 * The configs a package ships (configs/NAME.json) by name: `tune --config quick`, `learn start -c
 * learn-ntuple`, from any folder. A file of that name where the command runs comes first.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from './errors';
import { didYouMean } from './valibot-issues';

const SHIPPED = resolve(__dirname, '..', '..', 'configs');

/**
 * `ref` itself when it is a file (or a path), else the shipped config of that name. A bare name that is
 * neither is refused, listing the shipped configs of the command's kind (learning configs are "learn-*").
 */
export function shippedConfigPath(ref: string, kind: 'tuning' | 'learning'): string {
  if (existsSync(ref) || !/^[\w.-]+$/.test(ref)) return ref;
  const shipped = join(SHIPPED, ref.endsWith('.json') ? ref : `${ref}.json`);
  if (existsSync(shipped)) return shipped;
  const names = shippedConfigs(kind);
  const guess = didYouMean(ref.replace(/\.json$/, ''), names);
  throw new InputError(`no config file "${ref}" here and no shipped ${kind} config of that name${guess || ` (shipped: ${names.join(', ')})`}`);
}

/** The names of the shipped configs of a kind. */
export function shippedConfigs(kind: 'tuning' | 'learning'): string[] {
  return readdirSync(SHIPPED)
    .filter((f) => f.endsWith('.json') && f.startsWith('learn-') === (kind === 'learning'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}
