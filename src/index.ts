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
export { createSearcher, DEFAULT_SEARCH, type Searcher, type SearchSettings, type SearchStats, type MoveEvaluation, type DepthSetting } from './search/expectimax';
export { createSolver, playGames, gameSeed, bestMove } from './solver/solver';
export { summarizeGames, REACH_TILES, type GameSummary } from './solver/summary';
export { InputError } from './util/errors';
export { expectimaxSpec, type PlayerSpec, type SearchSpec } from './solver/spec';
export { openRunner, withRunner, playSeeds, defaultWorkers, type GameRunner, type RunnerOptions } from './runner/runner';
export { RunnerError, RunnerStoppedError } from './runner/errors';
export { compareWeights, compareSequential, type Comparison, type Contender } from './compare/compare';
