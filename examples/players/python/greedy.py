#!/usr/bin/env python3
"""A greedy 2048 player for tune2048's line protocol (docs/protocol.md), standard library only.

It plays the move whose board after the move (before the new tile) scores best on a weighted sum of four
line features, summed over the 4 rows and 4 columns: empty cells, merges, monotonicity and smoothness.
The four weights are its tunable parameters. Run it with:  tune2048 play --player external:greedy-py
"""
import sys

NAME, VERSION = "greedy-py", "1.0"
# name, default, min, max, scale: the hand-set defaults tune2048 starts from
PARAMS = [
    ("empty", 1.0, 0.0, 20.0, "linear"),
    ("merges", 1.0, 0.0, 20.0, "linear"),
    ("monotonicity", 1.0, 0.01, 100.0, "log"),
    ("smoothness", 1.0, 0.0, 10.0, "linear"),
]


def slide_row(row):
    """A row (4 ranks, 0 = empty) slid to the left: (new row, merge score)."""
    tiles = [r for r in row if r]
    out, score, i = [], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < 15:
            out.append(tiles[i] + 1)
            score += 1 << (tiles[i] + 1)
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return tuple(out + [0] * (4 - len(out))), score


def row_features(row):
    empty = row.count(0)
    tiles = [r for r in row if r]
    merges = sum(1 for a, b in zip(tiles, tiles[1:]) if a == b)
    left = sum(a - b for a, b in zip(row, row[1:]) if a > b)
    right = sum(b - a for a, b in zip(row, row[1:]) if b > a)
    smooth = sum(abs(a - b) for a, b in zip(tiles, tiles[1:]))
    return empty, merges, min(left, right), smooth


ROWS = [tuple((i >> (4 * k)) & 15 for k in range(4)) for i in range(65536)]
SLIDE = [slide_row(r) for r in ROWS]
FEATURES = [row_features(r) for r in ROWS]


def row_index(row):
    return row[0] | row[1] << 4 | row[2] << 8 | row[3] << 12


class Player:
    def __init__(self):
        self.weights = {name: default for name, default, *_ in PARAMS}
        self.table = None

    def set(self, name, value):
        if name not in self.weights:
            raise ValueError("unknown parameter " + name)
        self.weights[name] = float(value)
        self.table = None

    def row_values(self):
        w = self.weights
        we, wm, wmono, ws = w["empty"], w["merges"], w["monotonicity"], w["smoothness"]
        return [we * e + wm * m - wmono * mono - ws * s for e, m, mono, s in FEATURES]

    def value(self, grid):
        t = self.table
        rows = sum(t[row_index(r)] for r in grid)
        cols = sum(t[row_index(c)] for c in zip(*grid))
        return rows + cols

    def moves(self, grid):
        """Every legal move: (name, board after it)."""
        result = []
        for name in ("up", "down", "left", "right"):
            if name in ("left", "right"):
                lines = grid if name == "left" else [r[::-1] for r in grid]
            else:
                cols = [list(c) for c in zip(*grid)]
                lines = cols if name == "up" else [c[::-1] for c in cols]
            slid = [SLIDE[row_index(tuple(l))][0] for l in lines]
            if name == "right" or name == "down":
                slid = [s[::-1] for s in slid]
            after = [list(s) for s in slid] if name in ("left", "right") else [list(r) for r in zip(*slid)]
            if after != [list(r) for r in grid]:
                result.append((name, after))
        return result

    def choose(self, grid):
        if self.table is None:
            self.table = self.row_values()
        best = None
        values = {}
        for name, after in self.moves(grid):
            v = self.value(after)
            values[name] = v
            if best is None or v > best[1]:
                best = (name, v)
        # The value each move was given, up down left right ("-": not legal), shown by tune2048 hint.
        seen = " ".join(repr(values[d]) if d in values else "-" for d in ("up", "down", "left", "right"))
        return best[0], seen


def main():
    player = Player()
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "tune2048":
            out.write("name %s\nversion %s\n" % (NAME, VERSION))
            for name, default, lo, hi, scale in PARAMS:
                out.write("param %s %r %r %r %s\n" % (name, default, lo, hi, scale))
            out.write("ready\n")
        elif cmd == "set":
            try:
                player.set(words[1], words[2])
            except (ValueError, IndexError) as e:
                out.write("error %s\n" % e)
        elif cmd == "newgame":
            out.write("ok\n")
        elif cmd == "board":
            ply, cells = words[1], words[2]
            ranks = [int(c, 16) for c in cells]
            grid = [ranks[4 * i:4 * i + 4] for i in range(4)]
            move, seen = player.choose(grid)
            out.write("move %s %s %s\n" % (ply, move, seen))
        elif cmd == "quit":
            break
        else:
            out.write("error unknown command %s\n" % cmd)
        out.flush()


if __name__ == "__main__":
    main()
