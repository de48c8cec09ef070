import { describe, expect, it } from 'vitest';
import { type Board, boardFromRanks, rankAt, withRank } from '../src/engine/board';
import { playGame } from '../src/engine/game';
import { applyMove, type Direction } from '../src/engine/moves';
import { createRng, initialBoard, spawnTile } from '../src/engine/spawn';
import { buildHeuristicTables } from '../src/heuristic/tables';
import { loadWeights } from '../src/heuristic/weights';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { createMinimaxPlayer } from '../src/player/minimax';
import { createPlayer } from '../src/player/players';
import { playerSpec } from '../src/player/spec';
import { runCli } from './helpers/cli';
import { createJsMinimaxPlayer } from './helpers/js-minimax';
import { dumpRun, smokeConfig, tempDb, tuneToEnd } from './helpers/runs';

const weights = loadWeights('haskell');

/** Plain minimax as seed 000 defines it, no pruning, written from the definition (slow, obviously right). */
function referenceMinimax(board: Board, depth: number): number[] {
  const h = createExpectimaxPlayer(buildHeuristicTables(weights), { depth: 0 });
  const max = (b: Board, d: number): number => {
    const values = ([0, 1, 2, 3] as Direction[]).map((dir) => applyMove(b, dir)).filter((r) => r.legal).map((r) => chance(r.board, d));
    return values.length ? Math.max(...values) : 0;
  };
  const chance = (b: Board, d: number): number => {
    if (d === 0) return h.heuristic(b);
    const empties = Array.from({ length: 16 }, (_, k) => k).filter((k) => rankAt(b, k) === 0);
    const worst = (rank: number) => Math.min(...empties.map((k) => max(withRank(b, k, rank), d - 1)));
    return 0.9 * worst(1) + 0.1 * worst(2);
  };
  return ([0, 1, 2, 3] as Direction[]).map((dir) => {
    const r = applyMove(board, dir);
    return r.legal ? chance(r.board, depth) : NaN;
  });
}

/** Mid-game boards from seeded random play. */
function boards(n: number, seed: number): Board[] {
  const rng = createRng(seed);
  const out: Board[] = [];
  let b = initialBoard(rng);
  while (out.length < n) {
    const legal = ([0, 1, 2, 3] as Direction[]).filter((d) => applyMove(b, d).legal);
    if (legal.length === 0) {
      b = initialBoard(rng);
      continue;
    }
    b = spawnTile(applyMove(b, legal[Math.floor(rng() * legal.length)]).board, rng);
    if (rng() < 0.15) out.push(b);
  }
  return out;
}

describe('minimax (seed 000)', () => {
  it('alpha-beta gives the same root values and move as the unpruned reference, and prunes', () => {
    for (const depth of [1, 2]) {
      const pruned = createMinimaxPlayer(weights, { depth });
      const plain = createMinimaxPlayer(weights, { depth }, { pruning: false });
      for (const b of boards(depth === 1 ? 40 : 12, 100 + depth)) {
        const ref = referenceMinimax(b, depth);
        const p = pruned.decide(b);
        const q = plain.decide(b);
        expect(p.values).toEqual(ref);
        expect(q.values).toEqual(ref);
        expect(p.move).toBe(q.move);
      }
      expect(pruned.stats.nodes).toBeLessThan(plain.stats.nodes);
    }
  });

  it('the WebAssembly search equals the TypeScript one it replaced: values, nodes and whole games', () => {
    for (const [depth, n] of [[1, 40], [2, 15], [3, 3]]) {
      for (const pruning of [true, false]) {
        if (depth === 3 && !pruning) continue; // unpruned depth 3 in TypeScript: minutes
        const wasm = createMinimaxPlayer(weights, { depth }, { pruning });
        const js = createJsMinimaxPlayer(weights, { depth }, { pruning });
        for (const b of boards(n, 300 + depth)) {
          const w = wasm.decide(b);
          const j = js.decide(b);
          expect(w.values).toEqual(j.values);
          expect(w.move).toBe(j.move);
        }
        expect(wasm.stats.nodes).toBe(js.stats.nodes);
      }
    }
    const game = (p: ReturnType<typeof createMinimaxPlayer>) => playGame(p, 77, { maxMoves: 400 });
    expect(game(createMinimaxPlayer(weights, { depth: 1 }))).toMatchObject((({ ms: _ms, ...rest }) => rest)(game(createJsMinimaxPlayer(weights, { depth: 1 }))));
  });

  it('a full board with no move is a lost game (no move, value 0)', () => {
    const lost = boardFromRanks([1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1]);
    expect(createMinimaxPlayer(weights, { depth: 2 }).decide(lost).move).toBe(-1);
  });
});

