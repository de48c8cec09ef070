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

/**
 * A game being played: `advance()` plays it to the end; `advance(untilMs)` stops early when the clock
 * passes untilMs (performance.now()), so an async caller can yield to the event loop between slices.
 */
export class GameInPlay {
  private readonly started = performance.now();
  private readonly game: SeededGame;
  private readonly maxMoves: number;
  // Corner rules are deterministic, and a move with every corner taken spawns nothing: a deterministic
  // player that meets a board again would loop forever, so the game ends there (it cannot progress).
  private readonly seen: Set<string> | null;
  done = false;

  constructor(
    private readonly player: MoveSource,
    private readonly seed: number,
    options: PlayGameOptions = {},
  ) {
    this.game = new SeededGame(seed, options.rules);
    this.maxMoves = options.maxMoves ?? Infinity;
    this.seen = options.rules === 'corner' ? new Set<string>() : null;
  }

  /** Plays until the game ends (true) or, with untilMs, until the clock passes it (false). */
  advance(untilMs = Infinity): boolean {
    const { game, seen } = this;
    while (!this.done && game.moves < this.maxMoves) {
      if (seen) {
        const key = `${game.board.hi},${game.board.lo}`;
        if (seen.has(key)) break;
        seen.add(key);
      }
      const dir = this.player.chooseMove(game.board);
      if (dir === -1) break;
      game.play(dir);
      if (untilMs !== Infinity && performance.now() > untilMs) return false;
    }
    this.done = true;
    return true;
  }

  result(): GameResult {
    const { game } = this;
    return { seed: this.seed, score: game.score, maxTile: game.maxTile(), moves: game.moves, ms: performance.now() - this.started, finalBoard: game.board };
  }
}

export function playGame(player: MoveSource, seed: number, options: PlayGameOptions = {}): GameResult {
  const game = new GameInPlay(player, seed, options);
  game.advance();
  return game.result();
}

/**
 * The same game, yielding to the event loop every `sliceMs`: a signal (Ctrl-C) is handled within a slice
 * instead of at the end of a game that may take minutes (depth 4, one process).
 */
export async function playGameAsync(player: MoveSource, seed: number, options: PlayGameOptions = {}, sliceMs = 50): Promise<GameResult> {
  const game = new GameInPlay(player, seed, options);
  while (!game.advance(performance.now() + sliceMs)) await new Promise((resolve) => setImmediate(resolve));
  return game.result();
}
