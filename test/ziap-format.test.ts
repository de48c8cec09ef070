/**
 * ziap/2048-tdl's weight files in and out (tune2048 learn import --from ziap, learn export --format ziap),
 * on small synthetic files built here: a board's value from the imported network equals the value ziap's
 * layout gives it, read as ziap reads it (a tuple's cells ascending, the first the index's most significant
 * hex digit); import then export is the same file to the bit; bad files and outputs are refused in one line.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { boardFromRanks, type Board } from '../src/engine/board';
import { readNetworkFile, writeNetworkFile } from '../src/learn/ntuple/network-file';
import { referenceValue, symmetries } from '../src/learn/ntuple/reference';
import { ZIAP_STRUCTURES, ziapFileBytes } from '../src/learn/ntuple/ziap-format';
import { DEFAULT_TUPLES } from '../src/learn/ntuple/shape';
import { ROOT, runCli } from './helpers/cli';

const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tune2048-ziap-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A ziap weights file of `structure` with random entries (a fixed seed): its tables, as ziap lays them out. */
function ziapFile(structure: string, path: string, seed = 'ziap'): Float32Array[] {
  const rng = seedrandom(seed);
  const tables = ZIAP_STRUCTURES[structure].map((cells) => Float32Array.from({ length: 16 ** cells.length }, () => Math.fround((rng() - 0.5) * 1000)));
  writeFileSync(path, Buffer.concat(tables.map((t) => Buffer.from(t.buffer))));
  return tables;
}

/**
 * ziap's value of a board, computed as ziap's program reads its file: each tuple's cells ascending, the
 * first cell's rank the index's most significant hex digit, summed over the 8 symmetric boards (in the
 * reference's order, so the sum equals tune2048's to the bit).
 */
function ziapValue(structure: string, tables: Float32Array[], board: Board): number {
  const grids = symmetries(board);
  let sum = 0;
  ZIAP_STRUCTURES[structure].forEach((cells, t) => {
    for (const g of grids) {
      let index = 0;
      for (const cell of cells) index = index * 16 + g[Math.floor(cell / 4)][cell % 4];
      sum += tables[t][index];
    }
  });
  return sum;
}

function randomBoards(n: number): Board[] {
  const rng = seedrandom('boards');
  return Array.from({ length: n }, () => boardFromRanks(Array.from({ length: 16 }, () => (rng() < 0.3 ? 0 : 1 + Math.floor(rng() * 15)))));
}

