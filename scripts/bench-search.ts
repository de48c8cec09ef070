/**
 * The WebAssembly search against the TypeScript search it replaced
 * (test/helpers/js-search.ts), side by side in one process on the 50 bench
 * positions: interleaved passes (TS, WASM, TS, WASM, …), best move for every
 * position at a fixed depth, median ms per decision. Each depth runs in a
 * fresh process holding one searcher per side (the TS one created first, so it
 * is the process's only JS searcher and keeps V8's specialisation).
 *
 *   npx tsx scripts/bench-search.ts [--depths 1,2,3] [--passes 7] [--weights nneonneo]
 */
import { installProcessGuards } from '../src/cli/process';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { loadBenchPositions, timePass } from '../src/bench/bench';
import type { Board } from '../src/engine/board';
import { buildHeuristicTables } from '../src/heuristic/tables';
import { loadWeights } from '../src/heuristic/weights';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { median } from '../src/util/stats';
import { createJsSearcher } from '../test/helpers/js-search';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({ options: { depths: { type: 'string', default: '1,2,3' }, passes: { type: 'string', default: '7' }, weights: { type: 'string', default: 'nneonneo' } } });
const boards = loadBenchPositions();
const tables = buildHeuristicTables(loadWeights(values.weights!));

const pass = (player: { chooseMove(board: Board): unknown }, minMs: number) => timePass(player, boards, minMs).msPerDecision;

const depths = values.depths!.split(',').map(Number);
if (depths.length > 1) {
  console.log(`| depth | TypeScript ms/decision | WebAssembly ms/decision | TS / WASM | same moves |`);
  console.log(`|---|---|---|---|---|`);
  for (const d of depths) {
    const args = [...process.execArgv, __filename, '--depths', String(d), '--passes', values.passes!, '--weights', values.weights!];
    process.stdout.write(spawnSync(process.execPath, args, { encoding: 'utf8' }).stdout);
  }
  process.exit(0);
}
for (const depth of depths) {
  const js = createJsSearcher(tables, { depth });
  const wasm = createExpectimaxPlayer(tables, { depth });
  const same = boards.every((b) => js.chooseMove(b) === wasm.chooseMove(b));
  const minMs = depth <= 1 ? 300 : 600;
  const a: number[] = [];
  const b: number[] = [];
  pass(js, minMs); // warm-up
  pass(wasm, minMs);
  for (let p = 0; p < Number(values.passes); p++) {
    a.push(pass(js, minMs));
    b.push(pass(wasm, minMs));
  }
  const ma = median(a);
  const mb = median(b);
  console.log(`| ${depth} | ${ma.toFixed(4)} | ${mb.toFixed(4)} | ${(ma / mb).toFixed(2)} | ${same ? 'yes' : 'NO'} |`);
}
