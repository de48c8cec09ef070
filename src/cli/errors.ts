/** Exit codes the CLI promises (documented in README). */
export const EXIT_OK = 0;
/** A run failed (worker crash, I/O). */
export const EXIT_FAILURE = 1;
/** Bad input: arguments, config, weights, board, database. */
export const EXIT_BAD_INPUT = 2;
/** The run is held by another live process. */
export const EXIT_BUSY = 3;
/** A service the command needs (the --queue Redis) cannot be reached. */
export const EXIT_UNAVAILABLE = 4;
/** Interrupted by Ctrl-C / SIGTERM after saving what was finished. */
export const EXIT_INTERRUPTED = 130;

export { InputError } from '../util/errors';
