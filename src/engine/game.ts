/** Whole seeded games: spawn, ask the player, move, repeat until no move is legal. */
import { Board, maxRank } from './board';
import { Direction, applyMove } from './moves';
import { createRng, initialBoard, spawnTile } from './spawn';

/** Anything that picks a legal move for a board, or -1 when there is none. */
export interface Player {
  chooseMove(board: Board): Direction | -1;
}

export interface GameResult {
  seed: number;
  score: number;
  maxTile: number;
  moves: number;
  ms: number;
  finalBoard: Board;
}

export interface PlayGameOptions {
  /** Stop after this many moves (for tests and benchmarks); the game is then unfinished. */
  maxMoves?: number;
}

export function playGame(player: Player, seed: number, options: PlayGameOptions = {}): GameResult {
  const started = performance.now();
  const rng = createRng(seed);
  const maxMoves = options.maxMoves ?? Infinity;
  let board = initialBoard(rng);
  let score = 0;
  let moves = 0;
  while (moves < maxMoves) {
    const dir = player.chooseMove(board);
    if (dir === -1) break;
    const result = applyMove(board, dir);
    if (!result.legal) throw new Error(`player chose the illegal move ${dir}`);
    score += result.score;
    board = spawnTile(result.board, rng);
    moves++;
  }
  return { seed, score, maxTile: 2 ** maxRank(board), moves, ms: performance.now() - started, finalBoard: board };
}
