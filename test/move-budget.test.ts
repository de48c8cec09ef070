/**
 * Time per move (--ms-per-move): iterative deepening decides how deep, never which move at a depth. The
 * clock is driven by the tests (scripted costs, or the search's own node count), never by the machine.
 */
import { describe, expect, it } from 'vitest';
import { loadWeights } from '../src/heuristic/weights';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { deepen } from '../src/player/move-budget';
import { runCli } from './helpers/cli';
import { randomBoards } from './helpers/boards';

/** A clock that moves only when a scripted search runs: depth d costs costs[d]. */
function scripted(costs: number[]) {
  let t = 0;
  const searched: number[] = [];
  return {
    now: () => t,
    searchAt: (d: number) => {
      searched.push(d);
      t += costs[d];
    },
    searched,
  };
}

describe('deepen', () => {
  it('searches 1, 2, … while the next depth, predicted from the growth so far, fits in the budget', () => {
    const costs = [0, 1, 10, 100, 1000, 10000];
    // After depth 1 (t = 1) depth 2 is predicted at 8× (t = 9); after depth 2 (t = 11) depth 3 at 10× (t = 111); after 3, depth 4 would end at 1111.
    for (const [budget, depth] of [[5, 1], [9, 2], [110, 2], [111, 3], [1110, 3], [1111, 4], [1e9, 5]] as const) {
      const s = scripted(costs);
      const r = deepen(5, budget, s.searchAt, s.now);
      expect([budget, r.depth, s.searched]).toEqual([budget, depth, Array.from({ length: depth }, (_, i) => i + 1)]);
    }
  });

  it('depth 1 always runs, even past the budget; a limit of 0 runs depth 0 only', () => {
    const s = scripted([0, 50, 500]);
    expect(deepen(2, 1, s.searchAt, s.now).depth).toBe(1);
    const z = scripted([7, 50]);
    expect(deepen(0, 1e9, z.searchAt, z.now).depth).toBe(0);
    expect(z.searched).toEqual([0]);
  });
});

describe('expectimax under a time per move', () => {
  const weights = loadWeights('nneonneo');
  const boards = randomBoards('move-budget', 40, 0.45, 9);
  const fixed = [1, 2, 3].map((depth) => createExpectimaxPlayer(weights, { depth }));

  it('plays, on every board, the move of the fixed-depth player at the depth its budget reached (time = nodes searched)', () => {
    const reached = new Set<number>();
    boards.forEach((board, i) => {
      // The nodes each depth's search costs (a fresh table epoch each time, as inside deepen).
      const costs = [0, ...fixed.map((p) => {
        p.resetStats();
        p.chooseMove(board);
        return p.stats().nodes;
      })];
      const budget = [costs[1] * 2, costs[1] * 40, costs[1] * 400][i % 3]; // budgets that stop at different depths
      const timed = createExpectimaxPlayer(weights, { depth: 3, msPerMove: budget }, () => timed.stats().nodes);
      const s = scripted(costs);
      const want = deepen(3, budget, s.searchAt, s.now).depth;
      reached.add(want);
      const before = timed.searchDepths();
      expect(timed.decide(board)).toEqual(fixed[want - 1].decide(board));
      // The depth it reached is counted (a game's depths over its moves: the depth play reports).
      expect(timed.searchDepths() - before).toBe(want);
    });
    expect(reached.size).toBe(3); // the budget really changed the depth between boards
  });

  it('a budget larger than any search plays the fixed depth; one smaller than depth 1 plays depth 1', () => {
    const large = createExpectimaxPlayer(weights, { depth: 3, msPerMove: 1e9 });
    let calls = 0;
    const small = createExpectimaxPlayer(weights, { depth: 3, msPerMove: 1 }, () => calls++);
    for (const board of boards.slice(0, 15)) {
      expect(large.chooseMove(board)).toBe(fixed[2].chooseMove(board));
      expect(small.chooseMove(board)).toBe(fixed[0].chooseMove(board));
    }
  });
});

describe('--ms-per-move on the command line', () => {
  it('play takes it (as deep as it allows without -d), compare prints ms per move of each contender; an external player refuses it', () => {
    const r = runCli(['play', '-w', 'nneonneo', '-n', '1', '--ms-per-move', '0.5', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const played = JSON.parse(r.stdout) as { depth: number; summary: { meanDepth: number } };
    expect(played.depth).toBe(12); // the cap; the depth reached is the games' own
    expect(played.summary.meanDepth).toBeGreaterThanOrEqual(1);
    expect(played.summary.meanDepth).toBeLessThanOrEqual(12);
    expect(runCli(['play', '-w', 'nneonneo', '-n', '1', '--ms-per-move', '0.5']).stdout).toMatch(/^nneonneo \(up to depth 12 within 0\.5 ms a move: depth \d+\.\d reached on average, seeds /m);
    // At a fixed depth every move searches it: the mean is the depth itself.
    expect((JSON.parse(runCli(['play', '-w', 'nneonneo', '-n', '2', '-d', '1', '--workers', '2', '--json']).stdout) as { summary: { meanDepth: number } }).summary.meanDepth).toBe(1);
    const c = runCli(['compare', 'nneonneo', 'snake3@d1', '-n', '2', '-d', '2', '--ms-per-move', '0.5', '--workers', '2']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/ms\/move/);
    const bad = runCli(['play', '--player', 'external:greedy-py', '-n', '1', '--ms-per-move', '5']);
    expect([bad.code, bad.stderr.trim()]).toEqual([2, expect.stringMatching(/--ms-per-move .*external player/)]);
    const zero = runCli(['play', '-n', '1', '--ms-per-move', '0']);
    expect([zero.code, zero.stderr.trim().split('\n').length]).toEqual([2, 1]);
  });
});
