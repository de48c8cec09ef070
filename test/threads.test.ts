/**
 * The root split on threads (src/player/threads.ts): the same values, moves, counters and games for any
 * number of threads; each root move's value is what a search with a fresh table gives; brute force without
 * a table or cutoff.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { boardToGrid, countEmpty, type Board } from '../src/engine/board';
import { buildHeuristicTables } from '../src/heuristic/tables';
import { listPresets, loadWeights, parseWeights } from '../src/heuristic/weights';
import { createExpectimaxPlayer, type DepthSetting } from '../src/player/expectimax';
import { closeSearchThreads, KEEP_TABLES, searchThreads } from '../src/player/threads';
import { createPlayer, playGames } from '../src/player/players';
import { playerSpec } from '../src/player/spec';
import { randomBoards } from './helpers/boards';
import { refExpectimax } from './helpers/reference';
import { runCli } from './helpers/cli';

afterAll(() => closeSearchThreads());

const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
// Mid-game boards (not too many empty cells) keep depth 3 affordable.
const boards = (seed: string, n: number) => randomBoards(seed, n, 0.4, 11);

describe('root split', () => {
  // A weight set without a positional matrix and two with one (the helpers then hold per-row tables).
  for (const preset of ['nneonneo', 'snake3', 'haskell']) {
    const tables = buildHeuristicTables(loadWeights(preset));
    for (const [depth, cacheMB] of [[1, 4], [2, 4], [2, 0.001], [3, 4], ['auto', 1]] as [DepthSetting, number][]) {
      it(`${preset}, depth ${depth}, ${cacheMB} MiB table: 2 and 3 threads give one thread's values, moves and counters`, () => {
        const one = createExpectimaxPlayer(tables, { depth, cacheMB, threads: 1 });
        const two = createExpectimaxPlayer(tables, { depth, cacheMB, threads: 2 });
        const three = createExpectimaxPlayer(tables, { depth, cacheMB, threads: 3 });
        const list = boards(`split-${preset}-${depth}-${cacheMB}`, depth === 3 || depth === 'auto' ? 12 : 40);
        for (const b of list) {
          const a = one.decide(b);
          for (const other of [two, three]) {
            const c = other.decide(b);
            expect(c.move).toBe(a.move);
            expect(same(c.values, a.values), `${c.values} vs ${a.values}`).toBe(true);
          }
        }
        expect(two.stats()).toEqual(one.stats());
        expect(three.stats()).toEqual(one.stats());
        expect(one.stats().nodes).toBeGreaterThan(0);
      });
    }
  }

  it('the helpers do take root moves (the caller does not search everything alone)', () => {
    // Wait for the event (a helper claimed a task), deciding one board after another; then check those decisions.
    const tables = buildHeuristicTables(loadWeights('nneonneo'));
    const one = createExpectimaxPlayer(tables, { depth: 3, threads: 1 });
    const two = createExpectimaxPlayer(tables, { depth: 3, threads: 2 });
    const pool = searchThreads(2);
    const before = pool.tasksByHelpers;
    const list = boards('helpers', 50);
    for (let i = 0; pool.tasksByHelpers === before && i < 100_000; i++) {
      const b = list[i % list.length];
      const c = two.decide(b);
      expect(same(c.values, one.decide(b).values)).toBe(true);
    }
    expect(pool.tasksByHelpers).toBeGreaterThan(before);
  });

  it('each root move is searched with a fresh table: the default search gives the first legal move the same value', () => {
    // The default search starts every decision with a fresh table too, and searches the first legal move first.
    const tables = buildHeuristicTables(loadWeights('nneonneo'));
    const split = createExpectimaxPlayer(tables, { depth: 3, threads: 2 });
    const shared = createExpectimaxPlayer(tables, { depth: 3 });
    let compared = 0;
    for (const b of boards('first-move', 20)) {
      const s = split.decide(b).values;
      const d = shared.decide(b).values;
      const first = d.findIndex((v) => !Number.isNaN(v));
      if (first < 0) continue;
      expect(Object.is(s[first], d[first])).toBe(true);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
    // And it is a different search: it finds fewer entries than the default one.
    expect(split.stats().cacheHits).toBeLessThan(shared.stats().cacheHits);
  });

  it('without a table or cutoff, equals brute force', () => {
    const weights = loadWeights('snake3');
    const split = createExpectimaxPlayer(buildHeuristicTables(weights), { depth: 2, cprob: 0, cacheMB: 0, threads: 2 });
    const list = randomBoards('split-bf', 30, 0.3, 9).filter((b) => countEmpty(b) <= 6);
    expect(list.length).toBeGreaterThan(5);
    for (const b of list) {
      const got = split.evaluateMoves(b).map((e) => e.value);
      const want = refExpectimax(weights, boardToGrid(b), 2);
      got.forEach((v, i) => expect(v === null ? want[i] === null : Math.abs(v - want[i]!) <= 1e-9 * Math.max(1, Math.abs(want[i]!))).toBe(true));
    }
  });

  it('with stages and line-position terms (each stage\'s tables shared once), equals brute force', () => {
    const weights = parseWeights({
      ...loadWeights('nneonneo'),
      version: 2,
      name: undefined,
      description: undefined,
      source: undefined,
      lines: { outerColumns: { empty: 600 } },
      stages: { by: 'maxTile', list: [{ from: 0, to: 256, merges: 50 }, { from: 256, matrix: [[9, 5, 3, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]] }] },
    });
    const split = createExpectimaxPlayer(weights, { depth: 2, cprob: 0, cacheMB: 0, threads: 2 });
    const list = [...randomBoards('split-stages', 20, 0.3, 9), ...randomBoards('split-stages-early', 20, 0.3, 7)].filter((b) => countEmpty(b) <= 6);
    expect(new Set(list.map((b) => Math.max(...boardToGrid(b).flat()) >= 256))).toEqual(new Set([true, false]));
    for (const b of list) {
      const got = split.evaluateMoves(b).map((e) => e.value);
      const want = refExpectimax(weights, boardToGrid(b), 2);
      got.forEach((v, i) => expect(v === null ? want[i] === null : Math.abs(v - want[i]!) <= 1e-9 * Math.max(1, Math.abs(want[i]!))).toBe(true));
    }
  });

  it('two weight sets taking turns on the same threads keep their own tables', () => {
    const a = buildHeuristicTables(loadWeights('nneonneo'));
    const b = buildHeuristicTables(loadWeights('snake3'));
    const refA = createExpectimaxPlayer(a, { depth: 2, threads: 1 });
    const refB = createExpectimaxPlayer(b, { depth: 2, threads: 1 });
    const twoA = createExpectimaxPlayer(a, { depth: 2, threads: 2 });
    const twoB = createExpectimaxPlayer(b, { depth: 2, threads: 2 });
    for (const board of boards('turns', 20) as Board[]) {
      expect(same(twoA.decide(board).values, refA.decide(board).values)).toBe(true);
      expect(same(twoB.decide(board).values, refB.decide(board).values)).toBe(true);
    }
  });

  it('thousands of quick decisions back to back (helpers racing from one decision into the next) keep one thread\'s values', () => {
    const tables = buildHeuristicTables(loadWeights('nneonneo'));
    const one = createExpectimaxPlayer(tables, { depth: 1, threads: 1 });
    const three = createExpectimaxPlayer(tables, { depth: 1, threads: 3 });
    const list = boards('quick', 500);
    for (let round = 0; round < 6; round++) {
      for (const b of list) expect(same(three.decide(b).values, one.decide(b).values)).toBe(true);
    }
  });

  it('more weight sets than the helpers keep, in turn: each decision still uses its own set', () => {
    const presets = listPresets();
    expect(presets.length).toBeGreaterThan(KEEP_TABLES);
    const sets = presets.map((p) => buildHeuristicTables(loadWeights(p)));
    const one = sets.map((t) => createExpectimaxPlayer(t, { depth: 1, threads: 1 }));
    const two = sets.map((t) => createExpectimaxPlayer(t, { depth: 1, threads: 2 }));
    for (const board of boards('many-sets', 6)) {
      for (let round = 0; round < 2; round++) {
        sets.forEach((_, i) => expect(same(two[i].decide(board).values, one[i].decide(board).values)).toBe(true));
      }
    }
  });

  it('plays the same games on 1 and 2 threads', () => {
    const weights = loadWeights('tuned-d2');
    const play = (threads: number) => playGames(createPlayer(playerSpec('expectimax', weights, { depth: 2, cprob: 1e-4, threads })), { games: 2, seed: 41 }).map(({ ms: _ms, ...r }) => r);
    const one = play(1);
    expect(play(2)).toEqual(one);
    // It is a search of its own: the default search's games may differ, but its scores are of the same kind.
    expect(one.every((g) => g.moves > 100)).toBe(true);
  });

  it('CLI: --threads on play and hint; the bad combinations are refused', () => {
    const one = runCli(['play', '-n', '1', '-d', '2', '-s', '3', '--threads', '1', '--json']);
    const two = runCli(['play', '-n', '1', '-d', '2', '-s', '3', '--threads', '2', '--json']);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    const strip = (out: string) => JSON.parse(out).games.map(({ ms: _ms, ...g }: { ms: number }) => g);
    expect(strip(two.stdout)).toEqual(strip(one.stdout));
    const hint1 = runCli(['hint', '2 4 8 16/0 0 0 0/0 2 0 0/0 0 0 2', '-d', '3', '--threads', '1', '--json']);
    const hint2 = runCli(['hint', '2 4 8 16/0 0 0 0/0 2 0 0/0 0 0 2', '-d', '3', '--threads', 'auto', '--json']);
    expect(hint2.code, hint2.stderr).toBe(0);
    expect(JSON.parse(hint2.stdout)).toEqual(JSON.parse(hint1.stdout));
    for (const [args, message] of [
      [['play', '--threads', '2', '--workers', '2'], /--threads splits one game's search in this process/],
      [['play', '--threads', '2', '--player', 'mcts'], /the mcts player has no such split/],
      [['hint', '2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2', '--threads', '0'], /--threads must be from 1 to 64, got 0/],
      [['play', '--threads', 'x'], /--threads must be an integer, got "x"/],
    ] as [string[], RegExp][]) {
      const r = runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
