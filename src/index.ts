/**
 * The tune2048 library: what the CLI, the scripts and the tests use.
 */
export {
  type Board,
  parseBoard,
  formatBoard,
  prettyBoard,
  boardFromGrid,
  boardToGrid,
  boardFromRanks,
  boardToRanks,
  maxRank,
  countEmpty,
  countDistinctTiles,
  transpose,
} from './engine/board';
export { UP, DOWN, LEFT, RIGHT, DIRECTIONS, DIRECTION_NAMES, directionFromName, applyMove, legalMoves, isGameOver, type Direction, type DirectionName, type MoveResult } from './engine/moves';
export { createRng, spawnTile, initialBoard, type Rng } from './engine/spawn';
export { playGame, type Player, type GameResult } from './engine/game';
export { loadWeights, parseWeights, listPresets, weightsSchema, WEIGHTS_FORMAT, WEIGHTS_VERSION, type Weights } from './heuristic/weights';
export { buildHeuristicTables, type HeuristicTables } from './heuristic/tables';
export { createExpectimaxPlayer, DEFAULT_SEARCH, type ExpectimaxPlayer, type SearchSettings, type SearchStats, type MoveEvaluation, type DepthSetting } from './player/expectimax';
export { createPlayer, playGames, gameSeed, bestMove } from './player/players';
// The names of 0.1 (one concept had four: Player, GamePlayer, Searcher, "solver"), kept for existing callers.
export { createExpectimaxPlayer as createSolver, createExpectimaxPlayer as createSearcher, type ExpectimaxPlayer as Searcher } from './player/expectimax';
export type { Player as GamePlayer, Decision } from './engine/player';
export { summarizeGames, REACH_TILES, type GameSummary } from './compare/summary';
export { InputError, RunnerError, RunnerStoppedError } from './util/errors';
export { expectimaxSpec, playerSpec, playerKey, PLAYER_KINDS, type PlayerKind, type PlayerSpec, type SearchSpec } from './player/spec';
export { openRunner, withRunner, playSeeds, defaultWorkers, type GameRunner, type RunnerOptions } from './runner/runner';
export { compareWeights, compareSequential, type Comparison, type Contender } from './compare/compare';
