/**
 * The decision screen (issue 66, part 4): a setting scored by how far its own moves fall short of a deeper
 * search's choice — the regret of its decisions, judged by the same network searched deeper — on positions
 * from its own games. A few games' decisions rank a strong network's settings where a few games' scores rank
 * them by luck (scripts/decision-screen.ts measured it against 300-game means: docs/results/decision-screen.md),
 * so a run may rank its candidates by it (fitness.screen: judgedMoves, in the worker's games).
 */
import type { Board } from '../engine/board';
import { playGame, type GameResult } from '../engine/game';
import type { Direction } from '../engine/moves';
import type { Decision, Player } from '../engine/player';
import { meanWithCI95 } from '../util/stats';

/** One decision of a game: the board and the move the player chose on it. */
export interface SampledDecision {
  board: Board;
  move: Direction;
}

/** The sampling both the script and a run's screen use: true for the 1st decision, the (every+1)-th, …; a game's end (no move) is none. */
function everyKth(every: number): (move: Direction | -1) => move is Direction {
  if (!(Number.isInteger(every) && every >= 1)) throw new Error(`every must be a positive integer, not ${every}`);
  let k = 0;
  return (move): move is Direction => move !== -1 && k++ % every === 0;
}

/**
 * A seeded game played by `player` to its end, with every `every`-th decision kept (the 1st, the
 * (every+1)-th, …): the game itself is the one playGame plays (the recording never changes a move).
 */
export function ownGameDecisions(player: Pick<Player, 'chooseMove'>, seed: number, every: number): { decisions: SampledDecision[]; game: GameResult } {
  const sampled = everyKth(every);
  const decisions: SampledDecision[] = [];
  const recorder = {
    chooseMove(board: Board): Direction | -1 {
      const move = player.chooseMove(board);
      if (sampled(move)) decisions.push({ board, move });
      return move;
    },
  };
  const game = playGame(recorder, seed);
  return { decisions, game };
}

/** What judges a decision: a player whose values for the four moves (NaN: illegal) are its estimate of each. */
export type Judge = Pick<Player, 'decide'>;

/**
 * The judge's regret of one decision: its best move's value minus the value of the move played (0 where they
 * agree). A move the judge calls illegal is a decision from another game or another rule set: an error.
 */
export function regretOf(decision: SampledDecision, judged: Decision): number {
  const played = judged.values[decision.move];
  if (Number.isNaN(played)) throw new Error(`the judge finds the move played (${decision.move}) illegal on its board: the decision is not of this game`);
  let best = -Infinity;
  for (const v of judged.values) if (!Number.isNaN(v) && v > best) best = v;
  return best - played;
}

export interface ScreenScore {
  /** Decisions judged. */
  positions: number;
  /** Mean regret over them, with its 95 % interval (Student's t). */
  meanRegret: number;
  low: number;
  high: number;
  /** The share of decisions on which the judge's best move is the one played. */
  agreement: number;
}

/** The decisions' regrets as the judge sees them, and their summary. */
export function judgeDecisions(decisions: readonly SampledDecision[], judge: Judge): ScreenScore & { regrets: number[] } {
  if (decisions.length === 0) throw new Error('no decisions to judge');
  const regrets = decisions.map((d) => regretOf(d, judge.decide(d.board)));
  const ci = meanWithCI95(regrets);
  return { positions: regrets.length, meanRegret: ci.mean, low: ci.low, high: ci.high, agreement: regrets.filter((r) => r === 0).length / regrets.length, regrets };
}

/**
 * A game's moves as `choose` makes them, every `every`-th decision (the 1st, the (every+1)-th, …) judged on
 * the way by `judge`: the moves are untouched. The judge's search shares the player's network machine, so its
 * positions are counted apart (`judgeNodes`) for the game's cost to stay the player's own.
 */
export function judgedMoves(choose: (board: Board) => Direction | -1, judge: Judge & Pick<Player, 'searchNodes'>, every: number): { chooseMove(board: Board): Direction | -1; meanRegret(): number | undefined; judgeNodes(): number } {
  const sampled = everyKth(every);
  let sum = 0;
  let judged = 0;
  let nodes = 0;
  return {
    chooseMove(board: Board): Direction | -1 {
      const move = choose(board);
      if (sampled(move)) {
        const before = judge.searchNodes?.() ?? 0;
        sum += regretOf({ board, move }, judge.decide(board));
        nodes += (judge.searchNodes?.() ?? 0) - before;
        judged++;
      }
      return move;
    },
    meanRegret: () => (judged > 0 ? sum / judged : undefined),
    judgeNodes: () => nodes,
  };
}
