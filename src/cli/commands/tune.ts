import { Command } from 'commander';
import { defaultWorkers } from '../../runner/runner';
import { configOrigin, loadConfig } from '../../tuner/config/config';
import { checkFitnessTarget, copyGenerations, knownGames, readFitnessSource } from '../../tuner/run/fitness-from';
import { checkReplay, createRun, prepareRun } from '../../tuner/run/run-problem';
import { dbOption, withStore } from '../db';
import { driveRun } from '../drive-run';
import { parseWorkers } from '../options';
import { checkQueue, queueOption } from '../runner-options';

export function command(): Command {
  return new Command('tune')
    .description('start a tuning run from a config; prints the run id first, then one line per generation')
    .requiredOption('-c, --config <file>', 'run config: a JSON file, or a shipped one by name (quick, default, depth2, …: the package\'s configs/)')
    .option('--network <file>', "a network config's network (e.g. front-network): this file instead of the one the config names")
    .option('--name <name>', 'name of the run (default: the config name)')
    .addOption(dbOption())
    .option('--workers <n>', 'worker processes (default: the config, else CPU count)', parseWorkers)
    .addOption(queueOption())
    .option('--json', 'one JSON event per line on stdout')
    .option(
      '--fitness-from <db[:run]>',
      "copy the generations of a finished run (default: the database's last) whose config differs from this one only in validation, name, description and pool, and play only this run's validation: another validation tried on the same search (the copy is what this config would play; its candidates keep their numbers, so --db names another database)",
    )
    .action(async (opts: { config: string; network?: string; name?: string; db: string; workers?: number; queue?: string; json?: boolean; fitnessFrom?: string }) => {
      // Everything the run needs is checked before the database is opened (or created).
      const config = loadConfig(opts.config, { network: opts.network });
      // An unreachable Redis is said first (seconds), not after the player's replay check (tens of seconds for a slow program).
      await checkQueue(opts.queue ?? config.pool.queue);
      const stored = await prepareRun(config, configOrigin(opts.config));
      const warning = await checkReplay(stored);
      if (warning) console.error(warning);
      const source = opts.fitnessFrom === undefined ? null : readFitnessSource(opts.fitnessFrom, stored);
      await withStore(opts.db, 'write', async (store) => {
        if (source) checkFitnessTarget(store, source);
        const runId = createRun(store, stored, opts.name);
        if (!opts.json) console.log(`run ${runId}`);
        if (source) {
          copyGenerations(store, runId, source);
          console.error(`copied ${source.generations.length} generations (${source.games.toLocaleString('en-US')} fitness games) from run ${source.runId} of ${source.path}; playing the validation`);
        }
        await driveRun(store, runId, false, { workers: opts.workers ?? config.workers ?? defaultWorkers(), queue: opts.queue, ...(source ? { knownGames: knownGames(source) } : {}) }, !!opts.json);
      });
    });
}
