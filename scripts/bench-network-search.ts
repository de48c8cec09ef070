/**
 * The network's search on one thread (src/wasm/assembly/network-search.ts), as a game plays it: the boards of
 * held-out games played at the depth, searched again decision after decision in their order (the leaf cache
 * carried from one to the next, as `play` does), in interleaved rounds; medians printed. With --against FILE
 * (another build of learn.wasm, e.g. one kept from before a change), both builds in the same rounds (A B, B A, …),
 * each over its own copy of the network: the ratio of their times and whether every value agrees to the bit.
 * With --small-pages, the second copy is the same build's with 4 KiB pages (no huge pages asked for: what
 * they give on this machine). Each copy's pages are printed.
 *
 *   npm run bench:network -- NETWORK.bin [--depth 2] [--cprob 0.0001] [--games 2] [--seed 1000000000]
 *     [--moves 3000] [--rounds 5] [--against OLD.wasm | --small-pages] [--json]
 *
 * Compare with ziap/2048-tdl's `agent -d 2` on the same network (scripts/ziap-side-by-side.ts).
 */
import { installProcessGuards } from '../src/cli/process';
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { type Board } from '../src/engine/board';
import { NetworkMachine } from '../src/learn/ntuple/machine';
import { readNetworkFile, readNetworkShape } from '../src/learn/ntuple/network-file';
import { cacheBits, DEFAULT_SEARCH } from '../src/player/expectimax';
import { type Direction } from '../src/engine/moves';
import { SeededGame } from '../src/engine/game';
import { describePages } from '../src/wasm/huge-pages';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const o = new Command()
  .argument('<network>', 'a network file (tune2048 learn export, or learn import --from ziap)')
  .option('--depth <d>', 'search depth (chance layers: 2 is 3-ply)', Number, 2)
  .option('--cprob <p>', 'probability cutoff', Number, 0.0001)
  .option('--games <n>', 'held-out games whose boards are searched', Number, 2)
  .option('--seed <s>', 'first game seed', Number, 1_000_000_000)
  .option('--moves <n>', 'at most this many decisions from each game', Number, 3000)
  .option('--rounds <n>', 'interleaved rounds', Number, 5)
  .option('--against <wasm>', 'another build of learn.wasm, timed in the same rounds')
  .option('--small-pages', 'against this build with 4 KiB pages (no huge pages asked for), timed in the same rounds')
  .option('--json', 'one JSON object')
  .parse();
const opts = o.opts<{ depth: number; cprob: number; games: number; seed: number; moves: number; rounds: number; against?: string; smallPages?: boolean; json?: boolean }>();
if (opts.against && opts.smallPages) {
  console.error('bench-network-search: --against and --small-pages each name the second copy: give one');
  process.exit(2);
}
const file = o.args[0];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function machineFrom(module?: WebAssembly.Module, hugePages = true): NetworkMachine {
  const machine = new NetworkMachine(readNetworkShape(file), { threads: 0, trainSeed: 0, evalSeed: 0, step: 0, evalCapacity: 1, searchCacheBits: cacheBits(DEFAULT_SEARCH.cacheMB), leafHeuristic: true, hugePages, ...(module ? { module } : {}) });
  readNetworkFile(file, () => machine.tables());
  machine.keepLeaves();
  return machine;
}

function valuesOf(m: NetworkMachine, b: Board): number[] {
  return [0, 1, 2, 3].map((dir) => m.exports.searchMove(b.lo, b.hi, dir));
}

const builds = [{ name: 'build/learn.wasm', machine: machineFrom() }];
if (opts.against) builds.push({ name: opts.against, machine: machineFrom(new WebAssembly.Module(readFileSync(opts.against))) });
if (opts.smallPages) builds.push({ name: 'build/learn.wasm, 4 KiB pages', machine: machineFrom(undefined, false) });

// The boards: each game played at the depth by the last build, every decision's board in order.
const boards: Board[] = [];
const first = builds[builds.length - 1].machine;
for (let g = 0; g < opts.games; g++) {
  const game = new SeededGame(opts.seed + g);
  let n = 0;
  first.exports.setNetworkSearch(opts.depth, opts.cprob);
  while (n < opts.moves) {
    const vs = valuesOf(first, game.board);
    let move = -1;
    vs.forEach((v, d) => {
      if (!Number.isNaN(v) && (move < 0 || v > vs[move])) move = d;
    });
    if (move < 0) break;
    boards.push(game.board);
    game.play(move as Direction);
    n++;
  }
  process.stderr.write(`game ${g + 1}/${opts.games}: ${n} decisions\n`);
}

interface Round { ms: number; leaves: number; nodes: number }
const rounds = builds.map(() => [] as Round[]);
let differ = 0;
const reference: number[][] = [];
for (let r = 0; r < opts.rounds; r++) {
  // The order alternates (A B, B A, …): whichever runs second in a round ran measurably faster on this machine.
  const order = r % 2 === 0 ? builds.map((_, k) => k) : builds.map((_, k) => builds.length - 1 - k);
  order.forEach((k) => {
    const b = builds[k];
    const m = b.machine;
    m.exports.keepLeaves(0); // a fresh leaf cache each round: every round searches as the first did
    m.exports.keepLeaves(1);
    m.exports.setNetworkSearch(opts.depth, opts.cprob);
    const leaves0 = m.exports.leafValuesComputed();
    const nodes0 = m.exports.searchNodes();
    const t0 = process.cpuUsage();
    const out: number[][] = [];
    for (const board of boards) out.push(valuesOf(m, board));
    const cpu = process.cpuUsage(t0);
    rounds[k].push({ ms: (cpu.user + cpu.system) / 1000 / boards.length, leaves: (m.exports.leafValuesComputed() - leaves0) / boards.length, nodes: (m.exports.searchNodes() - nodes0) / boards.length });
    if (r === 0) {
      if (k === 0) reference.push(...out);
      else out.forEach((vs, i) => vs.forEach((v, d) => (differ += Object.is(v, reference[i][d]) ? 0 : 1)));
    }
  });
  process.stderr.write(`round ${r + 1}/${opts.rounds}: ${builds.map((b, k) => `${b.name} ${rounds[k][r].ms.toFixed(4)} ms`).join(', ')}\n`);
}

const summary = builds.map((b, k) => ({ build: b.name, pages: describePages(b.machine.hugePages), msPerMove: median(rounds[k].map((x) => x.ms)), leafValuesPerMove: median(rounds[k].map((x) => x.leaves)), nodesPerMove: median(rounds[k].map((x) => x.nodes)) }));
const ratios = builds.length > 1 ? { againstOverThis: median(rounds[0].map((x, i) => rounds[1][i].ms / x.ms)), valuesDiffering: differ } : null;
if (opts.json) console.log(JSON.stringify({ network: file, depth: opts.depth, cprob: opts.cprob, decisions: boards.length, summary, ratios }));
else {
  console.log(`${boards.length} decisions at depth ${opts.depth} (cprob ${opts.cprob}), ${opts.rounds} rounds, CPU ms a move (medians):`);
  for (const s of summary) console.log(`  ${s.build} (${s.pages}): ${s.msPerMove.toFixed(4)} ms, ${s.leafValuesPerMove.toFixed(1)} leaf values and ${s.nodesPerMove.toFixed(1)} nodes a move`);
  if (ratios) console.log(`  ${builds[1].name} / ${builds[0].name}: ${ratios.againstOverThis.toFixed(3)}×; values that differ: ${ratios.valuesDiffering}`);
}
