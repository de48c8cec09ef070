/**
 * Seed 003's search problem on the deterministic corner rules: from a start
 * board, reach a board holding tile M. Operators: the four moves (a move that
 * changes nothing is not applicable), each followed by the corner spawn. An
 * operator's cost is the move's merge score (`score`, seed 003's cost) or 1
 * (`moves`: the cost seed 003 proposed as future work, one that does not fight
 * the goal: merges are what reach M, and the merge score makes them dear);
 * a path's cost is their sum. Strategies: breadth-first, depth-first, iterative deepening,
 * greedy and A* (both over a binary heap), with seed 003's heuristics:
 *   h1 the doublings the largest tile still needs (t − r for tile 2^r, target 2^t);
 *   h2 the merge score those doublings earn: Σ_{k=r}^{t−1} 2^(k+1) = 2^(t+1) − 2^(r+1);
 *   h3 the merges needed to build the target from 2s when only the largest tile
 *      exists: (2^(t−1) − 1) − (2^(r−1) − 1) = 2^(t−1) − 2^(r−1).
 * and, for the moves cost (not seed 003's):
 *   h4 the 2s still to spawn: ⌈(M − Σ tiles) / 2⌉, at least h1 — a move spawns
 *      one 2 at most, so the board's sum grows by 2 at most, and M needs a sum
 *      of M; a move also raises the largest tile by one doubling at most.
 * With the moves cost h1 and h4 are admissible; h2 and h3 count merge score and
 * merges, not moves.
 * Graph search: a board already reached (at no higher cost, for A*) is not
 * expanded again — corner rules can cycle (a slide with every corner taken
 * spawns nothing), and the same board is reached by many move orders.
 * The goal test is on expansion (a node counts as expanded when it is popped).
 */
import { type Board, maxRank, tileSum } from '../engine/board';
import { applyMove, DIRECTION_NAMES, type Direction } from '../engine/moves';
import { cornerSpawn } from '../engine/rules';
import { MinHeap } from './heap';

export type Strategy = 'bfs' | 'dfs' | 'ids' | 'greedy' | 'astar';
export const STRATEGIES: readonly Strategy[] = ['bfs', 'dfs', 'ids', 'greedy', 'astar'];
export type HeuristicName = 'h1' | 'h2' | 'h3' | 'h4';
export const HEURISTICS: readonly HeuristicName[] = ['h1', 'h2', 'h3', 'h4'];
export type CostModel = 'score' | 'moves';
export const COST_MODELS: readonly CostModel[] = ['score', 'moves'];

export interface SolveOptions {
  target: number;
  strategy: Strategy;
  heuristic?: HeuristicName;
  /** An operator's cost: its merge score (default, seed 003's) or 1 (the path cost is then its length). */
  cost?: CostModel;
  /** Expanded nodes at most (memory and time bound); the search gives up beyond. */
  maxNodes: number;
}

export interface SolveResult {
  found: boolean;
  /** Why not found: the node limit, or the whole reachable space searched. */
  reason?: 'max-nodes' | 'exhausted';
  moves: string[];
  /** The path's cost in the cost model asked for. */
  cost: number;
  /** The path's merge score (its cost under seed 003's model, whatever the model). */
  score: number;
  expanded: number;
  ms: number;
}

interface SearchNode {
  board: Board;
  cost: number;
  score: number;
  depth: number;
  parent: SearchNode | null;
  move: Direction | -1;
}

const key = (b: Board) => `${b.hi},${b.lo}`;

export function heuristicValue(name: HeuristicName, board: Board, targetRank: number): number {
  const r = maxRank(board);
  if (r >= targetRank) return 0;
  if (name === 'h1') return targetRank - r;
  if (name === 'h2') return 2 ** (targetRank + 1) - 2 ** (r + 1);
  if (name === 'h4') return Math.max(targetRank - r, Math.ceil((2 ** targetRank - tileSum(board)) / 2));
  return 2 ** (targetRank - 1) - 2 ** Math.max(0, r - 1);
}

/** The successors of a board under the corner rules, in move order up, down, left, right. */
export function successors(board: Board): { move: Direction; board: Board; cost: number }[] {
  const out: { move: Direction; board: Board; cost: number }[] = [];
  for (const move of [0, 1, 2, 3] as Direction[]) {
    const r = applyMove(board, move);
    if (r.legal) out.push({ move, board: cornerSpawn(r.board), cost: r.score });
  }
  return out;
}

function path(node: SearchNode): string[] {
  const moves: string[] = [];
  for (let n: SearchNode | null = node; n && n.move !== -1; n = n.parent) moves.push(DIRECTION_NAMES[n.move]);
  return moves.reverse();
}

