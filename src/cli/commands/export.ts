import { Command } from 'commander';
import { exportBest } from '../../tuner/export';
import { dbOption, withStore } from '../db';
import { parseRunId } from '../options';
import { writeOutputFile } from '../output';

export function command(): Command {
  return new Command('export')
    .description('write the validated best of a finished run: weights (play, hint and compare read them with --weights), or an external player\'s parameter file (--params, or a compare contender)')
    .argument('<run>', 'run id', parseRunId)
    .addOption(dbOption())
    .option('-o, --out <file>', 'output file (default: stdout)')
    .option('--json', 'one JSON object on stdout: {run, out, weights}')
    .action(async (runId: number, opts: { db: string; out?: string; json?: boolean }) => {
      await withStore(opts.db, 'read', (store) => {
        const weights = exportBest(store, runId);
        const text = JSON.stringify(weights, null, 2) + '\n';
        if (opts.out) {
          writeOutputFile(opts.out, text);
          console.error(`wrote ${opts.out}`);
        }
        if (opts.json) console.log(JSON.stringify({ run: runId, out: opts.out ?? null, weights }));
        else if (!opts.out) process.stdout.write(text);
      });
    });
}
