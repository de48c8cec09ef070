/**
 * A learning run's curve as a markdown table anyone can read beside the published one (src/learn/ntuple/training-table.ts):
 * at every --every games the held-out greedy mean with its 16384 and 32768 rates, the CPU minutes so far and
 * every checkpoint since the row before pooled; then ziap/2048-tdl's published rows for the same 4×6 recipe at
 * 400,000 and 1,000,000 games. CPU minutes depend on the machine: --calibration names the machine's speed that
 * day (e.g. ziap's CPU seconds for 10,000 games of the recipe, or `npm run bench:learn`'s moves per CPU second),
 * printed under the table so that minutes from two machines can be compared.
 *
 *   npx tsx scripts/training-table.ts --db runs/restarts.sqlite --run 1 --every 50000 --calibration "ziap 10,000 games: 249 CPU s"
 */
import { installProcessGuards } from '../src/cli/process';
import { Command } from 'commander';
import { curvePoints, trainingTable } from '../src/learn/ntuple/training-table';
import { Store } from '../src/store/store';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const o = new Command()
  .requiredOption('--db <file>', 'the learning database')
  .option('--run <id>', 'learning run id', Number, 1)
  .option('--every <games>', 'a row every this many games', Number, 50_000)
  .option('--calibration <text>', "the machine's speed that day, printed under the table")
  .parse()
  .opts<{ db: string; run: number; every: number; calibration?: string }>();

const store = Store.open(o.db, { readonly: true });
try {
  for (const line of trainingTable(curvePoints(store.learnCurve(o.run)), o.every)) console.log(line);
  if (o.calibration) console.log(`\nThe machine that day: ${o.calibration}.`);
} finally {
  store.close();
}
