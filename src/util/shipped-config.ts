/**
 * The configs a package ships (configs/NAME.json) by name: `tune --config quick`, `learn start -c
 * learn-ntuple`, from any folder. A file of that name where the command runs comes first.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const SHIPPED = resolve(__dirname, '..', '..', 'configs');

/** `ref` itself when it is a file (or a path), else the shipped config of that name when there is one. */
export function shippedConfigPath(ref: string): string {
  if (existsSync(ref) || !/^[\w.-]+$/.test(ref)) return ref;
  const shipped = join(SHIPPED, ref.endsWith('.json') ? ref : `${ref}.json`);
  return existsSync(shipped) ? shipped : ref;
}
