/** Whole seeded games: spawn, ask the player, move, repeat until no move is legal. */
import { Board, maxRank } from './board';
import { Direction, applyMove } from './moves';
import { cornerSpawn, cornerStart, type Rules } from './rules';
import type { Player } from './player';
import { createRng, initialBoard, spawnTile } from './spawn';

export type { Decision, Player } from './player';

/** What the game loop asks of a player: only its moves. */
type MoveSource = Pick<Player, 'chooseMove'>;

/** One played game as every part of tune2048 keeps it: a batch's result, the games table, compare_games. */
export interface PlayedGame {
  seed: number;
  score: number;
  maxTile: number;
  moves: number;
  ms: number;
  /**
   * The moves, one letter each (u d l r), for games whose player the viewer cannot run (an external
   * program): a run keeps them for its held-out games, so the viewer can replay them.
   */
  moveList?: string;
  /** Positions the player's search expanded in the game (its cost: nodes / moves a move); absent for players that do not count. */
  nodes?: number;
  /** The depths its decisions searched, summed over its moves (players that count them: searchDepths). */
  depths?: number;
  /**
   * A screened game's (fitness.screen) mean regret: every k-th decision judged by the network searched deeper, its
   * best move's value less the played one's (src/player/decision-screen.ts). Absent: not screened.
   */
  regret?: number;
}

export interface GameResult extends PlayedGame {
  finalBoard: Board;
}

export interface PlayGameOptions {
  /** Stop after this many moves (for tests and benchmarks); the game is then unfinished. */
  maxMoves?: number;
  /** classic (default): random spawns from the seed; corner: seed 003's deterministic corner spawns. */
  rules?: Rules;
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

  constructor(
    readonly seed: number,
    readonly rules: Rules = 'classic',
  ) {
    this.rng = createRng(seed);
    this.board = rules === 'corner' ? cornerStart() : initialBoard(this.rng);
  }

  /** Plays a legal move and spawns the next tile; returns the merge score it earned. */
  play(dir: Direction): number {
    const result = applyMove(this.board, dir);
    if (!result.legal) throw new Error(`player chose the illegal move ${dir}`);
    this.score += result.score;
    this.board = this.rules === 'corner' ? cornerSpawn(result.board) : spawnTile(result.board, this.rng);
    this.moves++;
    return result.score;
  }

  maxTile(): number {
    return 2 ** maxRank(this.board);
  }
}

export function playGame(player: MoveSource, seed: number, options: PlayGameOptions = {}): GameResult {
  const started = performance.now();
  const game = new SeededGame(seed, options.rules);
  const maxMoves = options.maxMoves ?? Infinity;
  // Corner rules are deterministic, and a move with every corner taken spawns nothing: a deterministic
  // player that meets a board again would loop forever, so the game ends there (it cannot progress).
  const seen = options.rules === 'corner' ? new Set<string>() : null;
  while (game.moves < maxMoves) {
    if (seen) {
      const key = `${game.board.hi},${game.board.lo}`;
      if (seen.has(key)) break;
      seen.add(key);
    }
    const dir = player.chooseMove(game.board);
    if (dir === -1) break;
    game.play(dir);
  }
  return { seed, score: game.score, maxTile: game.maxTile(), moves: game.moves, ms: performance.now() - started, finalBoard: game.board };
}
