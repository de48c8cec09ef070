/**
 * The file of a learned line network, and where players find one.
 *
 * File: "tune2048" (8 bytes), the format version (uint32 LE, 1), the number of tables (2: outer, inner), the
 * entries per table (65,536), then the tables as float32 LE: 20 + 524,288 bytes. Binary because the tables
 * are half a megabyte of floats (2.5 MB as JSON text) and a weights file names them by path and SHA-256.
 *
 * Weights name a network by its file and hash; a player finds the network by the hash (`networkFor`):
 * in a registry filled by whoever got the bytes (the browser viewer from the server, a Redis worker from the
 * queue), else from the file (local worker processes share the parent's disk). A file whose bytes no longer
 * match the hash is refused, so a retrained table can never pass for the one a result was measured with.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ROW_COUNT } from '../engine/tables';
import { describeFsError, InputError } from '../util/errors';
import { NETWORK_TABLES, type LineNetwork } from './line-network';

const MAGIC = 'tune2048';
export const TABLE_FILE_VERSION = 1;
const HEADER_BYTES = 20;
export const TABLE_FILE_BYTES = HEADER_BYTES + NETWORK_TABLES.length * ROW_COUNT * 4;
/** No entry may exceed this in magnitude: 16 reads of it, times any sane weight, stay far inside the heuristic's limit. */
export const MAX_TABLE_ENTRY = 1e9;

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

// DataView rather than Buffer: the browser viewer decodes these files too.
export function encodeNetwork(net: LineNetwork): Uint8Array {
  const out = new Uint8Array(TABLE_FILE_BYTES);
  const view = new DataView(out.buffer);
  for (let k = 0; k < MAGIC.length; k++) out[k] = MAGIC.charCodeAt(k);
  view.setUint32(8, TABLE_FILE_VERSION, true);
  view.setUint32(12, NETWORK_TABLES.length, true);
  view.setUint32(16, ROW_COUNT, true);
  NETWORK_TABLES.forEach((name, k) => {
    const t = net[name];
    for (let i = 0; i < ROW_COUNT; i++) view.setFloat32(HEADER_BYTES + 4 * (k * ROW_COUNT + i), t[i], true);
  });
  return out;
}

/** The network in a file's bytes; one line naming `origin` and what is wrong otherwise. */
export function decodeNetwork(bytes: Uint8Array, origin: string): LineNetwork {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, MAGIC.length));
  if (bytes.length < HEADER_BYTES || magic !== MAGIC) throw new InputError(`${origin}: not a tune2048 line-table file (it does not start with "${MAGIC}")`);
  const version = view.getUint32(8, true);
  if (version > TABLE_FILE_VERSION) throw new InputError(`${origin}: line-table format version ${version} is newer than this tune2048 understands (${TABLE_FILE_VERSION}); upgrade tune2048`);
  if (version < 1) throw new InputError(`${origin}: line-table format version ${version} is not valid`);
  const tables = view.getUint32(12, true);
  const entries = view.getUint32(16, true);
  if (tables !== NETWORK_TABLES.length || entries !== ROW_COUNT) throw new InputError(`${origin}: holds ${tables} tables of ${entries} entries; a line network is ${NETWORK_TABLES.length} tables (${NETWORK_TABLES.join(', ')}) of ${ROW_COUNT}`);
  if (bytes.length !== TABLE_FILE_BYTES) throw new InputError(`${origin}: is ${bytes.length} bytes; a line-table file is ${TABLE_FILE_BYTES} (truncated or padded)`);
  const net: LineNetwork = { outer: new Float32Array(ROW_COUNT), inner: new Float32Array(ROW_COUNT) };
  NETWORK_TABLES.forEach((name, k) => {
    const t = net[name];
    for (let i = 0; i < ROW_COUNT; i++) {
      const x = view.getFloat32(HEADER_BYTES + 4 * (k * ROW_COUNT + i), true);
      if (!Number.isFinite(x) || Math.abs(x) > MAX_TABLE_ENTRY) {
        throw new InputError(`${origin}: table "${name}" entry ${i} (0x${i.toString(16).padStart(4, '0')}) is ${x}; entries must be finite and within ±${MAX_TABLE_ENTRY.toExponential(0)}`);
      }
      t[i] = x;
    }
  });
  return net;
}

const registry = new Map<string, LineNetwork>();

/**
 * Makes a network known by its hash, for players that cannot read its file. The caller hashed the bytes
 * (Node: sha256 here; the browser: crypto.subtle, which is asynchronous).
 */
export function registerNetwork(hash: string, bytes: Uint8Array, origin: string): void {
  if (!registry.has(hash)) registry.set(hash, decodeNetwork(bytes, origin));
}

/** Reads a line-table file and checks it is the one `hash` names (when given). */
export function readNetworkFile(path: string, hash?: string): { net: LineNetwork; hash: string; bytes: Buffer } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new InputError(`cannot read line-table file "${path}": ${describeFsError(e)}`);
  }
  const actual = sha256(bytes);
  if (hash !== undefined && actual !== hash) {
    throw new InputError(`line-table file "${path}" is not the one the weights name (sha256 ${actual.slice(0, 12)}…, weights say ${hash.slice(0, 12)}…): was it trained again? Export the weights again with it`);
  }
  return { net: registry.get(actual) ?? decodeNetwork(bytes, `line-table file "${path}"`), hash: actual, bytes };
}

/** The network a weight set names: from the registry by its hash, else from its file (checked against the hash). */
export function networkFor(ref: { table: string; sha256: string }): LineNetwork {
  const known = registry.get(ref.sha256);
  if (known) return known;
  const { net } = readNetworkFile(ref.table, ref.sha256);
  registry.set(ref.sha256, net);
  return net;
}
