import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import {
  boardFromGrid,
  boardFromRanks,
  boardToGrid,
  boardToRanks,
  formatBoard,
  parseBoard,
  transpose,
} from '../src/engine/board';
import { applyMove, DOWN, LEFT, RIGHT, UP } from '../src/engine/moves';
import { ROW_COUNT, rowToRanks, SCORE_LEFT, SCORE_RIGHT } from '../src/engine/tables';
import { refMove, refSlideLine } from './helpers/reference';
import { randomBoards } from './helpers/boards';

const values = (ranks: number[]) => ranks.map((r) => (r === 0 ? 0 : 2 ** r));

describe('move tables', () => {
  it('equal the reference for all 65,536 rows in all four directions', () => {
    const rng = seedrandom.alea('rows');
    const filler = () => Array.from({ length: 4 }, () => (rng() < 0.3 ? 0 : 2 ** (1 + Math.floor(rng() * 15))));
    let mismatches = 0;
    for (let row = 0; row < ROW_COUNT; row++) {
      const line = values(rowToRanks(row));
      // The row under test sits in a random row (left/right) and a random column (up/down) of a random board.
      const grid = [filler(), filler(), filler(), filler()];
      const at = row & 3;
      grid[at] = [...line];
      for (const dir of [LEFT, RIGHT] as const) {
        const got = applyMove(boardFromGrid(grid), dir);
        const want = refMove(grid, dir);
        if (JSON.stringify(boardToGrid(got.board)) !== JSON.stringify(want.grid) || got.score !== want.score || got.legal !== want.legal) mismatches++;
      }
      const colGrid = grid.map((r, i) => {
        const copy = [...r];
        copy[at] = line[i];
        return copy;
      });
      for (const dir of [UP, DOWN] as const) {
        const got = applyMove(boardFromGrid(colGrid), dir);
        const want = refMove(colGrid, dir);
        if (JSON.stringify(boardToGrid(got.board)) !== JSON.stringify(want.grid) || got.score !== want.score || got.legal !== want.legal) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  it('follows the examples of DESIGN.md (merge once, toward the move)', () => {
    const cases: [number[], number[], number][] = [
      [[2, 2, 2, 2], [4, 4, 0, 0], 8],
      [[2, 2, 2, 0], [4, 2, 0, 0], 4],
      [[4, 4, 8, 8], [8, 16, 0, 0], 24],
      [[2, 0, 2, 4], [4, 4, 0, 0], 4],
    ];
    for (const [line, want, score] of cases) {
      const grid = [line, [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
      const got = applyMove(boardFromGrid(grid), LEFT);
      expect(boardToGrid(got.board)[0]).toEqual(want);
      expect(got.score).toBe(score);
      expect(refSlideLine(line)).toEqual({ line: want, score });
    }
  });

  it("a row's merges score the same whichever way it slides (the network's moves read one score table for both)", () => {
    let differ = 0;
    for (let row = 0; row < ROW_COUNT; row++) if (SCORE_LEFT[row] !== SCORE_RIGHT[row]) differ++;
    expect(differ).toBe(0);
  });

  it('treats a move that changes nothing as illegal', () => {
    const b = parseBoard('2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0');
    expect(applyMove(b, LEFT).legal).toBe(false);
    expect(applyMove(b, RIGHT).legal).toBe(false);
    expect(applyMove(b, UP).legal).toBe(false);
    expect(applyMove(b, DOWN).legal).toBe(true);
  });

  it('never merges two 32768 tiles (the 4-bit limit)', () => {
    const b = parseBoard('32768 32768 0 0/0 0 0 0/0 0 0 0/0 0 0 0');
    const r = applyMove(b, LEFT);
    expect(r.legal).toBe(false);
    expect(boardToGrid(applyMove(b, RIGHT).board)[0]).toEqual([0, 0, 32768, 32768]);
  });
});

describe('boards', () => {
  it('round-trip through text, grids and ranks', () => {
    for (const b of randomBoards('roundtrip', 2000)) {
      expect(parseBoard(formatBoard(b))).toEqual(b);
      expect(boardFromGrid(boardToGrid(b))).toEqual(b);
      expect(boardFromRanks(boardToRanks(b))).toEqual(b);
    }
  });

  it('accept commas, spaces and slashes', () => {
    const a = parseBoard('2,4,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,2');
    expect(formatBoard(a)).toBe('2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 2');
  });

  it('transpose swaps rows and columns', () => {
    for (const b of randomBoards('transpose', 2000)) {
      const g = boardToGrid(b);
      expect(boardToGrid(transpose(b))).toEqual([0, 1, 2, 3].map((c) => g.map((row) => row[c])));
    }
  });

  it.each([
    ['2 4 0', /16 tile values, got 3/],
    ['3 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0', /tile value 3/],
    ['65536 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0', /tile value 65536/],
    ['x 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0', /"x" is not a tile value/],
  ])('rejects the bad board %s', (text, message) => {
    expect(() => parseBoard(text)).toThrow(message);
  });
});
