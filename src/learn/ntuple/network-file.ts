/**
 * The file of an n-tuple network (line-table file format version 2). Binary, beside the database: the
 * tables of the common 4×6-tuple network are 268 MB of float32, for neither SQLite nor JSON.
 *
 *   "tune2048" (8 bytes) · version u32 (2) · header length u32 · header (UTF-8 JSON: tuples, stages,
 *   promote) padded with spaces to a multiple of 4 · the tables as float32 LE, stage by stage, tuple by
 *   tuple, 16^length entries each · CRC-32 of everything before it (u32 LE)
 *
 * Version 1 is the line network of src/learn/table-file.ts; both are named by path and SHA-256 of the
 * whole file. A learning run with temporal coherence keeps its accumulators beside each checkpoint in a file
 * of the same format whose header adds `"accumulators": true` and whose tables are twice as long (each
 * entry's E and A, side by side): a file for resuming a run, not a network, and refused as one. A file is
 * written to a temporary name in the same folder and renamed, so the final name never holds a half-written
 * file (a full disk leaves the previous file as it was).
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { cliName } from '../../util/command-hint';
import { describeFsError, InputError } from '../../util/errors';
import { temporaryFor } from '../../util/temp-file';
import { checkShape, describeShape, networkEntries, sameShape, tableEntries, type NetworkShape } from './shape';

const MAGIC = 'tune2048';
export const NETWORK_FILE_VERSION = 2;
/** No entry may exceed this in magnitude (a network's value of a board is a sum of 8·tuples of them). */
export const MAX_ENTRY = 1e9;

export function encodeHeader(shape: NetworkShape, accumulators = false): Buffer {
  let json = JSON.stringify({ tuples: shape.tuples, stages: shape.stages, promote: shape.promote, ...(accumulators ? { accumulators: true } : {}) });
  while (json.length % 4 !== 0) json += ' ';
  const out = Buffer.alloc(16 + json.length);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(NETWORK_FILE_VERSION, 8);
  out.writeUInt32LE(json.length, 12);
  out.write(json, 16, 'utf8');
  return out;
}

/** The expected size of a network file of this shape. */
export function networkFileBytes(shape: NetworkShape): number {
  return encodeHeader(shape).length + networkEntries(shape) * 4 + 4;
}

/**
 * Writes the tables (in file order) atomically; returns the file's SHA-256. Streams from the tables as
 * they are (a view of the WebAssembly memory: no copy of 268 MB).
 */
export function writeNetworkFile(path: string, shape: NetworkShape, tables: readonly Float32Array[]): string {
  return writeTables(path, encodeHeader(shape), tables, 'network file');
}

/** Writes a learning run's temporal coherence accumulators (per table, its entries' (E, A) pairs) atomically; returns the SHA-256. */
export function writeAccumulatorsFile(path: string, shape: NetworkShape, accumulators: readonly Float32Array[]): string {
  return writeTables(path, encodeHeader(shape, true), accumulators, 'accumulators file');
}

/** Writes raw float32 tables (another program's layout, no header or checksum) atomically; returns the SHA-256. */
export function writeRawTables(path: string, tables: readonly Float32Array[], what: string): string {
  return writeTables(path, null, tables, what);
}

/**
 * A file's pieces in order (header, the tables in chunks of 16 MiB — crc32 and the hash take at most
 * 2 GiB at once, and memory stays flat — then the CRC-32 tail), each fed to the SHA-256 and CRC as it goes.
 */
function* filePieces(header: Buffer | null, tables: readonly Float32Array[], hash: Hash): Generator<Uint8Array> {
  let crc = 0;
  const piece = (bytes: Uint8Array) => {
    hash.update(bytes);
    crc = crc32(bytes, crc);
    return bytes;
  };
  if (header) yield piece(header);
  for (const t of tables) {
    const bytes = new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
    for (let k = 0; k < bytes.length; k += 1 << 24) yield piece(bytes.subarray(k, Math.min(bytes.length, k + (1 << 24))));
  }
  if (header) {
    const tail = Buffer.alloc(4);
    tail.writeUInt32LE(crc >>> 0);
    hash.update(tail);
    yield tail;
  }
}

