/**
 * Ctrl-C, SIGTERM or a closed pipe while compare or sweep plays: the batches running finish (kept with
 * --db), the games not started are cancelled, and the command shows what finished, marked as stopped, then
 * says where the games are kept and the command that goes on (exit 130).
 */
import type { GameRunner } from '../runner/runner';
import { cliName, shellWord } from '../util/command-hint';
import { EXIT_INTERRUPTED } from './exit-codes';
import { handleInterrupts } from './interrupt';
import type { Progress } from './progress';

/** What Ctrl-C does to a comparison while it plays, and what it says once the comparison has stopped. */
export interface Stopper {
  /** The progress bar to close before a message. */
  progress?: Pick<Progress, 'stop' | 'done'>;
  /** Says what was kept and the command that goes on; the command exits 130 (quietly 0 when stdout's reader left). */
  stopped(what: string): void;
  uninstall(): void;
}

/** Installs the handler while `runner` plays a comparison or sweep; `db`: the --db file that keeps the games (none without it). */
export function stopOnSignal(runner: GameRunner, db: string | undefined): Stopper {
  const again = `${cliName()} ${process.argv.slice(2).map(shellWord).join(' ')}`;
  const keptWhere = db !== undefined ? `the games finished are kept in ${db}; the same command goes on from there: ${again}` : 'its games were not kept (no --db): run it with --db FILE to keep them across a stop';
  const handler = handleInterrupts(
    { stop: () => runner.drain(), abandon: () => runner.terminate(), inFlight: () => runner.inFlight() },
    {
      stopping: 'stopping',
      stoppedAtOnce: () => {
        stopper.progress?.stop();
        return `stopped at once; ${keptWhere}`;
      },
      waitingFor: () => `${runner.inFlight()} running batch(es) to finish${db !== undefined ? ` and be kept in ${db}` : ''}`,
    },
  );
  const stopper: Stopper = {
    stopped(what) {
      if (handler.pipeClosed()) return;
      console.error(`tune2048: stopped: ${what}; ${keptWhere}`);
      process.exitCode = EXIT_INTERRUPTED;
    },
    uninstall: () => handler.uninstall(),
  };
  return stopper;
}
