/**
 * The viewer's player, in a Web Worker: the same engine, heuristic tables and
 * WebAssembly search as `tune2048 play` (bundled from src/), so a seed gives
 * the same game in the page as on the command line. In a worker the page
 * stays responsive at depth 3 and beyond, and the module can be compiled
 * synchronously (browsers forbid that on the main thread for modules > 4 KB).
 */
import { boardFromRanks, boardToRanks } from '../../engine/board';
import { SeededGame } from '../../engine/game';
import { applyMove } from '../../engine/moves';
import { parseWeights } from '../../heuristic/weights';
import { registerNetwork } from '../../learn/table-file';
import type { Player } from '../../engine/player';
import { createPlayer } from '../../player/players';
import { playerSpec, type PlayerKind } from '../../player/spec';
import { loadSearchModule } from '../../wasm/module';
import type { WorkerReply, WorkerRequest } from './protocol';

let ready: Promise<void> | null = null;
let player: Player | null = null;
let game: SeededGame | null = null;

function load(): Promise<void> {
  return (ready ??= fetch('/assets/search.wasm')
    .then((r) => {
      if (!r.ok) throw new Error(`the search module did not load (${r.status})`);
      return r.arrayBuffer();
    })
    .then((b) => void loadSearchModule(new Uint8Array(b))));
}

function legal(ranks: number[]): boolean[] {
  const board = boardFromRanks(ranks);
  return [0, 1, 2, 3].map((d) => applyMove(board, d as 0 | 1 | 2 | 3).legal);
}

function playerOf(m: { weights: unknown; table: ArrayBuffer | null; player: PlayerKind; depth: number | 'auto'; cprob: number }): Player {
  const weights = parseWeights(m.weights, 'viewer weights');
  // No file system here: the page fetched the learned tables (the server checked them against the hash).
  if (weights.learned && m.table) registerNetwork(weights.learned.sha256, new Uint8Array(m.table), 'the learned line tables');
  return createPlayer(playerSpec(m.player, weights, { depth: m.depth, cprob: m.cprob }));
}

/** A player that plays a stored game's moves in order (no values: they were not stored). */
function storedMoves(moves: string): Player {
  let next = 0;
  const decide = () => {
    const move = next < moves.length ? ('udlr'.indexOf(moves[next++]) as 0 | 1 | 2 | 3) : -1;
    return { move: move as 0 | 1 | 2 | 3 | -1, values: [NaN, NaN, NaN, NaN] };
  };
  return { decide, chooseMove: () => decide().move };
}

async function handle(m: WorkerRequest): Promise<WorkerReply> {
  await load();
  if (m.type === 'start') {
    player = playerOf(m);
    game = new SeededGame(m.seed);
    return { type: 'state', ranks: boardToRanks(game.board), score: game.score, moves: game.moves, move: null, values: null, over: false };
  }
  if (m.type === 'preview') {
    const first = new SeededGame(m.seed);
    return { type: 'state', ranks: boardToRanks(first.board), score: 0, moves: 0, move: null, values: null, over: false };
  }
  if (m.type === 'replay') {
    player = storedMoves(m.moves);
    game = new SeededGame(m.seed);
    return { type: 'state', ranks: boardToRanks(game.board), score: game.score, moves: game.moves, move: null, values: null, over: false };
  }
  if (m.type === 'step') {
    if (!game || !player) throw new Error('no game started');
    const { move, values } = player.decide(game.board);
    if (move === -1) return { type: 'state', ranks: boardToRanks(game.board), score: game.score, moves: game.moves, move: null, values: null, over: true };
    game.play(move);
    return { type: 'state', ranks: boardToRanks(game.board), score: game.score, moves: game.moves, move, values: values.map((v) => (Number.isNaN(v) ? null : v)), over: false };
  }
  const hint = playerOf(m);
  const { move, values } = hint.decide(boardFromRanks(m.ranks));
  const ok = legal(m.ranks);
  return { type: 'hint', move: move === -1 ? null : move, values: values.map((v, i) => (ok[i] && !Number.isNaN(v) ? v : null)) };
}

self.onmessage = (e: MessageEvent<WorkerRequest & { id: number }>) => {
  handle(e.data).then(
    (reply) => self.postMessage({ ...reply, id: e.data.id }),
    (err: Error) => self.postMessage({ type: 'error', message: err.message, id: e.data.id }),
  );
};
