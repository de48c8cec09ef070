/**
 * The readers of examples/network-reader (C and Python, for other programs) give a board's value as
 * tune2048 does, to the bit: on a staged network with lazy promotion (a share of later-stage entries 0), on
 * random boards of every stage, against the slow reference (src/learn/ntuple/reference.ts) and against
 * `tune2048 hint`'s move values. Each runs where its compiler or interpreter is present.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { boardToRanks, formatBoard } from '../src/engine/board';
import { applyMove, DIRECTIONS } from '../src/engine/moves';
import { NetworkMachine } from '../src/learn/ntuple/machine';
import { writeNetworkFile } from '../src/learn/ntuple/network-file';
import { referenceValue } from '../src/learn/ntuple/reference';
import type { NetworkShape } from '../src/learn/ntuple/shape';
import { randomBoards } from './helpers/boards';
import { ROOT, runCli } from './helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'tune2048-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const READER = join(ROOT, 'examples', 'network-reader');

// Three stages with promotion: a fifth of the later stages' entries 0, so a value reads through to the stage below.
const SHAPE: NetworkShape = { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [1, 2, 5, 6, 9]], stages: [{ maxTile: [2, 64] }, { maxTile: [128, 256] }, { maxTile: [512, 32768] }], promote: true };
const machine = new NetworkMachine(SHAPE, { threads: 1, trainSeed: 0, evalSeed: 0, step: 0.01, evalCapacity: 1 });
const rng = seedrandom.alea('network-reader');
machine.tables().forEach((t, k) => {
  for (let i = 0; i < t.length; i++) t[i] = k >= SHAPE.tuples.length && rng() < 0.2 ? 0 : Math.fround((rng() - 0.5) * 1000);
});
const net = join(dir, 'staged net.bin');
writeNetworkFile(net, SHAPE, machine.tables());
const reference = { shape: SHAPE, tables: machine.tables().map((t) => Float32Array.from(t)) };
const boards = [...randomBoards('reader', 150, 0.35, 6), ...randomBoards('reader-big', 150, 0.3, 15)];
const input = boards.map((b) => boardToRanks(b).join(' ')).join('\n') + '\n';

function checkReader(run: (args: string[], stdin?: string) => string): void {
  const values = run([net], input).trim().split('\n').map(Number);
  expect(values).toHaveLength(boards.length);
  boards.forEach((b, i) => expect(values[i], formatBoard(b)).toBe(referenceValue(reference, b)));
  // tune2048 hint: each legal move's value is its reward + the network's value of its afterstate.
  const board = boards.find((b) => DIRECTIONS.every((d) => applyMove(b, d).legal))!;
  const hint = JSON.parse(runCli(['hint', '--player', `network:${net}`, '-d', '0', '--json', formatBoard(board)]).stdout) as { moves: { score: number; value: number }[] };
  DIRECTIONS.forEach((d, k) => {
    const after = applyMove(board, d);
    expect(hint.moves[k].score + Number(run([net, ...boardToRanks(after.board).map(String)]))).toBe(hint.moves[k].value);
  });
}

describe('examples/network-reader: a network file read by other programs', () => {
  it.runIf(has('cc'))('the C reader gives tune2048\'s value to the bit (every stage, promotion)', () => {
    const bin = join(dir, 'network_value');
    execFileSync('cc', ['-O2', '-Wall', '-Werror', '-o', bin, join(READER, 'network_value.c')]);
    checkReader((args, stdin) => execFileSync(bin, args, { input: stdin, encoding: 'utf8' }));
  });

  it.runIf(has('python3'))('the Python reader gives tune2048\'s value to the bit (every stage, promotion)', () => {
    checkReader((args, stdin) => execFileSync('python3', [join(READER, 'network_value.py'), ...args], { input: stdin, encoding: 'utf8' }));
  });
});
