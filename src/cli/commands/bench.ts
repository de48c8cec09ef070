import { Command } from 'commander';
import { benchEngine, benchGames, benchSearch, loadBenchPositions } from '../../bench/bench';
import { loadWeights } from '../../heuristic/weights';
import { table } from '../format';
import { parseIntegerOption, parseListOption } from '../options';

/** nneonneo/2048-ai (C++ -O3) on the same 50 positions, one core (configs/bench/README.md). */
export const CPP_REFERENCE_MS_PER_MOVE: Record<number, number> = { 1: 0.0013, 2: 0.03 };

export function command(): Command {
  return new Command('bench')
    .description('engine ns per move and search speed on the 50 bench positions (single core)')
    .option('--depths <list>', 'search depths to measure', parseListOption('--depths', parseIntegerOption('--depths', 0, 6)), [1, 2, 3])
    .option('--passes <n>', 'passes per figure (the median is reported)', parseIntegerOption('--passes', 1, 100), 5)
    .option('--games <n>', 'whole games at depth 1 to time', parseIntegerOption('--games', 1, 10000), 30)
    .option('-w, --weights <file|preset>', 'weights to search with', 'nneonneo')
    .option('--json', 'one JSON object on stdout')
    .action((opts: { depths: number[]; passes: number; games: number; weights: string; json?: boolean }) => {
      const boards = loadBenchPositions();
      const weights = loadWeights(opts.weights);
      console.error(`bench: engine moves on ${boards.length} positions x 4 directions...`);
      const engine = benchEngine(boards, opts.passes + 1);
      const search = opts.depths.map((d) => {
        console.error(`bench: search at depth ${d}...`);
        return benchSearch(weights, boards, d, opts.passes);
      });
      console.error(`bench: ${opts.games} whole games at depth 1...`);
      const game = benchGames(weights, 1, opts.games);
      if (opts.json) {
        console.log(JSON.stringify({ node: process.version, positions: boards.length, weights: weights.name, engine: { nsPerMove: engine.nsPerMove }, search, game, cppReferenceMsPerMove: CPP_REFERENCE_MS_PER_MOVE }));
        return;
      }
      console.log(`engine: ${engine.nsPerMove.toFixed(1)} ns per move (median of ${engine.passes.length - 1} passes)`);
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
      console.log(`game (depth 1, ${game.games} seeded games): ${game.msPerGame.toFixed(2)} ms per game, ${game.movesPerGame.toFixed(0)} moves, ${game.usPerMove.toFixed(2)} µs per move (medians)`);
    });
}
