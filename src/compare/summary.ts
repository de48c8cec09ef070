/** Summaries of sets of games: the numbers every report of tune2048 prints. */
import type { GameResult } from '../engine/game';
import { mean, median, stdev } from '../util/stats';

export const REACH_TILES = [2048, 4096, 8192, 16384, 32768] as const;

/** The reach columns of every table (CLI, report, dashboard): their headers… */
export const REACH_HEADERS: readonly string[] = REACH_TILES.map(String);

/** …and a summary's cells under them, as percentages with one decimal ("68.0%"). */
export function reachCells(s: Pick<GameSummary, 'reach'>): string[] {
  return REACH_TILES.map((t) => `${(100 * (s.reach[t] ?? 0)).toFixed(1)}%`);
}

export interface GameSummary {
  games: number;
  meanScore: number;
  medianScore: number;
  stdevScore: number;
  maxScore: number;
  /** Share of games whose largest tile reached each value, keyed by tile. */
  reach: Record<string, number>;
  movesPerGame: number;
  msPerMove: number;
  /** The search's cost a move (nodes it expanded over moves), when every game counted it: the same on every machine. */
  nodesPerMove?: number;
  /** The depth searched a move (depths over moves), when every game counted it: with a time per move, how deep it reached. */
  meanDepth?: number;
}

/** What a summary reads of a game (a PlayedGame, a GameResult). */
export type GameRecord = Pick<GameResult, 'score' | 'maxTile' | 'moves' | 'ms' | 'nodes' | 'depths'>;

/**
 * A search's cost a move over some games: the positions it expanded over the moves it made (Σ nodes / Σ moves),
 * or undefined when a game did not count them (or there are none). The one definition: summaries, fronts, the
 * cost ceiling and the model's cost all read it.
 */
export function costPerMove(games: readonly Pick<GameRecord, 'nodes' | 'moves'>[]): number | undefined {
  if (games.length === 0 || games.some((g) => g.nodes === undefined)) return undefined;
  const moves = games.reduce((s, g) => s + g.moves, 0);
  return moves ? games.reduce((s, g) => s + g.nodes!, 0) / moves : 0;
}

export function summarizeGames(games: readonly GameRecord[]): GameSummary {
  const scores = games.map((g) => g.score);
  const totalMoves = games.reduce((s, g) => s + g.moves, 0);
  const totalMs = games.reduce((s, g) => s + g.ms, 0);
  const reach: Record<string, number> = {};
  for (const tile of REACH_TILES) reach[tile] = games.length ? games.filter((g) => g.maxTile >= tile).length / games.length : 0;
  return {
    games: games.length,
    meanScore: mean(scores),
    medianScore: median(scores),
    stdevScore: stdev(scores),
    maxScore: games.length ? Math.max(...scores) : NaN,
    reach,
    movesPerGame: games.length ? totalMoves / games.length : NaN,
    msPerMove: totalMoves ? totalMs / totalMoves : NaN,
    ...(costPerMove(games) !== undefined ? { nodesPerMove: costPerMove(games) } : {}),
    ...(games.length > 0 && games.every((g) => g.depths !== undefined) ? { meanDepth: totalMoves ? games.reduce((s, g) => s + g.depths!, 0) / totalMoves : 0 } : {}),
  };
}
