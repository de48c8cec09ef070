import { Command } from 'commander';
import { defaultWorkers } from '../../runner/runner';
import { checkExternalUnchanged, describeProgramChange, loadRunProblem } from '../../tuner/run/run-problem';
import { externalPlayerOf, playerKindOf } from '../../tuner/config/config';
import { dbOption, withStore } from '../db';
import { driveRun } from '../drive-run';
import { parseNumberOption, parseRunId, parseWorkers } from '../options';
import { checkQueue, queueOption } from '../runner-options';
import { InputError } from '../../util/errors';

export function command(): Command {
  return new Command('resume')
    .description('continue a run from what the database holds (only missing games are played)')
    .argument('<run>', 'run id', parseRunId)
    .addOption(dbOption())
    .option('--workers <n>', 'worker processes (default: the config, else CPU count)', parseWorkers)
    .addOption(queueOption())
    .option('--batch-timeout <sec>', "seconds a batch of games may run before its worker is stopped and the batch retried, in place of the config's pool.batchTimeoutSec (a slow player, a busy machine); results are the same", parseNumberOption('--batch-timeout', 1, 86_400))
    .option('--accept-changed', "an external player whose program changed since the run began (its version line or the files its command names) goes on with the changed program, the change recorded in the run (show lists it, export's provenance carries it): its games before and after mix. Without it such a resume is refused")
    .option('--json', 'one JSON event per line on stdout')
    .action(async (runId: number, opts: { db: string; workers?: number; queue?: string; batchTimeout?: number; acceptChanged?: boolean; json?: boolean }) => {
      await withStore(opts.db, 'write-existing', async (store) => {
        const problem = loadRunProblem(store, runId);
        const { run, config } = problem;
        if (run.status === 'finished') {
          console.error(`tune2048: run ${runId} is already finished; nothing to do`);
          return;
        }
        const queue = opts.queue ?? config.pool.queue;
        await checkQueue(queue);
        // The program must be the one the run began with (the parent's copy, which it reads as tune did; remote workers check their own before they play).
        const player = externalPlayerOf(config);
        if (opts.acceptChanged && !player) throw new InputError(`--accept-changed: run ${runId} tunes ${playerKindOf(config) === 'network' ? 'a network' : playerKindOf(config)}, not an external program: there is no program to accept a change of`);
        const accept = opts.acceptChanged ? { games: store.listRuns().find((r) => r.id === runId)?.gamesPlayed ?? 0, generation: store.listGenerations(runId).find((g) => g.status !== 'done')?.idx ?? null, queue: queue !== undefined } : undefined;
        const changed = await checkExternalUnchanged(problem, runId, opts.db, accept);
        if (opts.acceptChanged && !changed) console.error(`tune2048: run ${runId}: player ${player!.name} has not changed since the run began: --accept-changed has nothing to accept`);
        // Recorded only once this process holds the run (another live session would go on with the old program).
        const onAcquired = changed
          ? () => {
              store.setStoredConfigPart(runId, 'external', changed);
              console.error(`tune2048: run ${runId}: ${describeProgramChange(player!.name, changed.changes!.at(-1)!)}; recorded in the run (show ${runId} lists it)`);
            }
          : undefined;
        await driveRun(store, runId, true, { workers: opts.workers ?? config.workers ?? defaultWorkers(), queue: opts.queue, batchTimeoutSec: opts.batchTimeout, onAcquired }, !!opts.json);
      });
    });
}
