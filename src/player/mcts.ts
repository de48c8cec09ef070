/**
 * Seed 004's Monte Carlo tree search players. Open-loop MCTS: the tree is over
 * move sequences from the current board; every iteration samples the tile
 * spawns along its path afresh, so a node's mean is over the spawns too.
 *   selection: UCB1 = mean + C·sqrt(ln(parent visits) / visits) among fully
 *              expanded nodes; expansion: the first untried legal move;
 *   simulation (rollout): `rolloutDepth` moves, random (`mcts`) or chosen by
 *              expectimax at `depth` (`mcts-emm`, seed 004's MCTSxEMM);
 *   backpropagation: the iteration's reward into every node of its path.
 * Reward: the merge score earned from the root to the end of the rollout,
 * divided by 2·(largest tile on the root board)·(rolloutDepth + 1), so it is
 * about 0…1 and C keeps the meaning UCB1 gives it for bounded rewards (seed 004
 * found C = 1.4 misbehaving on its unbounded heuristic). The move played is the
 * root child visited most.
 *
 * Seeded: every decision draws its random numbers from a generator seeded by
 * the board itself, so a game seed gives the same game on any machine, in any
 * batch, with any number of workers.
 */
import { type Board, maxRank } from '../engine/board';
import { applyMove, type Direction } from '../engine/moves';
import { createRng, spawnTile, type Rng } from '../engine/spawn';
import type { Weights } from '../heuristic/weights';
import { createExpectimaxPlayer, type ExpectimaxPlayer } from './expectimax';
import type { Decision, Player } from '../engine/player';

export interface MctsSettings {
  iterations: number;
  /** UCB1's exploration constant. */
  c: number;
  rolloutDepth: number;
  /** mcts-emm: the expectimax depth of rollout moves; and its probability cutoff. */
  depth?: number;
  cprob?: number;
}

interface TreeNode {
  visits: number;
  total: number;
  children: (TreeNode | null)[];
}

const newNode = (): TreeNode => ({ visits: 0, total: 0, children: [null, null, null, null] });

export function createMctsPlayer(weights: Weights, settings: MctsSettings, rollouts: 'random' | 'expectimax'): Player {
  const emm: ExpectimaxPlayer | null = rollouts === 'expectimax' ? createExpectimaxPlayer(weights, { depth: settings.depth ?? 1, cprob: settings.cprob ?? 1e-4 }) : null;

  function legal(board: Board): { dir: Direction; board: Board; score: number }[] {
    const out: { dir: Direction; board: Board; score: number }[] = [];
    for (let d = 0; d < 4; d++) {
      const r = applyMove(board, d as Direction);
      if (r.legal) out.push({ dir: d as Direction, board: r.board, score: r.score });
    }
    return out;
  }

  function rollout(board: Board, rng: Rng): number {
    let gained = 0;
    for (let i = 0; i < settings.rolloutDepth; i++) {
      let dir: Direction | -1;
      if (emm) dir = emm.chooseMove(board);
      else {
        const moves = legal(board);
        dir = moves.length === 0 ? -1 : moves[Math.floor(rng() * moves.length)].dir;
      }
      if (dir === -1) break;
      const r = applyMove(board, dir);
      gained += r.score;
      board = spawnTile(r.board, rng);
    }
    return gained;
  }

  function decide(board: Board): Decision {
    const rootMoves = legal(board);
    if (rootMoves.length === 0) return { move: -1, values: [NaN, NaN, NaN, NaN] };
    const rng = createRng(`mcts:${board.hi}:${board.lo}`);
    const scale = 2 ** (maxRank(board) + 1) * (settings.rolloutDepth + 1);
    const root = newNode();
    for (let it = 0; it < settings.iterations; it++) {
      let node = root;
      let b = board;
      let gained = 0;
      const path = [root];
      for (;;) {
        const moves = legal(b);
        if (moves.length === 0) break;
        const untried = moves.find((m) => node.children[m.dir] === null);
        let pick: (typeof moves)[number];
        if (untried) {
          pick = untried;
          node.children[pick.dir] = newNode();
        } else {
          const logN = Math.log(node.visits);
          let best = -Infinity;
          pick = moves[0];
          for (const m of moves) {
            const child = node.children[m.dir]!;
            const ucb = child.total / child.visits + settings.c * Math.sqrt(logN / child.visits);
            if (ucb > best) {
              best = ucb;
              pick = m;
            }
          }
        }
        node = node.children[pick.dir]!;
        path.push(node);
        gained += pick.score;
        b = spawnTile(pick.board, rng);
        if (untried) break; // expanded: simulate from here
      }
      const reward = (gained + rollout(b, rng)) / scale;
      for (const n of path) {
        n.visits++;
        n.total += reward;
      }
    }
    const values = [0, 1, 2, 3].map((d) => {
      const child = root.children[d];
      return child && child.visits > 0 ? (child.total / child.visits) * scale : NaN;
    });
    let move: Direction = rootMoves[0].dir;
    for (const m of rootMoves) {
      const a = root.children[m.dir];
      const b = root.children[move];
      if (a && b && (a.visits > b.visits || (a.visits === b.visits && values[m.dir] > values[move]))) move = m.dir;
    }
    return { move, values };
  }

  return { decide, chooseMove: (board) => decide(board).move };
}
