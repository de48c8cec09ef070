/** What every player of tune2048 offers, whatever its algorithm. */
import type { Board } from '../engine/board';
import type { Direction } from '../engine/moves';

export interface Decision {
  /** The move chosen, or -1 when no move is legal. */
  move: Direction | -1;
  /** What the player saw for up, down, left, right (NaN for an illegal move): search values or MCTS means. */
  values: number[];
}

export interface GamePlayer {
  chooseMove(board: Board): Direction | -1;
  decide(board: Board): Decision;
}
