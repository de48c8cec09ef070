/**
 * Learned line tables through Redis. A job names weights, and weights name their learned tables by file and
 * SHA-256; another machine has no such file. So the parent stores each table's bytes once on the queue's
 * Redis under its hash, and a worker fetches the ones it lacks into a cache folder of its own (checked
 * against the hash) and plays with that copy. Workers on the parent's machine do the same: one path for all.
 */
import type IORedis from 'ioredis';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNetworkFile, sha256 } from '../learn/table-file';
import type { PlayerSpec } from '../player/spec';
import { InputError } from '../util/errors';

const tableKey = (hash: string) => `tune2048:table:${hash}`;
/** Long enough for any run to be resumed from its database within it; a resume stores the table again anyway. */
const TABLE_TTL_S = 30 * 24 * 3600;

/** The parent's side: stores the spec's learned tables on Redis (once per table and runner). */
export function tablePublisher(connection: IORedis): (spec: PlayerSpec) => Promise<void> {
  const published = new Map<string, Promise<void>>();
  return (spec) => {
    const learned = spec.kind === 'external' || spec.kind === 'network' ? undefined : spec.weights.learned;
    if (!learned) return Promise.resolve();
    let done = published.get(learned.sha256);
    if (!done) {
      done = (async () => {
        const { bytes } = readNetworkFile(learned.table, learned.sha256);
        await connection.set(tableKey(learned.sha256), bytes, 'EX', TABLE_TTL_S);
      })();
      published.set(learned.sha256, done);
    }
    return done;
  };
}

/** The worker's side: the spec with its learned tables at a local copy (fetched from Redis when missing). */
export async function withLocalTables(connection: IORedis, spec: PlayerSpec, cacheDir = join(tmpdir(), 'tune2048-tables')): Promise<PlayerSpec> {
  if (spec.kind === 'external' || spec.kind === 'network') return spec;
  const learned = spec.weights.learned;
  if (!learned) return spec;
  const path = join(cacheDir, `${learned.sha256}.bin`);
  if (!existsSync(path)) {
    const bytes = await connection.getBuffer(tableKey(learned.sha256));
    if (!bytes) throw new InputError(`the learned line tables ${learned.sha256.slice(0, 12)}… are not on the queue's Redis (expired?): resume the run to store them again`);
    if (sha256(bytes) !== learned.sha256) throw new InputError(`the learned line tables on Redis under ${learned.sha256.slice(0, 12)}… do not match their hash`);
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${path}.${process.pid}.part`;
    writeFileSync(partial, bytes);
    renameSync(partial, path); // whole or absent, even with several workers fetching at once
  }
  return { ...spec, weights: { ...spec.weights, learned: { ...learned, table: path } } };
}