describe('MCTS (seed 004)', () => {
  it('is deterministic per seed: the same game twice, in any order', () => {
    const spec = playerSpec('mcts', weights, { depth: 1, cprob: 1e-4, iterations: 60, rolloutDepth: 8 });
    const a = playGame(createPlayer(spec), 21, { maxMoves: 60 });
    playGame(createPlayer(spec), 22, { maxMoves: 30 }); // another game in between changes nothing
    const b = playGame(createPlayer(spec), 21, { maxMoves: 60 });
    expect(b.score).toBe(a.score);
    expect(b.finalBoard).toEqual(a.finalBoard);
  });

  it('mcts-emm plays with expectimax rollouts; more iterations find better moves than random', () => {
    const emm = playerSpec('mcts-emm', weights, { depth: 1, cprob: 1e-4, iterations: 20, rolloutDepth: 4 });
    const g = playGame(createPlayer(emm), 5, { maxMoves: 80 });
    expect(g.moves).toBe(80);
  });
});

describe('players through the CLI and the tuner', () => {
  it('play, hint and compare take --player; the same seeds give the same games on 1 or 2 workers', () => {
    const args = ['play', '-w', 'haskell', '--player', 'minimax', '-d', '1', '-n', '4', '--json'];
    const one = JSON.parse(runCli(args).stdout);
    const two = JSON.parse(runCli([...args, '--workers', '2']).stdout);
    expect(one.player).toBe('minimax');
    expect(two.games.map((g: { score: number }) => g.score)).toEqual(one.games.map((g: { score: number }) => g.score));
    const mcts = JSON.parse(runCli(['play', '-w', 'haskell', '--player', 'mcts', '--iterations', '40', '--rollout-depth', '5', '-n', '2', '--workers', '2', '--json']).stdout);
    const mcts1 = JSON.parse(runCli(['play', '-w', 'haskell', '--player', 'mcts', '--iterations', '40', '--rollout-depth', '5', '-n', '2', '--json']).stdout);
    expect(mcts.games.map((g: { score: number }) => g.score)).toEqual(mcts1.games.map((g: { score: number }) => g.score));
    const h = JSON.parse(runCli(['hint', '-w', 'haskell', '--player', 'minimax', '-d', '1', '--json', '2 4 0 0/2 8 0 0/0 0 0 0/0 0 0 0']).stdout);
    expect(['up', 'down', 'left', 'right']).toContain(h.best);
    const c = runCli(['compare', 'haskell', 'snake3', '--player', 'minimax', '-d', '1', '-n', '4', '--json']);
    expect(c.code, c.stderr).toBe(0);
    for (const workers of ['1', '2']) {
      const bad = runCli(['play', '--player', 'minimax', '-d', 'auto', '--workers', workers]);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim()).toBe('tune2048: minimax needs a fixed --depth (auto is for expectimax)');
    }
  });

  it('tunes a minimax player (fitness.player): the run is the same with 1 or 2 workers and exports its player', async () => {
    const config = smokeConfig({ space: { start: 'haskell', params: { empty: { min: 0, max: 300 }, descents: { min: 0, max: 100 } } }, fitness: { games: 4, depth: 1, player: 'minimax' } });
    const a = tempDb();
    const b = tempDb();
    const ra = await tuneToEnd(a, config, { workers: 1 });
    const rb = await tuneToEnd(b, config, { workers: 2 });
    expect(ra.outcome.status).toBe('finished');
    expect(dumpRun(b, rb.id)).toEqual(dumpRun(a, ra.id));
    const exported = JSON.parse(runCli(['export', '1', '--db', a, '--json']).stdout).weights;
    expect(exported.provenance.player).toBe('minimax');
  });
});
