/**
 * One line on stderr when a single step of a command (a deep search, a corner solve) runs longer than a
 * few seconds: that it goes on, and that Ctrl-C stops it. The step runs off the main thread
 * (src/util/off-thread.ts), so the timer fires and the signal is heard.
 */
export const STILL_WORKING_MS = 2000;

export function stillWorking(what: string, afterMs = STILL_WORKING_MS): { cancel(): void } {
  const started = Date.now();
  const timer = setTimeout(() => process.stderr.write(`${what} (${Math.round((Date.now() - started) / 1000)} s so far; Ctrl-C stops it)\n`), afterMs);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
}
