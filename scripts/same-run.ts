/**
 * Are two stored runs the same run? Every row a run stored (its config, generations, candidates and games),
 * minus wall-clock fields, compared between two databases: how a run killed (-9) and resumed is shown to
 * equal an uninterrupted one outside the tests.
 *
 *   npx tsx scripts/same-run.ts DB_A RUN_A DB_B RUN_B
 */
import { installProcessGuards } from '../src/cli/process';
import { isDeepStrictEqual } from 'node:util';
import { dumpRun } from '../test/helpers/runs';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const [dbA, runA, dbB, runB] = process.argv.slice(2);
if (!runB) {
  console.error('usage: npx tsx scripts/same-run.ts DB_A RUN_A DB_B RUN_B');
  process.exit(2);
}
const a = dumpRun(dbA, Number(runA));
const b = dumpRun(dbB, Number(runB));
const parts = ['run', 'generations', 'candidates', 'games'] as const;
const counts = parts.map((p) => `${p} ${Array.isArray(a[p]) ? (a[p] as unknown[]).length : 1}`).join(', ');
const differ = parts.filter((p) => !isDeepStrictEqual(a[p], b[p]));
console.log(differ.length === 0 ? `the same run (${counts})` : `different: ${differ.join(', ')}`);
process.exit(differ.length === 0 ? 0 : 1);
