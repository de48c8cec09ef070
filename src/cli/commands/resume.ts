import { Command } from 'commander';
import { defaultWorkers } from '../../pool/pool';
import { readStoredConfig } from '../../tuner/controller';
import { dbOption, withStore } from '../db';
import { driveRun } from '../drive-run';
import { parseRunId, parseWorkers } from '../options';

export function command(): Command {
  return new Command('resume')
    .description('continue a run from what the database holds (only missing games are played)')
    .argument('<run>', 'run id', parseRunId)
    .addOption(dbOption())
    .option('--workers <n>', 'worker processes (default: the config, else CPU count)', parseWorkers)
    .option('--json', 'one JSON event per line on stdout')
    .action(async (runId: number, opts: { db: string; workers?: number; json?: boolean }) => {
      await withStore(opts.db, 'write-existing', async (store) => {
        const run = store.requireRun(runId);
        const { config } = readStoredConfig(run.config);
        if (run.status === 'finished') {
          console.error(`tune2048: run ${runId} is already finished; nothing to do`);
          return;
        }
        await driveRun(store, runId, true, opts.workers ?? config.workers ?? defaultWorkers(), !!opts.json);
      });
    });
}
