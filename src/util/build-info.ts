/**
 * What a result was made with, for its record (compare's JSON, stored comparisons, exports, --version): the
 * package's version, the WebAssembly builds games depend on (build/search.wasm for tune2048's heuristic
 * players, build/learn.wasm for a network) and Node's version. Hashed once per process, on first use.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface BuildInfo {
  /** tune2048's version (package.json). */
  version: string;
  /** The first 12 hex digits of each module's sha256, or "missing" when it is not built. */
  searchBuild: string;
  learningBuild: string;
  node: string;
}

let cached: BuildInfo | null = null;

/** A built module's short hash, or "missing". */
function moduleHash(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(join(ROOT, 'build', file))).digest('hex').slice(0, 12);
  } catch {
    return 'missing';
  }
}

export function toolVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export function buildInfo(): BuildInfo {
  cached ??= { version: toolVersion(), searchBuild: moduleHash('search.wasm'), learningBuild: moduleHash('learn.wasm'), node: process.version };
  return cached;
}
