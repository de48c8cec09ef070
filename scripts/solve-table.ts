/**
 * The table of docs/results/seeds-players.md (the corner rules): every strategy (greedy and A* with
 * each heuristic; A* also on the moves cost) against targets 32, 64, … from the default start, each search
 * bounded by --max-nodes. The cost column is always the merge score (seed 003's cost).
 *
 *   npx tsx scripts/solve-table.ts [--max-nodes 1000000] [--targets 32,64,128,256,512,1024,2048]
 */
import { installProcessGuards } from '../src/cli/process';
import { parseArgs } from 'node:util';
import { cornerStart } from '../src/engine/rules';
import { solve, type CostModel, type HeuristicName, type Strategy } from '../src/corner/solve';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({ options: { 'max-nodes': { type: 'string', default: '1000000' }, targets: { type: 'string', default: '32,64,128,256,512,1024,2048' } } });
const maxNodes = Number(values['max-nodes']);
const targets = values.targets.split(',').map(Number);
// Seed 003's rows (merge-score cost), then A* on the moves cost with its admissible heuristics.
const rows: [Strategy, HeuristicName | undefined, CostModel][] = [
  ['bfs', undefined, 'score'], ['ids', undefined, 'score'], ['dfs', undefined, 'score'],
  ['greedy', 'h1', 'score'], ['greedy', 'h2', 'score'], ['greedy', 'h3', 'score'],
  ['astar', 'h1', 'score'], ['astar', 'h2', 'score'], ['astar', 'h3', 'score'],
  ['astar', 'h1', 'moves'], ['astar', 'h4', 'moves'],
];
console.log(`| strategy | ${targets.map((t) => `M = ${t}`).join(' | ')} |`);
console.log(`|---|${targets.map(() => '---').join('|')}|`);
for (const [strategy, heuristic, cost] of rows) {
  const cells: string[] = [];
  let failed = false;
  for (const target of targets) {
    if (failed) {
      cells.push('–');
      continue;
    }
    const r = solve(cornerStart(), { target, strategy, heuristic, cost, maxNodes });
    if (r.found) cells.push(`${r.expanded.toLocaleString('en-US')} nodes, ${r.moves.length} moves, cost ${r.score}, ${r.ms.toFixed(0)} ms`);
    else {
      cells.push(r.reason === 'max-nodes' ? `> ${maxNodes.toLocaleString('en-US')} nodes (${(r.ms / 1000).toFixed(1)} s)` : 'unreachable');
      failed = true; // a larger target needs at least as much
    }
  }
  console.log(`| ${strategy}${heuristic ? ` (${heuristic}${cost === 'moves' ? ', cost: moves' : ''})` : ''} | ${cells.join(' | ')} |`);
}
