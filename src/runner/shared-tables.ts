/**
 * Learned tables through Redis: line tables (named by weights) and n-tuple networks (named by a network
 * player). A job names them by file and SHA-256; another machine has no such file. So the parent stores
 * each one's bytes once on the queue's Redis under its hash, and a worker fetches the ones it lacks into a
 * cache folder of its own (checked against the hash) and plays with that copy. Workers on the parent's
 * machine do the same: one path for all.
 *
 * A network is hundreds of MB and a Redis string holds at most 512 MB, so it travels in chunks
 * (`…:network:HASH:K`), the chunk count and size last (`…:network:HASH`): a network whose meta key is there
 * is whole.
 */
import type IORedis from 'ioredis';
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readNetworkFile, sha256 } from '../learn/table-file';
import type { PlayerSpec } from '../player/spec';
import { temporaryFor } from '../util/temp-file';
import { InputError } from '../util/errors';

const tableKey = (hash: string) => `tune2048:table:${hash}`;
/** Long enough for any run to be resumed from its database within it; a resume stores the table again anyway. */
const TABLE_TTL_S = 30 * 24 * 3600;

const networkKey = (hash: string) => `tune2048:network:${hash}`;
/** 64 MiB: far below Redis's 512 MB string limit and its default client buffer limits. */
const NETWORK_CHUNK_BYTES = 64 * 2 ** 20;

/** Does a spec need tables shipped to remote workers? */
export function needsTables(spec: PlayerSpec): boolean {
  return spec.kind === 'network' || (spec.kind !== 'external' && spec.weights.learned !== undefined);
}

/** The parent's side: stores the spec's learned tables or network on Redis (once per hash and runner). */
export function tablePublisher(connection: IORedis, chunkBytes = NETWORK_CHUNK_BYTES): (spec: PlayerSpec) => Promise<void> {
  const published = new Map<string, Promise<void>>();
  const once = (hash: string, publish: () => Promise<void>) => {
    let done = published.get(hash);
    if (!done) {
      done = publish();
      published.set(hash, done);
    }
    return done;
  };
  return (spec) => {
    if (spec.kind === 'network') return once(spec.network.sha256, () => publishNetwork(connection, spec.network, chunkBytes));
    const learned = spec.kind === 'external' ? undefined : spec.weights.learned;
    if (!learned) return Promise.resolve();
    return once(learned.sha256, async () => {
      const { bytes } = readNetworkFile(learned.table, learned.sha256);
      await connection.set(tableKey(learned.sha256), bytes, 'EX', TABLE_TTL_S);
    });
  };
}

/** A network file's chunks, then its meta key, each checked against the hash while read (the file may have changed since). */
async function publishNetwork(connection: IORedis, network: { file: string; sha256: string }, chunkBytes: number): Promise<void> {
  const meta = networkKey(network.sha256);
  if ((await connection.expire(meta, TABLE_TTL_S)) === 1) {
    // Already there (another run's, or an earlier resume's): keep every chunk as long as the meta key.
    const { chunks } = JSON.parse((await connection.get(meta)) ?? '{"chunks":0}') as { chunks: number };
    for (let k = 0; k < chunks; k++) await connection.expire(`${meta}:${k}`, TABLE_TTL_S);
    return;
  }
  const hash = createHash('sha256');
  const fd = openSync(network.file, 'r');
  let bytes = 0;
  let chunks = 0;
  try {
    const buffer = Buffer.alloc(chunkBytes);
    for (let n; (n = readFull(fd, buffer)) > 0; chunks++) {
      const chunk = buffer.subarray(0, n);
      hash.update(chunk);
      bytes += n;
      await connection.set(`${meta}:${chunks}`, chunk, 'EX', TABLE_TTL_S);
    }
  } finally {
    closeSync(fd);
  }
  if (hash.digest('hex') !== network.sha256) throw new InputError(`network file "${network.file}" changed since it was named (its SHA-256 is no longer ${network.sha256.slice(0, 12)}…)`);
  await connection.set(meta, JSON.stringify({ bytes, chunks }), 'EX', TABLE_TTL_S);
}