function writeFailure(what: string, path: string, e: unknown): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  return new InputError(`cannot write ${what} "${path}": ${code === 'ENOSPC' ? 'the disk is full' : describeFsError(e)}`);
}

function writeTables(path: string, header: Buffer | null, tables: readonly Float32Array[], what: string): string {
  const { tmp, release } = temporaryFor(path);
  const hash = createHash('sha256');
  let fd: number | null = null;
  try {
    fd = openSync(tmp, 'w');
    for (const bytes of filePieces(header, tables, hash)) for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    throw writeFailure(what, path, e);
  } finally {
    release();
  }
  return hash.digest('hex');
}

/**
 * Writes `pieces` to `path` whole or not at all without holding the thread (the writes and the fsync go to
 * libuv's pool; the event loop runs between pieces): a temporary file, then rename. `beforeRename` may refuse
 * what was written by throwing. An InputError passes as it is; any other failure is one line naming the file.
 */
async function writeWhole(path: string, what: string, pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, beforeRename?: () => void): Promise<void> {
  const { tmp, release } = temporaryFor(path);
  let file: FileHandle | null = null;
  try {
    file = await open(tmp, 'w');
    // Each piece is written whole before the next is asked for (a reader may reuse its buffer).
    for await (const bytes of pieces) for (let done = 0; done < bytes.length; ) done += (await file.write(bytes, done, bytes.length - done)).bytesWritten;
    beforeRename?.();
    await file.sync();
    await file.close();
    file = null;
    await rename(tmp, path);
  } catch (e) {
    await file?.close().catch(() => {});
    await rm(tmp, { force: true });
    throw e instanceof InputError ? e : writeFailure(what, path, e);
  } finally {
    release();
  }
}

/** writeTables in the background (a checkpoint written while the next games train: network-run.ts). */
async function writeTablesAsync(path: string, header: Buffer | null, tables: readonly Float32Array[], what: string): Promise<string> {
  const hash = createHash('sha256');
  await writeWhole(path, what, filePieces(header, tables, hash));
  return hash.digest('hex');
}

/** writeNetworkFile and writeAccumulatorsFile in the background (see writeTablesAsync). */
export function writeNetworkFileAsync(path: string, shape: NetworkShape, tables: readonly Float32Array[]): Promise<string> {
  return writeTablesAsync(path, encodeHeader(shape), tables, 'network file');
}

export function writeAccumulatorsFileAsync(path: string, shape: NetworkShape, accumulators: readonly Float32Array[]): Promise<string> {
  return writeTablesAsync(path, encodeHeader(shape, true), accumulators, 'accumulators file');
}

export interface NetworkFile {
  shape: NetworkShape;
  /** The float32 tables in file order: copy them where they are needed (into WebAssembly memory). */
  tables: Float32Array[];
  sha256: string;
}

/** The shape of a network file, from its header alone (to lay out memory before reading 268 MB). */
export function readNetworkShape(path: string): NetworkShape {
  const fd = openFile(path);
  try {
    const head = Buffer.alloc(16);
    readSync(fd, head, 0, 16, 0);
    const length = checkPreamble(head, path, statSync(path).size);
    const json = Buffer.alloc(length);
    readSync(fd, json, 0, length, 16);
    return parseHeader(json, path);
  } finally {
    closeSync(fd);
  }
}

