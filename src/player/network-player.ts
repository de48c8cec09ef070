/**
 * A learned n-tuple network as a player: the greedy move on reward + the network's value of the
 * afterstate, computed by build/learn.wasm (the code that trained it). A process loads a network once
 * (by its hash) and keeps it: its tables are hundreds of megabytes.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { Board } from '../engine/board';
import { applyMove, type Direction } from '../engine/moves';
import type { Player } from '../engine/player';
import { NetworkMachine } from '../learn/ntuple/machine';
import { readNetworkFile, readNetworkShape } from '../learn/ntuple/network-file';
import { InputError } from '../util/errors';
import type { NetworkPlayerSpec } from './spec';

export const NETWORK_PREFIX = 'network:';

const KEEP = 2;
const loaded = new Map<string, NetworkMachine>();

/** The network of a spec in this process's memory (read once, checked against its hash). */
export function networkMachineFor(ref: NetworkPlayerSpec['network']): NetworkMachine {
  const known = loaded.get(ref.sha256);
  if (known) {
    loaded.delete(ref.sha256); // most recently used last
    loaded.set(ref.sha256, known);
    return known;
  }
  const shape = readNetworkShape(ref.file);
  const machine = new NetworkMachine(shape, { threads: 0, trainSeed: 0, evalSeed: 0, step: 0, evalCapacity: 1 });
  const file = readNetworkFile(ref.file, () => machine.tables());
  if (file.sha256 !== ref.sha256) throw new InputError(`network file "${ref.file}" is not the one named (sha256 ${file.sha256.slice(0, 12)}…, expected ${ref.sha256.slice(0, 12)}…): was it trained again?`);
  // At most two networks per process (a compare of two networks alternates them): they are hundreds of MB each.
  if (loaded.size >= KEEP) loaded.delete(loaded.keys().next().value!);
  loaded.set(ref.sha256, machine);
  return machine;
}

export function createNetworkPlayer(ref: NetworkPlayerSpec['network']): Player {
  const machine = networkMachineFor(ref);
  const chooseMove = (board: Board): Direction | -1 => machine.exports.greedyMove(board.lo, board.hi) as Direction | -1;
  return {
    chooseMove,
    decide(board: Board) {
      // What the greedy move maximises, for each move: its reward + the network's value of its afterstate.
      const values = [0, 1, 2, 3].map((d) => {
        const after = applyMove(board, d as Direction);
        return after.legal ? after.score + machine.exports.value(after.board.lo, after.board.hi) : Number.NaN;
      });
      return { move: chooseMove(board), values };
    },
  };
}

/** The spec of a network file (its hash read from the whole file). */
export function networkPlayerSpec(path: string): NetworkPlayerSpec {
  readNetworkShape(path); // a file that is not a network says so in one line
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(1 << 24);
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return { kind: 'network', network: { file: path, sha256: hash.digest('hex') } };
}

/** "network:FILE" → FILE; null otherwise. */
export function networkFileOf(arg: string): string | null {
  if (!arg.startsWith(NETWORK_PREFIX)) return null;
  const file = arg.slice(NETWORK_PREFIX.length);
  if (file === '') throw new InputError('network:FILE needs a network file (tune2048 learn export RUN --out FILE)');
  return file;
}