/** Reads until the buffer is full or the file ends. */
function readFull(fd: number, buffer: Buffer): number {
  let at = 0;
  for (let n; at < buffer.length && (n = readSync(fd, buffer, at, buffer.length - at, null)) > 0; ) at += n;
  return at;
}

const fetching = new Map<string, Promise<string>>();

/** The worker's side: a network's file in the cache folder, fetched chunk by chunk when missing (progress on stderr). */
function localNetwork(connection: IORedis, hash: string, cacheDir: string): Promise<string> {
  const path = join(cacheDir, `${hash}.network.bin`);
  if (existsSync(path)) return Promise.resolve(path);
  let done = fetching.get(hash);
  if (!done) {
    done = fetchNetwork(connection, hash, path).finally(() => fetching.delete(hash));
    fetching.set(hash, done);
  }
  return done;
}

/** The bytes of a network stored on Redis under its hash (null: not there). */
export async function networkBytesOnRedis(connection: IORedis, hash: string): Promise<number | null> {
  const metaText = await connection.get(networkKey(hash));
  return metaText ? (JSON.parse(metaText) as { bytes: number }).bytes : null;
}

async function fetchNetwork(connection: IORedis, hash: string, path: string): Promise<string> {
  const metaText = await connection.get(networkKey(hash));
  if (!metaText) throw new InputError(`the network ${hash.slice(0, 12)}… is not on the queue's Redis (expired?): start the command again to store it`);
  const { bytes, chunks } = JSON.parse(metaText) as { bytes: number; chunks: number };
  mkdirSync(dirname(path), { recursive: true });
  const { tmp: partial, release } = temporaryFor(path);
  try {
    const fd = openSync(partial, 'w');
    const sha = createHash('sha256');
    let got = 0;
    try {
      for (let k = 0; k < chunks; k++) {
        const chunk = await connection.getBuffer(`${networkKey(hash)}:${k}`);
        if (!chunk) throw new InputError(`the network ${hash.slice(0, 12)}… on the queue's Redis lacks its chunk ${k + 1} of ${chunks} (expired?): start the command again to store it`);
        sha.update(chunk);
        writeSync(fd, chunk);
        got += chunk.length;
        console.error(`fetching network ${hash.slice(0, 12)}…: ${(got / 2 ** 20).toFixed(0)} of ${(bytes / 2 ** 20).toFixed(0)} MiB`);
      }
    } catch (e) {
      closeSync(fd);
      rmSync(partial, { force: true });
      throw e;
    }
    closeSync(fd);
    if (got !== bytes || sha.digest('hex') !== hash) {
      rmSync(partial, { force: true });
      throw new InputError(`the network on Redis under ${hash.slice(0, 12)}… does not match its hash`);
    }
    renameSync(partial, path); // whole or absent, even with several workers fetching at once
    return path;
  } finally {
    release();
  }
}

/** The worker's side: the spec with its learned tables at a local copy (fetched from Redis when missing). */
export async function withLocalTables(connection: IORedis, spec: PlayerSpec, cacheDir = join(tmpdir(), 'tune2048-tables')): Promise<PlayerSpec> {
  if (spec.kind === 'network') return { ...spec, network: { ...spec.network, file: await localNetwork(connection, spec.network.sha256, cacheDir) } };
  if (spec.kind === 'external') return spec;
  const learned = spec.weights.learned;
  if (!learned) return spec;
  const path = join(cacheDir, `${learned.sha256}.bin`);
  if (!existsSync(path)) {
    const bytes = await connection.getBuffer(tableKey(learned.sha256));
    if (!bytes) throw new InputError(`the learned line tables ${learned.sha256.slice(0, 12)}… are not on the queue's Redis (expired?): resume the run to store them again`);
    if (sha256(bytes) !== learned.sha256) throw new InputError(`the learned line tables on Redis under ${learned.sha256.slice(0, 12)}… do not match their hash`);
    mkdirSync(cacheDir, { recursive: true });
    const { tmp: partial, release } = temporaryFor(path);
    try {
      writeFileSync(partial, bytes);
      renameSync(partial, path); // whole or absent, even with several workers fetching at once
    } catch (e) {
      rmSync(partial, { force: true });
      throw e;
    } finally {
      release();
    }
  }
  return { ...spec, weights: { ...spec.weights, learned: { ...learned, table: path } } };
}
