/**
 * An error caused by what the user gave (a file, an argument, a board, a
 * database): the CLI prints its one-line message and exits with code 2.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}
