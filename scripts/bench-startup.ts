/**
 * Start-up cost of the CLI (issue 9): wall time of `tune2048 --help` and of
 * `hint` on one board, as ratios to a bare `node -e 0`, measured interleaved
 * (A, B, C, A, B, C, …) so machine noise hits all three alike; medians.
 * Runs the built CLI (dist/): `npm run bench:startup` builds it first.
 */
import { installProcessGuards } from '../src/cli/process';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const MAIN = join(__dirname, '..', 'dist', 'cli', 'main.js');
const rounds = Number(process.argv[2] ?? 21);
const cases: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  'tune2048 --help': [MAIN, '--help'],
  // Depth 2 searches in the command's own thread; depth 3 in a worker thread (a second Node instance).
  'tune2048 hint (depth 2)': [MAIN, 'hint', '2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 2'],
  'tune2048 hint (depth 3, a worker thread)': [MAIN, 'hint', '-d', '3', '2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 2'],
  'tune2048 runs (no database)': [MAIN, 'runs', '--db', '/nonexistent/x.sqlite'],
  // Loads and checks a run config (valibot) and its start weights, then stops at the database path.
  'tune2048 tune (config checked, no database)': [MAIN, 'tune', '-c', join(__dirname, '..', 'configs', 'quick.json'), '--db', join(__dirname, '..', 'package.json', 'x.sqlite')],
};

const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, args] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, args, { stdio: 'ignore' });
    times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times['node -e 0']);
console.log(`| command | median wall ms (${rounds} interleaved rounds) | × node -e 0 |`);
console.log('|---|---|---|');
for (const name of Object.keys(cases)) console.log(`| ${name} | ${median(times[name]).toFixed(0)} | ${(median(times[name]) / base).toFixed(2)} |`);
