/** Exit codes the CLI promises (documented in docs/commands.md), and which error ends with which. */
import { InputError, InterruptedError, PlayerError, RunBusyError, RunLostError, UnavailableError } from '../util/errors';

export const EXIT_OK = 0;
/** A run failed (worker crash, I/O). */
export const EXIT_FAILURE = 1;
/** Bad input: arguments, config, weights, board, database. */
export const EXIT_BAD_INPUT = 2;
/** The run is held by another live process (or was taken over by one). */
export const EXIT_BUSY = 3;
/** A service the command needs (the --queue Redis) cannot be reached. */
export const EXIT_UNAVAILABLE = 4;
/** Interrupted by Ctrl-C / SIGTERM after saving what was finished. */
export const EXIT_INTERRUPTED = 130;

/** The exit code of a command that ended with this error. */
export function exitCodeOf(e: unknown): number {
  // A player program that cannot start or misbehaves before anything is stored is bad input too.
  if (e instanceof InputError || e instanceof PlayerError) return EXIT_BAD_INPUT;
  if (e instanceof UnavailableError) return EXIT_UNAVAILABLE;
  if (e instanceof InterruptedError) return EXIT_INTERRUPTED;
  if (e instanceof RunBusyError || e instanceof RunLostError) return EXIT_BUSY;
  return EXIT_FAILURE;
}
