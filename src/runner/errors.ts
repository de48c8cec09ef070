/** Errors of game runners (the local worker pool and the Redis queue alike). */
export class RunnerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunnerError';
  }
}

/** The runner was stopped (drain or terminate) while the batch was pending: not a failure of the batch. */
export class RunnerStoppedError extends RunnerError {
  constructor() {
    super('game runner stopped');
    this.name = 'RunnerStoppedError';
  }
}
