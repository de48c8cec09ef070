import { Command } from 'commander';
import { defaultWorkers } from '../../runner/runner';
import { parseIntegerOption, parseWorkers } from '../options';
import { onStop } from '../process';
import { EXIT_INTERRUPTED } from '../exit-codes';
import { InputError } from '../../util/errors';
import type { Launch } from '../../player/spec';

function collectPlayers(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The --player registrations, each started once to check it announces the name it is registered under. */
async function registeredPlayers(values: string[], log: (line: string) => void): Promise<Map<string, Launch>> {
  const { loadPlayerFile, resolveExternalPlayer } = await import('../../player/external/definition');
  const { readAnnouncement } = await import('../../player/external/play');
  const { announcementHash, NAME } = await import('../../player/external/protocol');
  const players = new Map<string, Launch>();
  for (const value of values) {
    const eq = value.indexOf('=');
    const name = eq < 0 ? value : value.slice(0, eq);
    const rest = eq < 0 ? '' : value.slice(eq + 1).trim();
    if (!NAME.test(name)) throw new InputError(`--player ${value}: "${name}" is not a player name (one word: letters, digits, _ . -)`);
    if (players.has(name)) throw new InputError(`--player ${name} is given twice`);
    if (eq >= 0 && rest === '') throw new InputError(`--player ${value}: give the command after "=" (NAME=COMMAND)`);
    const launch = eq < 0 ? resolveExternalPlayer(name).launch : rest.endsWith('.json') ? loadPlayerFile(rest).launch : { command: rest.split(/\s+/), cwd: process.cwd(), timeoutSec: 60 };
    const a = await readAnnouncement(name, launch);
    log(`player ${name} version ${a.version} (announcement ${announcementHash(a)}): ${launch.command.join(' ')}`);
    players.set(name, launch);
  }
  return players;
}

export function command(): Command {
  return new Command('worker')
    .description(
      'play the games of tuning runs, comparisons and races that use --queue: start one on every machine; it serves every run on that Redis until stopped (Ctrl-C lets running batches finish)',
    )
    .requiredOption('--queue <url>', 'the Redis the runs use: redis://[USER:PASSWORD@]HOST:PORT[/DB], or rediss://…[?ca=CAFILE] for TLS')
    .option('--concurrency <n>', 'games played at once, each in its own process (default: CPU count)', parseWorkers)
    .option('--player <NAME=COMMAND>', 'an external player this machine runs (repeatable): NAME=COMMAND (words split on spaces, no shell), NAME=FILE.json (a player file), or NAME (configs/players/NAME.json). Jobs name their player, never a command', collectPlayers, [] as string[])
    .option('--lock-duration <ms>', 'how long a batch stays with a worker that stopped answering (died) before another worker takes it', parseIntegerOption('--lock-duration', 1000, 3_600_000), 30_000)
    .option('--max-memory <MiB>', 'memory the game processes may use for networks (a job whose network would not fit in its processes is refused, saying why; default: what the machine has free)', parseIntegerOption('--max-memory', 1, 2 ** 30))
    .action(async (opts: { queue: string; concurrency?: number; lockDuration: number; player: string[]; maxMemory?: number }) => {
      const { startRemoteWorker } = await import('../../runner/remote-worker');
      const log = (line: string) => console.error(`tune2048 worker: ${line}`);
      const players = await registeredPlayers(opts.player, log);
      const worker = await startRemoteWorker({
        url: opts.queue,
        concurrency: opts.concurrency ?? defaultWorkers(),
        lockDurationMs: opts.lockDuration,
        onLog: log,
        workerPath: process.env.TUNE2048_TEST_GAME_MODULE, // tests only: a fixture that hangs or crashes
        players,
        ...(opts.maxMemory !== undefined ? { maxMemoryBytes: opts.maxMemory * 2 ** 20 } : {}),
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
