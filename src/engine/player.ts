/**
 * What every player of tune2048 offers, whatever its algorithm (expectimax, minimax, MCTS, …): one name
 * for one concept. The engine owns the interface because its game loop is what calls a player;
 * the players themselves live in src/player.
 */
import type { Board } from './board';
import type { Direction } from './moves';

export interface Decision {
  /** The move chosen, or -1 when no move is legal. */
  move: Direction | -1;
  /** What the player saw for up, down, left, right (NaN for an illegal move): search values or MCTS means. */
  values: number[];
}

export interface Player {
  /** The move to play, or -1 when no move is legal. */
  chooseMove(board: Board): Direction | -1;
  decide(board: Board): Decision;
  /**
   * The positions its search has expanded so far, a running count (the search's own: the same on every
   * machine, so a game's cost per move is a deterministic figure beside its time); absent for players that do not count.
   */
  searchNodes?(): number;
  /**
   * The depths its decisions searched so far, summed over the decisions that found a move, a running count
   * (with a time per move, the depth each one reached): over a game's moves, the depth it played at.
   */
  searchDepths?(): number;
}
