/**
 * The table of docs/results.md "Classic searches on the corner rules": every strategy (greedy and A* with
 * each heuristic) against targets 32, 64, … from the default start, each search bounded by --max-nodes.
 *
 *   npx tsx scripts/solve-table.ts [--max-nodes 1000000] [--targets 32,64,128,256,512,1024,2048]
 */
import { parseArgs } from 'node:util';
import { cornerStart } from '../src/engine/rules';
import { solve, type HeuristicName, type Strategy } from '../src/corner/solve';

const { values } = parseArgs({ options: { 'max-nodes': { type: 'string', default: '1000000' }, targets: { type: 'string', default: '32,64,128,256,512,1024,2048' } } });
const maxNodes = Number(values['max-nodes']);
const targets = values.targets.split(',').map(Number);
const rows: [Strategy, HeuristicName | undefined][] = [['bfs', undefined], ['ids', undefined], ['dfs', undefined], ['greedy', 'h1'], ['greedy', 'h2'], ['greedy', 'h3'], ['astar', 'h1'], ['astar', 'h2'], ['astar', 'h3']];
console.log(`| strategy | ${targets.map((t) => `M = ${t}`).join(' | ')} |`);
console.log(`|---|${targets.map(() => '---').join('|')}|`);
for (const [strategy, heuristic] of rows) {
  const cells: string[] = [];
  let failed = false;
  for (const target of targets) {
    if (failed) {
      cells.push('–');
      continue;
    }
    const r = solve(cornerStart(), { target, strategy, heuristic, maxNodes });
    if (r.found) cells.push(`${r.expanded.toLocaleString('en-US')} nodes, ${r.moves.length} moves, cost ${r.cost}, ${r.ms.toFixed(0)} ms`);
    else {
      cells.push(r.reason === 'max-nodes' ? `> ${maxNodes.toLocaleString('en-US')} nodes (${(r.ms / 1000).toFixed(1)} s)` : 'unreachable');
      failed = true; // a larger target needs at least as much
    }
  }
  console.log(`| ${strategy}${heuristic ? ` (${heuristic})` : ''} | ${cells.join(' | ')} |`);
}
