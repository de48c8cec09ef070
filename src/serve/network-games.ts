/**
 * Network games the viewer watches live. A page cannot hold a network (hundreds of MB of tables, and a
 * search over shared memory), so the server plays it: one worker thread holds the networks, each loaded
 * once and kept (src/player/foreground.ts), and the page asks for one move at a time, so its play, pause,
 * step and speed work as for the games it plays itself. Each move comes back with the values the search
 * saw, the depth it searched and its milliseconds. The same seed plays the game `tune2048 play` plays.
 */
import { boardFromRanks, boardToRanks } from '../engine/board';
import { SeededGame } from '../engine/game';
import { applyMove, type Direction } from '../engine/moves';
import { foregroundPool, type PlayerPool } from '../player/foreground';
import type { NetworkPlayerSpec } from '../player/spec';
import type { OffThread } from '../util/off-thread';
import { InputError } from '../util/errors';

/** A game as the page draws it (the viewer's worker answers the same shape, src/web/client/protocol.ts). */
export interface NetworkGameState {
  type: 'state';
  /** The server's number of this game (the page's next step names it). */
  game: number;
  ranks: number[];
  score: number;
  moves: number;
  move: number | null;
  values: (number | null)[] | null;
  over: boolean;
  /** The last decision's search: the depth it searched and its milliseconds (on the server). */
  depth: number | null;
  ms: number | null;
}

/** Games kept at once; the least recently stepped is forgotten first (a page that asks for it is told to start again). */
const MAX_GAMES = 32;

export class NetworkGames {
  private pool: OffThread<PlayerPool> | null = null;
  private readonly games = new Map<number, { game: SeededGame; spec: NetworkPlayerSpec }>();
  private nextId = 1;

  private players(): OffThread<PlayerPool> {
    return (this.pool ??= foregroundPool());
  }

  /** A new game of `spec` on `seed`: its first board (no move yet). */
  start(spec: NetworkPlayerSpec, seed: number): NetworkGameState {
    const id = this.nextId++;
    const game = new SeededGame(seed);
    this.games.set(id, { game, spec });
    if (this.games.size > MAX_GAMES) this.games.delete(this.games.keys().next().value!);
    return { type: 'state', game: id, ranks: boardToRanks(game.board), score: 0, moves: 0, move: null, values: null, over: false, depth: null, ms: null };
  }

  /** The game's next move, decided on the server's thread. */
  async step(id: number): Promise<NetworkGameState> {
    const entry = this.games.get(id);
    if (!entry) throw new InputError(`no game ${id} on this server (it keeps the last ${MAX_GAMES}, and forgets them when it restarts): press play again`);
    // Most recently used last, so the oldest is forgotten first.
    this.games.delete(id);
    this.games.set(id, entry);
    const { game, spec } = entry;
    const d = await this.players().remote.decide(spec, game.board);
    if (d.move === -1) return { type: 'state', game: id, ranks: boardToRanks(game.board), score: game.score, moves: game.moves, move: null, values: null, over: true, depth: d.depth, ms: d.ms };
    game.play(d.move);
    return { type: 'state', game: id, ranks: boardToRanks(game.board), score: game.score, moves: game.moves, move: d.move, values: d.values.map((v) => (Number.isNaN(v) ? null : v)), over: false, depth: d.depth, ms: d.ms };
  }

  /** The best move of `spec` on a board the page set up, and every move's value (null: illegal). */
  async hint(spec: NetworkPlayerSpec, ranks: number[]): Promise<{ type: 'hint'; move: number | null; values: (number | null)[]; depth: number | null; ms: number }> {
    const board = boardFromRanks(ranks);
    const d = await this.players().remote.decide(spec, board);
    const legal = [0, 1, 2, 3].map((dir) => applyMove(board, dir as Direction).legal);
    return { type: 'hint', move: d.move === -1 ? null : d.move, values: d.values.map((v, i) => (legal[i] && !Number.isNaN(v) ? v : null)), depth: d.depth, ms: d.ms };
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}
