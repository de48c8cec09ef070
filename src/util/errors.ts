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

/** A service the command needs cannot be reached (Redis): the CLI exits with code 4, nothing created. */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}
