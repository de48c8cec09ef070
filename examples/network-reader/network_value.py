#!/usr/bin/env python3
"""Reads a tune2048 network file (docs/networks.md, "The network file") and prints the value of boards:
the score the network expects still to come from an afterstate, tune2048's to the bit (the same sums in
the same order). Standard library only; slow (a reference, not a player).

  python3 network_value.py NET.bin 1 2 3 4 0 0 0 0 0 0 0 0 0 0 0 1   (16 ranks, row by row: 0 empty, 1 = 2, ...)
  python3 network_value.py NET.bin < boards.txt                     (one board of 16 ranks a line)
"""
import json
import struct
import sys
from array import array


def load(path):
    with open(path, 'rb') as f:
        if f.read(8) != b'tune2048':
            sys.exit('network_value: not a tune2048 file')
        version, length = struct.unpack('<II', f.read(8))
        if version != 2:
            sys.exit('network_value: not a network file of version 2')
        header = json.loads(f.read(length))
        tables = []  # tables[stage][tuple]: 16^length float32 entries
        for _ in header['stages']:
            stage = []
            for cells in header['tuples']:
                t = array('f')
                t.fromfile(f, 16 ** len(cells))
                if sys.byteorder != 'little':
                    t.byteswap()
                stage.append(t)
            tables.append(stage)
    stage_of_rank = [0] * 16
    for k, s in enumerate(header['stages']):
        for r in range(16):
            if s['maxTile'][0] <= 2 ** r <= s['maxTile'][1]:
                stage_of_rank[r] = k
    return header, tables, stage_of_rank


def symmetries(g):
    """The 8 symmetric grids in tune2048's order: I, H (mirror left-right), V (top-bottom), HV, T, HT, VT, HVT."""
    t = [g[4 * c + r] for r in range(4) for c in range(4)]
    out = []
    for b in (g, t):
        out.append(b)
        out.append([b[4 * r + 3 - c] for r in range(4) for c in range(4)])
        out.append([b[4 * (3 - r) + c] for r in range(4) for c in range(4)])
        out.append([b[4 * (3 - r) + 3 - c] for r in range(4) for c in range(4)])
    return out


def value(net, ranks):
    header, tables, stage_of_rank = net
    stage = stage_of_rank[max(ranks)]
    total = 0.0
    for t, cells in enumerate(header['tuples']):
        for g in symmetries(ranks):
            index = sum(g[cell] * 16 ** i for i, cell in enumerate(cells))  # the first cell is the least significant digit
            s = stage
            v = tables[s][t][index]
            while v == 0 and header['promote'] and s > 0:  # lazy promotion: a 0 reads as the stage below's entry
                s -= 1
                v = tables[s][t][index]
            total += v
    return total


def main():
    if len(sys.argv) not in (2, 18):
        sys.exit('usage: network_value.py NET.bin [16 ranks]  (or boards of 16 ranks on stdin, one a line)')
    net = load(sys.argv[1])
    boards = [sys.argv[2:]] if len(sys.argv) == 18 else (line.split() for line in sys.stdin if line.strip())
    for board in boards:
        print(repr(value(net, [int(x) for x in board])))


if __name__ == '__main__':
    main()
