/**
 * Would another spawn rule make common seeds pay? Plays two weight sets on the same seeds under the
 * game's spawn rule (the floor(u·n)-th empty cell) and under a coupled rule with the same distribution
 * (spawn t of a game goes to the first empty cell of a permutation of the 16 cells drawn from (seed, t),
 * so two players whose boards differ still get the same cell whenever it is empty in both), and prints
 * the correlation of their scores on the same seed (src/compare/noise.ts). An experiment, not a game
 * rule: the coupled games exist only here.
 *
 *   npx tsx scripts/spawn-coupling.ts [--depth 1] [--games 400] [--seed 5000000]
 */
import { installProcessGuards } from '../src/cli/process';
import { parseArgs } from 'node:util';
import seedrandom from 'seedrandom';
import { makeBoard, rankAt, withRank, type Board } from '../src/engine/board';
import type { Player } from '../src/engine/game';
import { applyMove } from '../src/engine/moves';
import { createRng, initialBoard, spawnTile, SPAWN_TWO_PROBABILITY } from '../src/engine/spawn';
import { pairNoise } from '../src/compare/noise';
import { loadWeights, type Weights } from '../src/heuristic/weights';
import { createExpectimaxPlayer } from '../src/player/expectimax';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({ options: { depth: { type: 'string', default: '1' }, games: { type: 'string', default: '400' }, seed: { type: 'string', default: '5000000' } } });
const depth = Number(values.depth);
const games = Number(values.games);
const firstSeed = Number(values.seed);

function coupledSpawn(board: Board, seed: number, t: number): Board {
  const rng = seedrandom.alea(`${seed}:${t}`);
  const cells = Array.from({ length: 16 }, (_, i) => i);
  for (let i = 15; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [cells[i], cells[j]] = [cells[j], cells[i]];
  }
  const rank = rng() < SPAWN_TWO_PROBABILITY ? 1 : 2;
  const k = cells.find((c) => rankAt(board, c) === 0);
  if (k === undefined) return board;
  return withRank(board, k, rank);
}

function play(player: Player, seed: number, coupled: boolean): number {
  const rng = createRng(seed);
  let board = coupled ? coupledSpawn(coupledSpawn(makeBoard(0, 0), seed, -2), seed, -1) : initialBoard(rng);
  let score = 0;
  for (let t = 0; ; t++) {
    const dir = player.chooseMove(board);
    if (dir === -1) return score;
    const moved = applyMove(board, dir);
    score += moved.score;
    board = coupled ? coupledSpawn(moved.board, seed, t) : spawnTile(moved.board, rng);
  }
}

const base = loadWeights('tuned-d1');
const pairs: [string, Weights, Weights][] = [
  ['tuned-d1 vs itself with empty x1.1 (GA siblings)', base, { ...base, empty: base.empty * 1.1 }],
  ['tuned-d1 vs nneonneo', base, loadWeights('nneonneo')],
];
console.log(`depth ${depth}, ${games} seeds from ${firstSeed}`);
for (const [label, wa, wb] of pairs) {
  for (const coupled of [false, true]) {
    const a = createExpectimaxPlayer(wa, { depth });
    const b = createExpectimaxPlayer(wb, { depth });
    const sa = new Map<number, number>();
    const sb = new Map<number, number>();
    for (let i = 0; i < games; i++) {
      sa.set(i, play(a, firstSeed + i, coupled));
      sb.set(i, play(b, firstSeed + i, coupled));
    }
    const p = pairNoise(sa, sb)!;
    console.log(`${label}, ${coupled ? 'coupled spawns' : "the game's spawns"}: correlation ${p.correlation.toFixed(3)}, sd of a difference ${p.sdDiff.toFixed(0)}, sd of a score ${p.sdScore.toFixed(0)}`);
  }
}
