/**
 * The module every worker-farm child loads: it wraps the real worker module
 * (TUNE2048_WORKER_MODULE) so that any worker, fixtures included, announces
 * the start of each call (the pool times calls from that moment) and behaves
 * as a child of the tuner should.
 */

// Ctrl-C and a closed terminal reach the whole process group: the parent
// decides when workers stop, so it can store finished batches first.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
// The parent is gone (kill -9, double Ctrl-C): nothing will read our results.
// A failed send to a dead parent is an 'error' on process, not worth a stack trace.
process.on('disconnect', () => process.exit(0));
process.on('error', () => process.exit(0));

// eslint-disable-next-line @typescript-eslint/no-require-imports
const target = require(process.env.TUNE2048_WORKER_MODULE as string) as Record<string, (task: unknown, cb: (e: Error | null, r?: unknown) => void) => void>;
const method = process.env.TUNE2048_WORKER_METHOD as string;

/** A batch starts: tell the pool (its timeout starts now), then run it. */
export function run(task: unknown, token: number, callback: (e: Error | null, r?: unknown) => void): void {
  process.send?.({ owner: 'tune2048', event: 'start', token });
  target[method](task, callback);
}
