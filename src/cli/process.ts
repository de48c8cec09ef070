/**
 * How a command ends when something outside stops it: Ctrl-C, SIGTERM, SIGHUP
 * or a closed stdout (`tune2048 runs | head -1`). By default the command exits
 * at once (130 for a signal, 0 for a closed pipe, which is how `head` is used);
 * exiting kills every worker process of the pool (src/runner/farm.ts), so no
 * orphan outlives the command. A command with something to save (a tuning run)
 * installs its own handler for the time it runs.
 */
import { EXIT_INTERRUPTED, EXIT_OK } from './exit-codes';

export type StopReason = { kind: 'signal'; signal: NodeJS.Signals } | { kind: 'pipe' };
type StopHandler = (reason: StopReason) => void;

let handler: StopHandler | null = null;
let stdoutClosed = false;

/** While `h` is installed, it decides what a signal or a closed stdout does. Returns the uninstaller. */
export function onStop(h: StopHandler): () => void {
  handler = h;
  return () => {
    if (handler === h) handler = null;
  };
}

/** True once stdout's reader went away: further output is pointless. */
export function isStdoutClosed(): boolean {
  return stdoutClosed;
}

function stop(reason: StopReason): void {
  if (handler) return handler(reason);
  if (reason.kind === 'signal') process.stderr.write(`\ntune2048: interrupted (${reason.signal})\n`);
  process.exit(reason.kind === 'pipe' ? EXIT_OK : EXIT_INTERRUPTED);
}

export function installProcessGuards(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop({ kind: 'signal', signal }));
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    if (stdoutClosed) return;
    stdoutClosed = true;
    stop({ kind: 'pipe' });
  });
}
