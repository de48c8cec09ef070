/**
 * Every error class of tune2048, in one place. Each says what went wrong in one line; the CLI maps the
 * class to its exit code (src/cli/exit-codes.ts) and prints the message.
 */

/**
 * An error caused by what the user gave (a file, an argument, a board, a database): the CLI prints its
 * one-line message and exits with code 2.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** A service the command needs cannot be reached (Redis): the CLI exits with code 4, nothing created. */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}

/** A run another live process is working on (exit code 3). */
export class RunBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunBusyError';
  }
}

/** This process held a run, and another process has taken it over (this one was suspended or silent too long). */
export class RunLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunLostError';
  }
}

/** A game runner (the local worker pool or the Redis queue) could not play a batch. */
export class RunnerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunnerError';
  }
}

/**
 * The batch's own code failed (bad weights, a bad spec, a bug), not the process that ran it: the same batch
 * would fail again anywhere, so it is never retried (through Redis: BullMQ's UnrecoverableError).
 */
export class BatchFailedError extends RunnerError {
  constructor(message: string) {
    super(message);
    this.name = 'BatchFailedError';
  }
}

/**
 * A batch ran past its time limit on every try: the player is slower than the limit allows (a deep search, a
 * busy machine), not broken. Resuming with a longer limit (`resume --batch-timeout`) goes on.
 */
export class BatchTimeoutError extends RunnerError {
  constructor(
    message: string,
    readonly limitMs: number,
  ) {
    super(message);
    this.name = 'BatchTimeoutError';
  }
}

/** The runner was stopped (drain or terminate) while the batch was pending: not a failure of the batch. */
export class RunnerStoppedError extends RunnerError {
  constructor() {
    super('game runner stopped');
    this.name = 'RunnerStoppedError';
  }
}

/** A tune or race stopped because it was asked to (Ctrl-C, a closed pipe): what finished is stored. */
export class StopRequestedError extends Error {
  constructor(what = 'the run') {
    super(`${what} was stopped`);
    this.name = 'StopRequestedError';
  }
}

/** A step stopped by Ctrl-C, SIGTERM or a closed terminal before it could finish (a first build): nothing of it is kept. */
export class InterruptedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InterruptedError';
  }
}

/** A file-system error as a few words for a one-line message ("permission denied"), else its own message. */
export function describeFsError(e: unknown): string {
  const reasons: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'read-only file system',
    ENOTDIR: 'a part of the path is not a folder',
    ENOENT: 'no such file or folder',
    ENOSPC: 'no space left on the device',
  };
  const code = (e as NodeJS.ErrnoException).code;
  return (code && reasons[code]) ?? (e as Error).message;
}

/**
 * An external player program misbehaved (not found, exited, hung, printed garbage or an illegal move): its
 * one line names the player and what it did. A batch that meets one fails at once (it would fail again).
 */
export class PlayerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlayerError';
  }
}
