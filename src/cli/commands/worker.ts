import { Command } from 'commander';
import { defaultWorkers } from '../../runner/runner';
import { parseIntegerOption, parseWorkers } from '../options';
import { onStop } from '../process';
import { EXIT_INTERRUPTED } from '../exit-codes';

export function command(): Command {
  return new Command('worker')
    .description(
      'play the games of tuning runs, comparisons and races that use --queue: start one on every machine; it serves every run on that Redis until stopped (Ctrl-C lets running batches finish)',
    )
    .requiredOption('--queue <url>', 'the Redis the runs use: redis://HOST:PORT[/DB]')
    .option('--concurrency <n>', 'games played at once, each in its own process (default: CPU count)', parseWorkers)
    .option('--lock-duration <ms>', 'how long a batch stays with a worker that stopped answering (died) before another worker takes it', parseIntegerOption('--lock-duration', 1000, 3_600_000), 30_000)
    .action(async (opts: { queue: string; concurrency?: number; lockDuration: number }) => {
      const { startRemoteWorker } = await import('../../runner/remote-worker');
      const log = (line: string) => console.error(`tune2048 worker: ${line}`);
      const worker = await startRemoteWorker({
        url: opts.queue,
        concurrency: opts.concurrency ?? defaultWorkers(),
        lockDurationMs: opts.lockDuration,
        onLog: log,
        workerPath: process.env.TUNE2048_TEST_GAME_MODULE, // tests only: a fixture that hangs or crashes
      });
      await new Promise<void>((resolve) => {
        let signals = 0;
        onStop((reason) => {
          if (reason.kind === 'pipe') return; // logs go to stderr; stdout is unused
          if (++signals > 1) {
            worker.kill();
            process.exit(EXIT_INTERRUPTED); // its batches go to other workers once their locks expire
          }
          log(`${reason.signal}: finishing the running batches, taking no new ones (again to quit at once)`);
          void worker.stop().then(() => {
            log(`stopped after ${worker.jobs()} batch(es)`);
            resolve();
          });
        });
      });
    });
}
