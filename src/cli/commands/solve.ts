import { Command, Option } from 'commander';
import { parseBoard, prettyBoard } from '../../engine/board';
import { cornerStart } from '../../engine/rules';
import { COST_MODELS, HEURISTICS, replay, STRATEGIES, targetRankOf, type CostModel, type HeuristicName, type Strategy } from '../../corner/solve';
import { InputError } from '../../util/errors';
import { EXIT_FAILURE } from '../exit-codes';
import { parseIntegerOption } from '../options';
import { stillWorking } from '../still-working';
import { callOffThread } from '../../util/off-thread';
import { join } from 'node:path';
import type { solve } from '../../corner/solve';

export function command(): Command {
  return new Command('solve')
    .description("the search problem of the deterministic corner rules (docs/players.md): the moves from BOARD (default: 2s in the top corners) to a board holding tile M")
    .argument('[board]', 'start board: 16 tile values, rows separated by "/" (e.g. "2 0 0 2/0 0 0 0/0 0 0 0/0 0 0 0")')
    .requiredOption('--target <M>', 'the tile to reach (4 … 32768)', parseIntegerOption('--target', 4, 32768))
    .addOption(new Option('--strategy <s>', 'search strategy').choices([...STRATEGIES]).default('dfs'))
    .addOption(new Option('--heuristic <h>', 'for greedy and astar: h1 doublings still needed, h2 their merge score, h3 merges still needed, h4 2s still to spawn (admissible: h1 and h2 with --cost score, h1 and h4 with --cost moves)').choices([...HEURISTICS]).default('h2'))
    .addOption(new Option('--cost <c>', "an operator's cost: score (its merge score) or moves (1 each: A* then finds the fewest moves)").choices([...COST_MODELS]).default('score'))
    .option('--max-nodes <n>', 'expanded nodes at most (bounds memory and time)', parseIntegerOption('--max-nodes', 1, 100_000_000), 1_000_000)
    .option('--json', 'one JSON object on stdout')
    .action(async (boardText: string | undefined, opts: { target: number; strategy: Strategy; heuristic: HeuristicName; cost: CostModel; maxNodes: number; json?: boolean }) => {
      try {
        targetRankOf(opts.target);
      } catch (e) {
        throw new InputError(`--target: ${(e as Error).message}`);
      }
      const start = boardText === undefined ? cornerStart() : parseBoard(boardText);
      // The search runs in a thread of its own: Ctrl-C stops it at once (exit 130), and a line says it goes on.
      const notice = stillWorking(`solve: still searching (${opts.strategy})`);
      const r = await callOffThread<ReturnType<typeof solve>>(join(__dirname, '..', '..', 'corner', 'solve'), 'solve', start, opts).finally(() => notice.cancel());
      if (r.found) {
        const check = replay(start, r.moves, opts.cost); // the solution, replayed from the start, reaches the target
        if (check.cost !== r.cost || check.score !== r.score) throw new Error('internal error: the solution does not replay to its cost');
      }
      if (opts.json) {
        console.log(JSON.stringify({ target: opts.target, strategy: opts.strategy, heuristic: ['greedy', 'astar'].includes(opts.strategy) ? opts.heuristic : null, costModel: opts.cost, ...r }));
      } else if (r.found) {
        console.log(`${opts.strategy}${['greedy', 'astar'].includes(opts.strategy) ? ` (${opts.heuristic})` : ''}: reached ${opts.target} in ${r.moves.length} moves, ${opts.cost === 'moves' ? `merge score ${r.score}` : `cost ${r.cost}`}, ${r.expanded} nodes expanded, ${r.ms.toFixed(0)} ms`);
        console.log(r.moves.join(' '));
        console.log(prettyBoard(replay(start, r.moves).board));
      }
      if (!r.found) {
        const why = r.reason === 'max-nodes' ? `no solution within ${opts.maxNodes} expanded nodes (raise --max-nodes)` : `no board with ${opts.target} can be reached from this start`;
        console.error(`tune2048: ${opts.strategy}: ${why}`);
        process.exitCode = EXIT_FAILURE;
      }
    });
}
