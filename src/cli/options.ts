/** Parsers for command-line values; each throws an InputError naming the option. */
import { InputError } from '../util/errors';
import type { DepthSetting } from '../player/expectimax';
import { availableParallelism } from 'node:os';
import { MAX_DEPTH, MAX_THREADS } from '../player/limits';

/** A depth parser for the option `name` (--depth, or each item of --depths). */
export function depthParser(name: string) {
  return (value: string): DepthSetting => {
    if (value === 'auto') return 'auto';
    if (!/^\d+$/.test(value) || Number(value) > MAX_DEPTH) {
      throw new InputError(`${name} must be "auto" or an integer from 0 to ${MAX_DEPTH}, got "${value}"`);
    }
    return Number(value);
  };
}

export const parseDepthOption = depthParser('--depth');

export function parseIntegerOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InputError(`${name} must be an integer, got "${value}"`);
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InputError(`${name} must be from ${min} to ${max}, got ${value}`);
    return n;
  };
}

export function parseNumberOption(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
      throw new InputError(`${name} must be ${max === Number.MAX_VALUE ? (min === 0 ? 'a number, 0 or more' : `a number of at least ${min}`) : `a number from ${min} to ${max}`}, got "${value}"`);
    }
    return n;
  };
}

export function parseListOption<T>(name: string, parse: (v: string) => T) {
  return (value: string): T[] => {
    const parts = value.split(',').map((p) => p.trim());
    if (parts.some((p) => p === '')) throw new InputError(`${name} must be a comma-separated list, got "${value}"`);
    return parts.map(parse);
  };
}

export const parseSeed = parseIntegerOption('--seed', 0, 2 ** 53 - 1);

/**
 * Every seed of a range, not only its first: games seed … seed + games − 1 must stay exact integers (past
 * 2^53 − 1 two games would share a seed and the next jump by two).
 */
export function checkSeedRange(seed: number, games: number, gamesFlag = '-n'): void {
  const last = seed + (games - 1);
  if (last > Number.MAX_SAFE_INTEGER) {
    throw new InputError(`--seed ${seed} with ${gamesFlag} ${games} runs to seed ${BigInt(seed) + BigInt(games - 1)}, past 2^53 − 1 (${Number.MAX_SAFE_INTEGER}), where seeds are no longer distinct integers: use --seed ${Number.MAX_SAFE_INTEGER - games + 1} or lower`);
  }
}
export const parseCprob = parseNumberOption('--cprob', 0, 0.999999);

export const parseWorkers = parseIntegerOption('--workers', 1, 256);

/** --threads: a count, or "auto" = one per core. */
export function parseThreads(value: string): number {
  if (value === 'auto') return availableParallelism();
  return parseIntegerOption('--threads', 1, MAX_THREADS)(value);
}
export const parseRunId = parseIntegerOption('<run>', 1);
