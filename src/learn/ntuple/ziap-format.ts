/**
 * ziap/2048-tdl's weight files (github.com/ziap/2048-tdl, `STRUCTURE/weights.bin`), in and out.
 *
 * A ziap file is the tables of one network, nothing else: for each tuple of its structure in order, 16^n
 * float32 little-endian entries, one stage. A ziap tuple is a set of cells (k = 4·row + column) listed in
 * ascending order; its index reads the first cell as the most significant hex digit (ziap's board keeps
 * cell 0 in its top nibble and takes the index with `pext`). tune2048's index reads a tuple's first cell as
 * the least significant digit (shape.ts). Both sum a tuple's entries over the 8 symmetric boards, so a
 * network keeps its values when each table's index digits are permuted to the other program's order.
 *
 * ziap's structures (its src/network/tuplenet.h) are data here: each is the tuples' cells and the file's
 * size follows from them, so a file of another structure's size is named as that structure.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { InputError } from '../../util/errors';
import { MAX_ENTRY, openFile } from './network-file';
import { ONE_STAGE, tableEntries, type NetworkShape } from './shape';

/** ziap's structures, by the names its makefile takes (STRUCTURE=…), tuples in its order, cells ascending. */
export const ZIAP_STRUCTURES: Readonly<Record<string, readonly (readonly number[])[]>> = {
  nw5x4: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [1, 2, 5, 6], [5, 6, 9, 10]],
  nw4x5: [[0, 1, 2, 3, 4], [4, 5, 6, 7, 8], [0, 1, 2, 4, 5], [4, 5, 6, 8, 9]],
  nw6x5: [[0, 1, 2, 3, 4], [4, 5, 6, 7, 8], [8, 9, 10, 11, 12], [0, 1, 2, 4, 5], [4, 5, 6, 8, 9], [8, 9, 10, 12, 13]],
  nw4x6: [[0, 1, 2, 3, 4, 5], [4, 5, 6, 7, 8, 9], [0, 1, 2, 4, 5, 6], [4, 5, 6, 8, 9, 10]],
  nw5x6: [[0, 1, 2, 3, 4, 5], [4, 5, 6, 7, 8, 9], [8, 9, 10, 11, 12, 13], [0, 1, 2, 4, 5, 6], [4, 5, 6, 8, 9, 10]],
  nw8x6: [
    [0, 1, 2, 4, 5, 6],
    [1, 2, 5, 6, 9, 13],
    [0, 1, 2, 3, 4, 5],
    [0, 1, 5, 6, 7, 10],
    [0, 1, 2, 5, 9, 10],
    [0, 1, 5, 9, 13, 14],
    [0, 1, 5, 8, 9, 13],
    [0, 1, 2, 4, 6, 10],
  ],
};

export function ziapFileBytes(tuples: readonly (readonly number[])[]): number {
  return tuples.reduce((sum, cells) => sum + tableEntries(cells), 0) * 4;
}

function structureNamed(name: string): readonly (readonly number[])[] {
  const tuples = ZIAP_STRUCTURES[name];
  if (!tuples) throw new InputError(`--structure: "${name}" is not one of ziap/2048-tdl's structures (${Object.keys(ZIAP_STRUCTURES).join(', ')})`);
  return tuples;
}

/**
 * For a tuple's cells in tune2048's order and the same cells in ziap's (ascending), the tune2048 index of
 * each ziap index: ziap digit i (from the top) is cell ziap[i], tune2048 digit j (from the bottom) is cell ours[j].
 */
export function ziapToTune2048Index(ours: readonly number[], ziap: readonly number[]): Uint32Array {
  const n = ziap.length;
  // The weight of ziap's digit i (from the top) in tune2048's index.
  const weight = ziap.map((cell) => 16 ** ours.indexOf(cell));
  const map = new Uint32Array(16 ** n);
  for (let z = 0; z < map.length; z++) {
    let t = 0;
    for (let i = 0; i < n; i++) t += ((z >>> (4 * (n - 1 - i))) & 15) * weight[i];
    map[z] = t;
  }
  return map;
}

/** The tune2048 shape of a ziap structure: its tuples as ziap lists them, one stage. */
export function ziapShape(structure: string): NetworkShape {
  return { tuples: structureNamed(structure).map((t) => [...t]), stages: ONE_STAGE, promote: true };
}