describe('ziap/2048-tdl weight files', () => {
  it("the structures' sizes are ziap's (nw4x6: four tables of 16^6 float32) and all differ, so a file's size names its structure", () => {
    expect(ZIAP_STRUCTURES.nw4x6).toEqual(DEFAULT_TUPLES);
    expect(ziapFileBytes(ZIAP_STRUCTURES.nw4x6)).toBe(4 * 16 ** 6 * 4);
    const sizes = Object.values(ZIAP_STRUCTURES).map(ziapFileBytes);
    expect(new Set(sizes).size).toBe(sizes.length);
    for (const tuples of Object.values(ZIAP_STRUCTURES)) for (const cells of tuples) expect([...cells].sort((a, b) => a - b)).toEqual(cells);
  });

  for (const structure of ['nw5x4', 'nw4x5']) {
    it(`${structure}: import gives every board the value ziap's layout gives it; export gives back the file to the bit`, () => {
      const d = dir();
      const file = join(d, 'weights.bin');
      const tables = ziapFile(structure, file);
      const net = join(d, 'net.bin');
      const imported = runCli(['learn', 'import', '--from', 'ziap', file, '--structure', structure, '--out', net]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain('play --player network:');
      const read = readNetworkFile(net);
      expect(read.shape.tuples).toEqual(ZIAP_STRUCTURES[structure]);
      expect(read.shape.stages).toHaveLength(1);
      const boards = randomBoards(200);
      expect(new Set(boards.map((b) => ziapValue(structure, tables, b))).size).toBeGreaterThan(150);
      for (const board of boards) expect(referenceValue(read, board)).toBe(ziapValue(structure, tables, board));

      const back = join(d, 'back.bin');
      const exported = runCli(['learn', 'export', net, '--format', 'ziap', '--out', back, '--json']);
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout)).toMatchObject({ structure, out: back });
      expect(readFileSync(back).equals(readFileSync(file))).toBe(true);
    });
  }

  it('a network whose tuples list the same cells in another order exports the same file (the digits follow the cells)', () => {
    const d = dir();
    const file = join(d, 'weights.bin');
    ziapFile('nw5x4', file);
    const net = join(d, 'net.bin');
    expect(runCli(['learn', 'import', '--from', 'ziap', file, '--structure', 'nw5x4', '--out', net]).code).toBe(0);
    // The same network with each tuple's cells reversed: each table's digits reversed with them.
    const read = readNetworkFile(net);
    const reversed = { ...read.shape, tuples: read.shape.tuples.map((cells) => [...cells].reverse()) };
    const tables = read.tables.map((t, k) => {
      const n = read.shape.tuples[k].length;
      const out = new Float32Array(t.length);
      for (let i = 0; i < t.length; i++) {
        let j = 0;
        for (let digit = 0; digit < n; digit++) j = j * 16 + ((i >> (4 * digit)) & 15);
        out[j] = t[i];
      }
      return out;
    });
    const other = join(d, 'reversed.bin');
    writeNetworkFile(other, reversed, tables);
    for (const board of randomBoards(50)) expect(referenceValue({ shape: reversed, tables }, board)).toBe(referenceValue(read, board));
    const back = join(d, 'back.bin');
    expect(runCli(['learn', 'export', other, '--format', 'ziap', '--out', back]).code).toBe(0);
    expect(readFileSync(back).equals(readFileSync(file))).toBe(true);
  });

  it('bad files, options and outputs: one line naming the problem, exit 2, nothing written', () => {
    const d = dir();
    const file = join(d, 'weights.bin');
    const tables = ziapFile('nw5x4', file);
    const net = join(d, 'net.bin');
    const refused = (args: string[], text: string | RegExp) => {
      const r = runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(text);
      expect(existsSync(net)).toBe(false);
    };
    // A structure given that is not the file's: the file's size names its own.
    refused(['learn', 'import', '--from', 'ziap', file, '--structure', 'nw4x6', '--out', net], /1310720 bytes; structure nw4x6 needs 268435456: it is the size of nw5x4 \(leave --structure out, or give nw5x4\)/);
    const short = join(d, 'short.bin');
    writeFileSync(short, readFileSync(file).subarray(0, 1000));
    refused(['learn', 'import', '--from', 'ziap', short, '--out', net], /is 1000 bytes, the size of none of ziap\/2048-tdl's structures \(nw5x4 1310720, nw4x5 16777216, .*nw8x6 536870912\): truncated/);
    refused(['learn', 'import', '--from', 'ziap', short, '--structure', 'nw5x4', '--out', net], /is 1000 bytes; structure nw5x4 needs 1310720: truncated/);
    const nan = join(d, 'nan.bin');
    tables[2][77] = NaN;
    writeFileSync(nan, Buffer.concat(tables.map((t) => Buffer.from(t.buffer))));
    refused(['learn', 'import', '--from', 'ziap', nan, '--structure', 'nw5x4', '--out', net], /tuple 2 entry 77 is NaN/);
    refused(['learn', 'import', '--from', 'ziap', join(d, 'missing.bin'), '--structure', 'nw5x4', '--out', net], /cannot read ziap weights file .*missing\.bin.*no such file or folder/);
    refused(['learn', 'import', '--from', 'ziap', file, '--structure', 'nw9x9', '--out', net], /--structure: "nw9x9" is not one of ziap\/2048-tdl's structures/);
    refused(['learn', 'import', '--from', 'moporgic', file, '--out', net], /--from: "moporgic"/);
    refused(['learn', 'import', '--from', 'ziap', file, '--structure', 'nw5x4', '--out', join(d, 'no', 'net.bin')], /the folder .* does not exist/);

    // An existing output is kept unless --force.
    expect(runCli(['learn', 'import', '--from', 'ziap', file, '--structure', 'nw5x4', '--out', net]).code).toBe(0);
    const before = readFileSync(net);
    const again = runCli(['learn', 'import', '--from', 'ziap', file, '--structure', 'nw5x4', '--out', net]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--out ".*net\.bin" exists; add --force/);
    expect(readFileSync(net).equals(before)).toBe(true);
    expect(runCli(['learn', 'import', '--from', 'ziap', file, '--structure', 'nw5x4', '--out', net, '--force']).code).toBe(0);

    // Without --structure, the file's size names it.
    const bySize = runCli(['learn', 'import', '--from', 'ziap', file, '--out', join(d, 'by-size.bin'), '--json']);
    expect(bySize.code, bySize.stderr).toBe(0);
    expect(JSON.parse(bySize.stdout)).toMatchObject({ structure: 'nw5x4', tuples: ZIAP_STRUCTURES.nw5x4 });
    expect(readFileSync(join(d, 'by-size.bin')).equals(readFileSync(net))).toBe(true);

    // A network ziap cannot hold: two stages, or tuples of none of its structures.
    const staged = join(d, 'staged.bin');
    const shape = { tuples: [[0, 1, 2, 3]], stages: [{ maxTile: [2, 2048] as const }, { maxTile: [4096, 32768] as const }], promote: true };
    writeNetworkFile(staged, shape, [new Float32Array(65536), new Float32Array(65536)]);
    const out = join(d, 'z.bin');
    const r = runCli(['learn', 'export', staged, '--format', 'ziap', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/one stage; this network has 2/);
    const odd = join(d, 'odd.bin');
    writeNetworkFile(odd, { ...shape, stages: [{ maxTile: [2, 32768] as const }] }, [new Float32Array(65536)]);
    const r2 = runCli(['learn', 'export', odd, '--format', 'ziap', '--out', out]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/none of ziap\/2048-tdl's structures \(nw5x4, .*: docs\/networks\.md lists their cells; the shipped learn-ziap-nw5x4 learns one\)/);
    expect(existsSync(out)).toBe(false);
    const r3 = runCli(['learn', 'export', net, '--out', out]);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/is not a learning run id/);
  });
});

describe('the shipped learn-ziap-nw5x4', () => {
  it("learns a network of ziap's nw5x4 that goes to ziap's layout and back to the bit", () => {
    const d = dir();
    const shipped = JSON.parse(readFileSync(join(ROOT, 'configs', 'learn-ziap-nw5x4.json'), 'utf8')) as { network: { tuples: number[][] } };
    expect(shipped.network.tuples).toEqual(ZIAP_STRUCTURES.nw5x4);
    const config = join(d, 'short.json');
    writeFileSync(config, JSON.stringify({ ...shipped, games: 200, checkpointEvery: 200, heldOut: { games: 2, seed: 1 } }));
    const db = join(d, 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config, '--db', db]).code).toBe(0);
    const ziap = join(d, 'weights.bin');
    const out = runCli(['learn', 'export', '1', '--db', db, '--format', 'ziap', '--out', ziap]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('ziap/2048-tdl reads it as nw5x4/weights.bin');
    const net = join(d, 'net.bin');
    expect(runCli(['learn', 'export', '1', '--db', db, '--out', net]).code).toBe(0);
    const back = join(d, 'back.bin');
    expect(runCli(['learn', 'import', '--from', 'ziap', ziap, '--out', back]).code).toBe(0);
    const again = join(d, 'again.bin');
    expect(runCli(['learn', 'export', back, '--format', 'ziap', '--out', again]).code).toBe(0);
    expect(readFileSync(again).equals(readFileSync(ziap))).toBe(true);
    // The same network: equal greedy games from either file.
    const play = (file: string) => JSON.parse(runCli(['play', '--player', `network:${file}`, '-d', '0', '-n', '3', '--json']).stdout).games.map((g: { score: number }) => g.score);
    expect(play(back)).toEqual(play(net));
  });
});

describe("docs/networks.md's table of ziap's structures", () => {
  it('lists each structure with its cells and file size as the code has them', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'networks.md'), 'utf8');
    for (const [name, tuples] of Object.entries(ZIAP_STRUCTURES)) {
      const row = new RegExp(`^\\| \`${name}\`[^|]*\\| ([^|]+) \\| ([\\d,]+) bytes \\|$`, 'm').exec(doc);
      expect(row, name).not.toBeNull();
      expect(row![1].trim()).toBe(tuples.map((t) => t.join(' ')).join(' · '));
      expect(Number(row![2].replace(/,/g, ''))).toBe(ziapFileBytes(tuples));
    }
  });
});
