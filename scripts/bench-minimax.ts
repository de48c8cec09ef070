/**
 * Seed 000's minimax in WebAssembly against the TypeScript search it replaced (test/helpers/js-minimax.ts)
 * on the 50 bench positions: interleaved passes, median ms per decision, and a check that both choose the
 * same moves with the same values.
 *
 *   npx tsx scripts/bench-minimax.ts [--depths 1,2,3] [--passes 5] [--weights haskell]
 */
import { installProcessGuards } from '../src/cli/process';
import { parseArgs } from 'node:util';
import { loadBenchPositions, timePass } from '../src/bench/bench';
import type { Board } from '../src/engine/board';
import { loadWeights } from '../src/heuristic/weights';
import { createMinimaxPlayer } from '../src/player/minimax';
import { median } from '../src/util/stats';
import { createJsMinimaxPlayer } from '../test/helpers/js-minimax';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({ options: { depths: { type: 'string', default: '1,2,3' }, passes: { type: 'string', default: '5' }, weights: { type: 'string', default: 'haskell' } } });
const boards = loadBenchPositions() as Board[];
const weights = loadWeights(values.weights!);

const pass = (player: { chooseMove(board: Board): unknown }, minMs: number) => timePass(player, boards, minMs).msPerDecision;

console.log('| depth | TypeScript ms/decision | WebAssembly ms/decision | TS / WASM | same values |');
console.log('|---|---|---|---|---|');
for (const depth of values.depths!.split(',').map(Number)) {
  const js = createJsMinimaxPlayer(weights, { depth });
  const wasm = createMinimaxPlayer(weights, { depth });
  const same = boards.every((b) => JSON.stringify(js.decide(b)) === JSON.stringify(wasm.decide(b)));
  const a: number[] = [];
  const b: number[] = [];
  for (let p = 0; p < Number(values.passes); p++) {
    a.push(pass(js, 1000));
    b.push(pass(wasm, 1000));
  }
  console.log(`| ${depth} | ${median(a).toFixed(4)} | ${median(b).toFixed(4)} | ×${(median(a) / median(b)).toFixed(1)} | ${same ? 'yes' : 'NO'} (${boards.length} positions) |`);
}
