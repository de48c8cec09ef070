import { Command } from 'commander';
import { join } from 'node:path';
import type { runBench } from '../../bench/bench';
import { callOffThread } from '../../util/off-thread';
import { networkPlayerSpec } from '../../player/network-player';
import { loadWeights } from '../../heuristic/weights';
import { table } from '../format';
import { parseIntegerOption, parseListOption, parseThreads } from '../options';
import { InputError } from '../../util/errors';

/**
 * nneonneo/2048-ai (C++, g++ -O3 -march=native) on the same 50 positions, one core, CPU time, medians of
 * 7 rounds interleaved with this search (configs/bench/README.md says how; 2026-11-23).
 */
export const CPP_REFERENCE_MS_PER_MOVE: Record<number, number> = { 1: 0.0021, 2: 0.044, 3: 0.78 };

export function command(): Command {
  return new Command('bench')
    .description('engine ns per move and search speed on the 50 bench positions (single core)')
    .option('--depths <list>', 'search depths to measure', parseListOption('--depths', parseIntegerOption('--depths', 0, 6)), [1, 2, 3])
    .option('--passes <n>', 'passes per figure (the median is reported)', parseIntegerOption('--passes', 1, 100), 5)
    .option('--games <n>', 'whole games at depth 1 to time', parseIntegerOption('--games', 1, 10000), 30)
    .option('-w, --weights <file|preset>', 'weights to search with', 'nneonneo')
    .option('--network <file>', 'also time a learned n-tuple network\'s search (tune2048 learn export) at depth 0 and each of --depths')
    .option('--threads <n|auto>', 'with --network: also time its search split over n threads (the root split), interleaved with one thread', parseThreads)
    .option('--json', 'one JSON object on stdout')
    .action(async (opts: { depths: number[]; passes: number; games: number; weights: string; network?: string; threads?: number; json?: boolean }) => {
      if (opts.threads !== undefined && opts.network === undefined) throw new InputError('--threads times a network\'s root split: give the network with --network FILE');
      // Checked here, before any figure: a bad weight set or network file is refused at once.
      const weights = loadWeights(opts.weights);
      const networkSpec = opts.network === undefined ? null : networkPlayerSpec(opts.network, { depth: 0, cprob: 1e-4 });
      // The figures are measured in a thread of their own: Ctrl-C stops the bench at once (exit 130).
      const { boards, engine, search, network, cost, game } = await callOffThread<ReturnType<typeof runBench>>(join(__dirname, '..', '..', 'bench', 'bench'), 'runBench', { ...opts, networkSpec });
      if (opts.json) {
        console.log(JSON.stringify({ node: process.version, positions: boards, weights: weights.name, engine: engine.map((e) => ({ path: e.path, nsPerMove: e.nsPerMove })), search, ...(network ? { network: { file: opts.network, search: network } } : {}), cost, game, cppReferenceMsPerMove: CPP_REFERENCE_MS_PER_MOVE }));
        return;
      }
      for (const e of engine) console.log(`engine, ${e.path}: ${e.nsPerMove.toFixed(1)} ns per move (median of ${e.passes.length - 1} passes)`);
      console.log('search: the WebAssembly search, one module instance reused by every figure');
      const rows = [['depth', 'ms/move', 'x C++', 'leaves/s', 'moves exec/s', 'nodes/move', 'leaves/move', 'cache hits/move']];
      for (const s of search) {
        const ref = CPP_REFERENCE_MS_PER_MOVE[s.depth];
        rows.push([
          String(s.depth),
          s.msPerMove.toFixed(4),
          ref ? (s.msPerMove / ref).toFixed(2) : '-',
          `${(s.leavesPerSecond / 1e6).toFixed(1)}M`,
          `${(s.movesExecutedPerSecond / 1e6).toFixed(1)}M`,
          s.nodesPerMove.toFixed(0),
          s.leavesPerMove.toFixed(0),
          s.cacheHitsPerMove.toFixed(0),
        ]);
      }
      console.log(table(rows));
      if (network) {
        console.log(`the network's search (${opts.network}): leaves valued by the network, depth 0 = greedy`);
        const t = opts.threads && opts.threads > 1 ? opts.threads : null;
        const head = ['depth', 'ms/move', 'x C++ heuristic at this depth', 'nodes/move', ...(t ? [`ms/move on ${t} threads`, 'speed-up'] : [])];
        console.log(table([head, ...network.map((n) => [String(n.depth), n.msPerMove.toFixed(4), CPP_REFERENCE_MS_PER_MOVE[n.depth] ? (n.msPerMove / CPP_REFERENCE_MS_PER_MOVE[n.depth]).toFixed(2) : '-', n.nodesPerMove.toFixed(0), ...(t ? (n.split ? [n.split.msPerMove.toFixed(4), `${n.split.speedup.toFixed(2)}×`] : ['-', '-']) : [])])]));
      }
      const fit = (f: { samples: number; r2: number; nsPerNode: number }) => `R² ${f.r2.toFixed(3)} over ${f.samples} positions × depths, ${f.nsPerNode.toFixed(0)} ns a node`;
      console.log(`cost model (nodes a move, counted by the search, against ms a move): the heuristic search ${fit(cost.search)}${cost.network ? `; the network's ${fit(cost.network)}` : ''}`);
      console.log(`game (depth 1, ${game.games} seeded games): ${game.msPerGame.toFixed(2)} ms per game, ${game.movesPerGame.toFixed(0)} moves, ${game.usPerMove.toFixed(2)} µs per move (medians)`);
    });
}
