/**
 * The solver: weights + search settings → a player. This is what the tuner
 * scores and what exported weights are played with.
 */
import type { Board } from '../engine/board';
import { GameResult, playGame } from '../engine/game';
import { buildHeuristicTables, HeuristicTables } from '../heuristic/tables';
import type { Weights } from '../heuristic/weights';
import { createSearcher, Searcher, SearchSettings } from '../search/expectimax';
import type { PlayerSpec } from './spec';

export function createSolver(weights: Weights, settings: Partial<SearchSettings> = {}): Searcher {
  return createSearcher(buildHeuristicTables(weights), settings);
}

/** The player a spec describes (the default transposition table unless it says otherwise: the same game everywhere). */
export function createPlayer(spec: PlayerSpec): Searcher {
  return createSolver(spec.weights, spec.search);
}

/** Seed of game i of a set started at `seed`: consecutive integers, easy to replay one by one. */
export function gameSeed(seed: number, index: number): number {
  return seed + index;
}

export interface PlayGamesOptions {
  games: number;
  seed: number;
  onGame?: (result: GameResult, index: number) => void;
}

export function playGames(solver: Searcher, options: PlayGamesOptions): GameResult[] {
  const results: GameResult[] = [];
  for (let i = 0; i < options.games; i++) {
    const r = playGame(solver, gameSeed(options.seed, i));
    results.push(r);
    options.onGame?.(r, i);
  }
  return results;
}

/** The best move for one board (-1 when the game is over). */
export function bestMove(board: Board, weights: Weights | HeuristicTables, settings: Partial<SearchSettings> = {}): number {
  const tables = 'lineTable' in weights ? weights : buildHeuristicTables(weights);
  return createSearcher(tables, settings).chooseMove(board);
}
