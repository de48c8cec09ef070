import { describe, expect, it } from 'vitest';
import { countEmpty, rankAt } from '../src/engine/board';
import { playGame, Player } from '../src/engine/game';
import { applyMove, legalMoves } from '../src/engine/moves';
import { createRng, initialBoard, spawnTile } from '../src/engine/spawn';
import { loadWeights } from '../src/heuristic/weights';
import { createExpectimaxPlayer } from '../src/player/expectimax';

/** A deterministic player that also records every board it was shown. */
function recordingPlayer(): Pick<Player, 'chooseMove'> & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    chooseMove(board) {
      seen.push(`${board.lo},${board.hi}`);
      const legal = legalMoves(board);
      return legal.length ? legal[seen.length % legal.length] : -1;
    },
  };
}

describe('seeded games', () => {
  it('the same seed gives the same game, board for board', () => {
    const a = recordingPlayer();
    const b = recordingPlayer();
    const ra = playGame(a, 42);
    const rb = playGame(b, 42);
    expect(a.seen).toEqual(b.seen);
    expect({ ...ra, ms: 0 }).toEqual({ ...rb, ms: 0 });
  });

  it('different seeds give different games', () => {
    const firsts = new Set<string>();
    for (let s = 0; s < 20; s++) {
      const p = recordingPlayer();
      playGame(p, s, { maxMoves: 30 });
      firsts.add(p.seen.join(';'));
    }
    expect(firsts.size).toBe(20);
  });

  it('a game starts with two tiles and ends when no move is legal', () => {
    const p = recordingPlayer();
    const r = playGame(p, 7);
    expect(legalMoves(r.finalBoard)).toEqual([]);
    const rng = createRng(7);
    expect(16 - countEmpty(initialBoard(rng))).toBe(2);
  });

  it('spawns 2 with probability 0.9 on a uniformly chosen empty cell', () => {
    const rng = createRng('spawn-stats');
    const cellCounts = new Array(16).fill(0);
    let fours = 0;
    const n = 40000;
    for (let i = 0; i < n; i++) {
      const b = spawnTile({ lo: 0, hi: 0 }, rng);
      for (let k = 0; k < 16; k++) {
        const r = rankAt(b, k);
        if (r !== 0) {
          cellCounts[k]++;
          if (r === 2) fours++;
        }
      }
    }
    expect(fours / n).toBeGreaterThan(0.093);
    expect(fours / n).toBeLessThan(0.107);
    for (const c of cellCounts) expect(Math.abs(c - n / 16)).toBeLessThan(0.1 * (n / 16));
  });

  it('the score is the sum of merged tile values', () => {
    const solver = createExpectimaxPlayer(loadWeights('nneonneo'), { depth: 1 });
    const rng = createRng(3);
    let board = initialBoard(rng);
    let score = 0;
    for (let i = 0; i < 300; i++) {
      const dir = solver.chooseMove(board);
      if (dir === -1) break;
      const m = applyMove(board, dir);
      score += m.score;
      board = spawnTile(m.board, rng);
    }
    const replay = playGame(solver, 3, { maxMoves: 300 });
    expect(replay.score).toBe(score);
    expect(replay.finalBoard).toEqual(board);
  });
});