export function targetRankOf(target: number): number {
  const t = Math.log2(target);
  if (!Number.isInteger(t) || t < 2 || t > 15) throw new Error(`the target must be a tile value from 4 to 32768, got ${target}`);
  return t;
}

export function solve(start: Board, o: SolveOptions): SolveResult {
  const t0 = performance.now();
  const t = targetRankOf(o.target);
  const goal = (b: Board) => maxRank(b) >= t;
  const h = (b: Board) => heuristicValue(o.heuristic ?? 'h2', b, t);
  const stepCost = o.cost === 'moves' ? () => 1 : (score: number) => score;
  let expanded = 0;
  const done = (node: SearchNode | null, reason?: SolveResult['reason']): SolveResult => ({
    found: node !== null,
    ...(node ? {} : { reason }),
    moves: node ? path(node) : [],
    cost: node?.cost ?? 0,
    score: node?.score ?? 0,
    expanded,
    ms: performance.now() - t0,
  });
  const root: SearchNode = { board: start, cost: 0, score: 0, depth: 0, parent: null, move: -1 };

  if (o.strategy === 'ids') {
    // Depth-limited DFS with limits 0, 1, 2, …; nodes expanded count over every iteration.
    for (let limit = 0; ; limit++) {
      const seen = new Map<string, number>(); // board → shallowest depth reached in this iteration
      const stack: SearchNode[] = [root];
      let cutoff = false;
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (expanded >= o.maxNodes) return done(null, 'max-nodes');
        expanded++;
        if (goal(node.board)) return done(node);
        if (node.depth === limit) {
          cutoff ||= successors(node.board).length > 0;
          continue;
        }
        const children = successors(node.board);
        for (let i = children.length - 1; i >= 0; i--) {
          const c = children[i];
          const k = key(c.board);
          const prev = seen.get(k);
          if (prev !== undefined && prev <= node.depth + 1) continue;
          seen.set(k, node.depth + 1);
          stack.push({ board: c.board, cost: node.cost + stepCost(c.cost), score: node.score + c.cost, depth: node.depth + 1, parent: node, move: c.move });
        }
      }
      if (!cutoff) return done(null, 'exhausted');
    }
  }

  // One frontier for the others: FIFO (bfs), LIFO (dfs) or a heap ordered by h (greedy) or g + h (astar).
  const heap = new MinHeap<SearchNode>();
  const fifo: SearchNode[] = [];
  let head = 0;
  const push = (n: SearchNode) => {
    if (o.strategy === 'greedy') heap.push(h(n.board), n);
    else if (o.strategy === 'astar') heap.push(n.cost + h(n.board), n);
    else fifo.push(n);
  };
  const pop = (): SearchNode | undefined => {
    if (o.strategy === 'greedy' || o.strategy === 'astar') return heap.pop();
    if (o.strategy === 'dfs') return fifo.pop();
    return head < fifo.length ? fifo[head++] : undefined;
  };
  const best = new Map<string, number>(); // board → lowest path cost it was reached with
  best.set(key(start), 0);
  push(root);
  for (let node = pop(); node; node = pop()) {
    if (o.strategy === 'astar' && node.cost > (best.get(key(node.board)) ?? Infinity)) continue; // a stale entry
    if (expanded >= o.maxNodes) return done(null, 'max-nodes');
    expanded++;
    if (goal(node.board)) return done(node);
    const children = successors(node.board);
    // DFS takes the first move (up) first: push in reverse.
    const ordered = o.strategy === 'dfs' ? children.reverse() : children;
    for (const c of ordered) {
      const k = key(c.board);
      const cost = node.cost + stepCost(c.cost);
      const prev = best.get(k);
      if (prev !== undefined && (o.strategy !== 'astar' || prev <= cost)) continue;
      best.set(k, cost);
      push({ board: c.board, cost, score: node.score + c.cost, depth: node.depth + 1, parent: node, move: c.move });
    }
    if (o.strategy === 'bfs' && head > 65536 && head * 2 > fifo.length) {
      fifo.splice(0, head); // keep the FIFO's memory to what is still queued
      head = 0;
    }
  }
  return done(null, 'exhausted');
}

/** Replays a solution's moves under the corner rules: the board reached and the cost paid in a cost model (for checks). */
export function replay(start: Board, moves: readonly string[], model: CostModel = 'score'): { board: Board; cost: number; score: number } {
  let board = start;
  let cost = 0;
  for (const name of moves) {
    const dir = DIRECTION_NAMES.indexOf(name as (typeof DIRECTION_NAMES)[number]) as Direction;
    const r = applyMove(board, dir);
    if (!r.legal) throw new Error(`move ${name} is not legal on the way`);
    cost += r.score;
    board = cornerSpawn(r.board);
  }
  return { board, cost: model === 'moves' ? moves.length : cost, score: cost };
}