/** Opens a file of tables for reading (`what` names it in the one-line errors). */
export function openFile(path: string, what = 'network file'): number {
  try {
    // (Linux opens a folder for reading; its first read would fail with a raw EISDIR.)
    if (statSync(path).isDirectory()) throw new InputError(`"${path}" is a folder, not a ${what}`);
    return openSync(path, 'r');
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read ${what} "${path}": ${describeFsError(e)}`);
  }
}

function checkPreamble(head: Buffer, path: string, size: number): number {
  if (size < 20 || head.toString('latin1', 0, 8) !== MAGIC) throw new InputError(`"${path}" is not a tune2048 network file (it does not start with "${MAGIC}")`);
  const version = head.readUInt32LE(8);
  if (version > NETWORK_FILE_VERSION) throw new InputError(`network file "${path}" has format version ${version}, newer than this tune2048 reads (${NETWORK_FILE_VERSION}); upgrade tune2048`);
  if (version !== NETWORK_FILE_VERSION) throw new InputError(`"${path}" is a line-table file (format version ${version}), not an n-tuple network file`);
  const length = head.readUInt32LE(12);
  if (16 + length > size) throw new InputError(`network file "${path}" is truncated (its header says ${length} bytes of shape)`);
  return length;
}

function parseHeader(json: Buffer, path: string, accumulators = false): NetworkShape {
  let header: NetworkShape & { accumulators?: boolean };
  try {
    header = JSON.parse(json.toString('utf8')) as NetworkShape & { accumulators?: boolean };
  } catch {
    throw new InputError(`network file "${path}": its header is not JSON (a damaged file)`);
  }
  if (header.accumulators === true && !accumulators) throw new InputError(`"${path}" holds a learning run's temporal coherence accumulators (for resuming it), not a network: use the run's network file (${cliName()} learn export RUN --out FILE writes it)`);
  if (header.accumulators !== true && accumulators) throw new InputError(`"${path}" is a network file, not a learning run's temporal coherence accumulators`);
  const shape: NetworkShape = { tuples: header.tuples, stages: header.stages, promote: header.promote };
  checkShape(shape, `network file "${path}"`);
  return shape;
}

/**
 * Reads and checks a whole network file: its shape, its size, the CRC, every entry finite and within
 * ±MAX_ENTRY. `into`, when given, receives the tables (views into WebAssembly memory) instead of new arrays.
 */
export function readNetworkFile(path: string, into?: (shape: NetworkShape) => Float32Array[]): NetworkFile {
  return readTables(path, into ?? tablesOf, false);
}

/**
 * Reads and checks a learning run's accumulators file (every entry finite) into `into` (the machine's
 * accumulator pairs, table by table); returns the file's SHA-256. `shape` is the run's: a file of another is refused.
 */
export function readAccumulatorsFile(path: string, shape: NetworkShape, into: Float32Array[], origin: string): string {
  return readTables(
    path,
    (found) => {
      if (!sameShape(found, shape)) throw new InputError(`${origin} holds accumulators of another network shape`);
      return into;
    },
    true,
  ).sha256;
}

function readTables(path: string, into: (shape: NetworkShape) => Float32Array[], accumulators: boolean): NetworkFile {
  const fd = openFile(path);
  try {
    const size = statSync(path).size;
    const head = Buffer.alloc(16);
    readSync(fd, head, 0, 16, 0);
    const length = checkPreamble(head, path, size);
    const json = Buffer.alloc(length);
    readSync(fd, json, 0, length, 16);
    const shape = parseHeader(json, path, accumulators);
    const expected = 16 + length + (accumulators ? 2 : 1) * networkEntries(shape) * 4 + 4;
    if (size !== expected) throw new InputError(`network file "${path}" is ${size} bytes; its shape (${describeShape(shape)}) needs ${expected}: truncated or of another shape`);
    const hash = createHash('sha256');
    hash.update(head);
    hash.update(json);
    let crc = crc32(json, crc32(head));
    const tables = into(shape);
    // An entry of a network is bounded (values are sums of them); an accumulator (a sum of errors) need only be finite.
    const bound = accumulators ? Number.MAX_VALUE : MAX_ENTRY;
    let position = 16 + length;
    tables.forEach((t, k) => {
      const bytes = new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
      for (let done = 0; done < bytes.length; ) {
        const n = readSync(fd, bytes, done, Math.min(1 << 24, bytes.length - done), position);
        if (n === 0) throw new InputError(`network file "${path}" is truncated`);
        hash.update(bytes.subarray(done, done + n));
        crc = crc32(bytes.subarray(done, done + n), crc);
        done += n;
        position += n;
      }
      for (let i = 0; i < t.length; i++) {
        const x = t[i];
        if (!(Math.abs(x) <= bound)) throw new InputError(`network file "${path}": table ${k} entry ${i} is ${x}; entries must be finite${accumulators ? '' : ` and within ±${MAX_ENTRY.toExponential(0)}`}`);
      }
    });
    const tail = Buffer.alloc(4);
    readSync(fd, tail, 0, 4, position);
    hash.update(tail);
    if (tail.readUInt32LE(0) !== crc >>> 0) throw new InputError(`network file "${path}" fails its checksum (CRC-32): the file is damaged`);
    return { shape, tables, sha256: hash.digest('hex') };
  } finally {
    closeSync(fd);
  }
}

/**
 * A whole network file checked as a player is about to use it (its shape, its size, its CRC), without
 * loading its tables: one streaming pass, which also gives the SHA-256 the file is named by. A command
 * checks every network it was given this way before it plays a game.
 */
export function checkNetworkFile(path: string): { shape: NetworkShape; sha256: string } {
  const shape = readNetworkShape(path);
  const expected = networkFileBytes(shape);
  const size = statSync(path).size;
  if (size !== expected) throw new InputError(`network file "${path}" is ${size} bytes; its shape (${describeShape(shape)}) needs ${expected}: truncated or of another shape`);
  const fd = openFile(path);
  const hash = createHash('sha256');
  let crc = 0;
  try {
    const chunk = Buffer.alloc(1 << 24);
    let position = 0;
    for (let n; position < size - 4 && (n = readSync(fd, chunk, 0, Math.min(chunk.length, size - 4 - position), position)) > 0; position += n) {
      hash.update(chunk.subarray(0, n));
      crc = crc32(chunk.subarray(0, n), crc);
    }
    const tail = Buffer.alloc(4);
    if (position !== size - 4 || readSync(fd, tail, 0, 4, position) !== 4) throw new InputError(`network file "${path}" is truncated`);
    hash.update(tail);
    if (tail.readUInt32LE(0) !== crc >>> 0) throw new InputError(`network file "${path}" fails its checksum (CRC-32): the file is damaged`);
  } finally {
    closeSync(fd);
  }
  return { shape, sha256: hash.digest('hex') };
}

function tablesOf(shape: NetworkShape): Float32Array[] {
  return shape.stages.flatMap(() => shape.tuples.map((cells) => new Float32Array(tableEntries(cells))));
}

/** The SHA-256 of a whole file, read 16 MiB at a time (a missing file says so in one line). */
export function fileHash(path: string, what = 'network file'): string {
  const fd = openFile(path, what);
  try {
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(1 << 24);
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** A checkpoint's network file whose hash is not the one its checkpoint stored. */
function notStored(path: string, found: string, stored: string): InputError {
  return new InputError(`network file "${path}" is not the one its checkpoint stored (sha256 ${found.slice(0, 12)}…, stored ${stored.slice(0, 12)}…)`);
}

/** A checkpoint's network file, read and checked whole against the `sha256` its checkpoint stored. */
export function readStoredNetworkFile(path: string, sha256: string): NetworkFile {
  const file = readNetworkFile(path);
  if (file.sha256 !== sha256) throw notStored(path, file.sha256, sha256);
  return file;
}

/**
 * Copies a stored network file to `to`, atomically, checked whole against `sha256` as it streams (16 MiB
 * at a time: a 1 GB network needs no 1 GB buffer, and Ctrl-C is heard between chunks; a file that is not
 * the stored one leaves nothing). Returns the hash.
 */
export async function copyNetworkFile(from: string, to: string, sha256: string): Promise<string> {
  readNetworkShape(from); // a network file of a known version, or one line saying what it is
  const hash = createHash('sha256');
  let sum = '';
  await writeWhole(to, 'network file', chunksOf(from, hash), () => {
    sum = hash.digest('hex');
    if (sum !== sha256) throw notStored(from, sum, sha256);
  });
  return sum;
}

/** A file's bytes, 16 MiB at a time in one reused buffer, each fed to `hash`. */
async function* chunksOf(path: string, hash: Hash): AsyncGenerator<Uint8Array> {
  const source = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 24);
    for (;;) {
      const { bytesRead } = await source.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return;
      const bytes = chunk.subarray(0, bytesRead);
      hash.update(bytes);
      yield bytes;
    }
  } finally {
    await source.close();
  }
}
