/**
 * Players from their descriptions: a PlayerSpec (what travels to a worker) → the player that plays it,
 * and the helpers that play whole sets of seeded games with one.
 */
import type { Board } from '../engine/board';
import { moveLetters, type Direction } from '../engine/moves';
import { GameResult, playGame, type PlayedGame, type PlayGameOptions } from '../engine/game';
import type { Rules } from '../engine/rules';
import type { HeuristicTables } from '../heuristic/tables';
import type { Weights } from '../heuristic/weights';
import { createExpectimaxPlayer, type SearchSettings } from './expectimax';
import { createMctsPlayer } from './mcts';
import { createMinimaxPlayer } from './minimax';
import type { Player } from '../engine/player';
import { InputError } from '../util/errors';
import { MCTS_DEFAULTS, playerKey, type HeuristicPlayerSpec, type NetworkPlayerSpec, type PlayerSpec } from './spec';
import { sleepMs, syntheticGame } from './synthetic';
import { createNetworkPlayer } from './network-player';
import { judgedMoves } from './decision-screen';

/** The player a spec describes (expectimax: the default transposition table unless it says otherwise: the same game everywhere). */
export function createPlayer(spec: PlayerSpec): Player {
  if (spec.kind === 'external') throw new InputError(`the external player ${spec.external.name} answers asynchronously: play it through playExternalGames (src/player/external/play.ts)`);
  if (spec.kind === 'network') return createNetworkPlayer(spec);
  const s = spec.search;
  switch (spec.kind) {
    case 'expectimax':
      return createExpectimaxPlayer(spec.weights, { depth: s.depth, cprob: s.cprob, ...(s.cacheMB !== undefined ? { cacheMB: s.cacheMB } : {}), ...(s.threads !== undefined ? { threads: s.threads } : {}), ...(s.msPerMove !== undefined ? { msPerMove: s.msPerMove } : {}) });
    case 'minimax':
      if (s.depth === 'auto') throw new InputError('minimax needs a fixed --depth (auto is for expectimax)');
      return createMinimaxPlayer(spec.weights, { depth: s.depth });
    case 'mcts':
    case 'mcts-emm': {
      const d = MCTS_DEFAULTS[spec.kind];
      const settings = { iterations: s.iterations ?? d.iterations, c: s.c ?? d.c, rolloutDepth: s.rolloutDepth ?? d.rolloutDepth, depth: s.depth === 'auto' ? 1 : s.depth, cprob: s.cprob };
      return createMctsPlayer(spec.weights, settings, spec.kind === 'mcts' ? 'random' : 'expectimax');
    }
    case 'synthetic':
      throw new InputError('the synthetic player plays no moves (it draws whole games from a known landscape): it is for run configs, tests and benches');
  }
}

/** A player as a game needs it: its moves, and the counters of its search (cost, depth) when it keeps them. */
export type CountedPlayer = Pick<Player, 'chooseMove' | 'searchNodes' | 'searchDepths'>;

/** A player whose moves go through `choose` (to watch or record them), with the player's counters if it has them. */
export function wrapMoves(player: CountedPlayer, choose: (board: Board) => Direction | -1): CountedPlayer {
  return { chooseMove: choose, ...(player.searchNodes ? { searchNodes: () => player.searchNodes!() } : {}), ...(player.searchDepths ? { searchDepths: () => player.searchDepths!() } : {}) };
}

/** A seeded game with its cost, the positions the player's search expanded in it, and the depths it searched (when it counts them). */
export function playCounted(player: CountedPlayer, seed: number, options?: PlayGameOptions): GameResult {
  const before = player.searchNodes?.();
  const depthsBefore = player.searchDepths?.();
  const r = playGame(player, seed, options);
  return { ...r, ...(before !== undefined ? { nodes: player.searchNodes!() - before } : {}), ...(depthsBefore !== undefined ? { depths: player.searchDepths!() - depthsBefore } : {}) };
}

/** One seeded game of a spec: played by its player (made once by the caller), or drawn (the synthetic player). */
export function playSpecGame(spec: HeuristicPlayerSpec | NetworkPlayerSpec, seed: number, player: () => CountedPlayer): PlayedGame {
  if (spec.kind === 'synthetic') {
    // A game's draw depends on the player, not on how long it is made to take.
    const game = syntheticGame(spec.weights, spec.synthetic!, playerKey({ ...spec, synthetic: { ...spec.synthetic!, gameMs: 0 } }), seed);
    sleepMs(spec.synthetic!.gameMs);
    return game;
  }
  const p = player();
  // A network's moves are kept (as an external player's are): a page cannot hold the network, but replays its games.
  const moves: Direction[] | null = spec.kind === 'network' ? [] : null;
  const recorded = (b: Board): Direction | -1 => {
    const m = p.chooseMove(b);
    if (m !== -1) moves!.push(m);
    return m;
  };
  // The decision screen (fitness.screen): every k-th decision judged by the plain network searched deeper.
  const screen = spec.kind === 'network' && spec.screen ? judgedMoves(recorded, createNetworkPlayer({ network: spec.network, search: { depth: spec.screen.depth, cprob: spec.screen.cprob } }), spec.screen.every) : null;
  const r = playCounted(moves ? wrapMoves(p, screen ? screen.chooseMove : recorded) : p, seed);
  const regret = screen?.meanRegret();
  // The judge searched on the player's machine: its positions are not the player's cost.
  const nodes = r.nodes !== undefined && screen ? r.nodes - screen.judgeNodes() : r.nodes;
  return { seed, score: r.score, maxTile: r.maxTile, moves: r.moves, ms: r.ms, ...(moves ? { moveList: moveLetters(moves) } : {}), ...(nodes !== undefined ? { nodes } : {}), ...(r.depths !== undefined ? { depths: r.depths } : {}), ...(regret !== undefined ? { regret } : {}) };
}

/** Seed of game i of a set started at `seed`: consecutive integers, easy to replay one by one. */
export function gameSeed(seed: number, index: number): number {
  return seed + index;
}

export interface PlayGamesOptions {
  games: number;
  seed: number;
  rules?: Rules;
  onGame?: (result: GameResult, index: number) => void;
}

export function playGames(player: Pick<Player, 'chooseMove'>, options: PlayGamesOptions): GameResult[] {
  const results: GameResult[] = [];
  for (let i = 0; i < options.games; i++) {
    const r = playGame(player, gameSeed(options.seed, i), { rules: options.rules });
    results.push(r);
    options.onGame?.(r, i);
  }
  return results;
}

/** The best move for one board (-1 when the game is over). */
export function bestMove(board: Board, heuristic: Weights | HeuristicTables, settings: Partial<SearchSettings> = {}): number {
  return createExpectimaxPlayer(heuristic, settings).chooseMove(board);
}
