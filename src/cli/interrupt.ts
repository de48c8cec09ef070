/**
 * What Ctrl-C, SIGTERM, SIGHUP and a closed stdout do to a long command with something to save (tune,
 * resume, race): the first signal stops it gracefully (running batches finish and are stored); a second
 * leaves at once (exit 130, the run stored as stopped); a closed pipe stops it quietly (nobody reads
 * any more). One state machine for every such command.
 */
import { EXIT_INTERRUPTED } from './exit-codes';
import { onStop } from './process';

export interface Interruptible {
  /** Graceful: cancel what has not started; what runs finishes and is stored. */
  stop(): void;
  /** Leave now: give the run up as stopped; the process exits right after. */
  abandon(): void;
  /** Batches a graceful stop is waiting for. */
  inFlight(): number;
}

export interface InterruptMessages {
  /** "stopping" or "stopping the race": the first signal's message starts with it. */
  stopping: string;
  /** The second signal's message: what stopped and the command that goes on. */
  stoppedAtOnce: () => string;
  /** What a graceful stop waits for (default: the running batches). */
  waitingFor?: () => string;
}

export interface InterruptHandler {
  /** True once stdout's reader went away (stay quiet about the stop). */
  pipeClosed(): boolean;
  uninstall(): void;
}

/** Installs the handler for as long as the command runs; `onPipe` is what a closed stdout does (default: stop). */
export function handleInterrupts(target: Interruptible, messages: InterruptMessages, onPipe: () => void = () => target.stop()): InterruptHandler {
  let signals = 0;
  let pipeClosed = false;
  const uninstall = onStop((reason) => {
    if (reason.kind === 'pipe') {
      pipeClosed = true;
      onPipe();
      return;
    }
    if (++signals > 1) {
      target.abandon();
      console.error(`\ntune2048: ${messages.stoppedAtOnce()}`);
      process.exit(EXIT_INTERRUPTED); // local workers die with us (runner/farm.ts)
    }
    target.stop();
    const waiting = messages.waitingFor?.() ?? `${target.inFlight()} running batch(es) to finish and be stored`;
    console.error(`\ntune2048: ${reason.signal}: ${messages.stopping}: waiting for ${waiting} (Ctrl-C again to quit at once)`);
  });
  return { pipeClosed: () => pipeClosed, uninstall };
}
