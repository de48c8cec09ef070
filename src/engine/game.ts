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

/**
 * One seeded game, a move at a time (the viewer steps through it; playGame runs it to the end): the same
 * seed and the same moves give the same spawns everywhere.
 */
export class SeededGame {
  private readonly rng: ReturnType<typeof createRng>;
  board: Board;
  score = 0;
  moves = 0;

  constructor(readonly seed: number) {
    this.rng = createRng(seed);
    this.board = initialBoard(this.rng);
  }

  /** Plays a legal move and spawns the next tile; returns the merge score it earned. */
  play(dir: Direction): number {
    const result = applyMove(this.board, dir);
    if (!result.legal) throw new Error(`player chose the illegal move ${dir}`);
    this.score += result.score;
    this.board = spawnTile(result.board, this.rng);
    this.moves++;
    return result.score;
  }

  maxTile(): number {
    return 2 ** maxRank(this.board);
  }
}

export function playGame(player: Player, seed: number, options: PlayGameOptions = {}): GameResult {
  const started = performance.now();
  const game = new SeededGame(seed);
  const maxMoves = options.maxMoves ?? Infinity;
  while (game.moves < maxMoves) {
    const dir = player.chooseMove(game.board);
    if (dir === -1) break;
    game.play(dir);
  }
  return { seed, score: game.score, maxTile: game.maxTile(), moves: game.moves, ms: performance.now() - started, finalBoard: game.board };
}