/** The structure whose file has `size` bytes (their sizes all differ), or null. */
export function ziapStructureOfSize(size: number): string | null {
  return Object.keys(ZIAP_STRUCTURES).find((name) => ziapFileBytes(ZIAP_STRUCTURES[name]) === size) ?? null;
}

/**
 * Reads a ziap weights file into tune2048 tables (one per tuple, tune2048's index order): of `structure`, or
 * (undefined) of the structure its size names. Every entry must be finite and within ±MAX_ENTRY, as a
 * network file's.
 */
export function readZiapWeights(path: string, structure?: string): { structure: string; shape: NetworkShape; tables: Float32Array[] } {
  if (structure !== undefined) structureNamed(structure); // a bad name before the file
  const fd = openFile(path, 'ziap weights file');
  try {
    const size = fstatSync(fd).size;
    const bySize = ziapStructureOfSize(size);
    if (structure === undefined && bySize === null) {
      const sizes = Object.keys(ZIAP_STRUCTURES).map((name) => `${name} ${ziapFileBytes(ZIAP_STRUCTURES[name])}`).join(', ');
      throw new InputError(`ziap weights file "${path}" is ${size} bytes, the size of none of ziap/2048-tdl's structures (${sizes}): truncated, or not a ziap weights file`);
    }
    structure ??= bySize!;
    const shape = ziapShape(structure);
    const expected = ziapFileBytes(shape.tuples);
    if (size !== expected) {
      throw new InputError(
        `ziap weights file "${path}" is ${size} bytes; structure ${structure} needs ${expected}` +
          (bySize ? `: it is the size of ${bySize} (leave --structure out, or give ${bySize})` : ': truncated, or not a ziap/2048-tdl weights file'),
      );
    }
    let position = 0;
    const tables = shape.tuples.map((cells, k) => {
      const raw = new Float32Array(tableEntries(cells));
      const bytes = new Uint8Array(raw.buffer);
      for (let done = 0; done < bytes.length; ) {
        const n = readSync(fd, bytes, done, Math.min(1 << 24, bytes.length - done), position);
        if (n === 0) throw new InputError(`ziap weights file "${path}" is truncated`);
        done += n;
        position += n;
      }
      // The shape's tuples are ziap's own lists: each table's digits are reversed.
      const map = ziapToTune2048Index(cells, cells);
      const table = new Float32Array(raw.length);
      for (let z = 0; z < raw.length; z++) {
        const x = raw[z];
        if (!(Math.abs(x) <= MAX_ENTRY)) throw new InputError(`ziap weights file "${path}": tuple ${k} entry ${z} is ${x}; entries must be finite and within ±${MAX_ENTRY.toExponential(0)}`);
        table[map[z]] = x;
      }
      return table;
    });
    return { structure, shape, tables };
  } finally {
    closeSync(fd);
  }
}

/**
 * The ziap structure a tune2048 network can be written as: one stage, and its tuples those of a ziap
 * structure, in its order, each the same cells (in any order). Otherwise one line saying why not.
 */
export function ziapStructureOf(shape: NetworkShape): string {
  if (shape.stages.length !== 1) throw new InputError(`ziap/2048-tdl's networks have one stage; this network has ${shape.stages.length}`);
  const key = (tuples: readonly (readonly number[])[]) => JSON.stringify(tuples.map((t) => [...t].sort((a, b) => a - b)));
  const name = Object.keys(ZIAP_STRUCTURES).find((n) => key(ZIAP_STRUCTURES[n]) === key(shape.tuples));
  if (!name) throw new InputError(`this network's tuples ${JSON.stringify(shape.tuples)} are none of ziap/2048-tdl's structures (${Object.keys(ZIAP_STRUCTURES).join(', ')}: docs/networks.md lists their cells; the shipped learn-ziap-nw5x4 learns one)`);
  return name;
}

/** A one-stage network's tables in ziap's order, table by table (written one after the other, they are `STRUCTURE/weights.bin`). */
export function toZiapTables(shape: NetworkShape, tables: readonly Float32Array[]): { structure: string; tables: Float32Array[] } {
  const structure = ziapStructureOf(shape);
  const out = shape.tuples.map((cells, k) => {
    const map = ziapToTune2048Index(cells, ZIAP_STRUCTURES[structure][k]);
    const table = tables[k];
    const ziap = new Float32Array(map.length);
    for (let z = 0; z < map.length; z++) ziap[z] = table[map[z]];
    return ziap;
  });
  return { structure, tables: out };
}
