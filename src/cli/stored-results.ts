/** compare and sweep with --db [--run]: the target is checked before any game is played, the result stored after. */
import { existsSync } from 'node:fs';
import { creationProblem, Store, type StoredResult } from '../store/store';
import { InputError } from '../util/errors';

export interface StoreTarget {
  db?: string;
  run?: number;
}

/** Refuses a bad --db/--run before the games: a missing run, a foreign or damaged file, an unwritable path. */
export function checkStoreTarget(opts: StoreTarget): void {
  if (opts.run !== undefined && opts.db === undefined) throw new InputError('--run needs --db (the database that holds the run)');
  if (!opts.db) return;
  // A new file is made only once there is something to keep (a refused contender leaves nothing behind).
  if (opts.run === undefined && !existsSync(opts.db)) {
    const problem = creationProblem(opts.db);
    if (problem) throw new InputError(problem);
    return;
  }
  const store = Store.open(opts.db, { create: opts.run === undefined });
  try {
    if (opts.run !== undefined) store.requireRun(opts.run);
  } finally {
    store.close();
  }
}

/** With --db, keeps a comparison or sweep (tied to --run, if given) for the run's report. */
export function storeResult(opts: StoreTarget, result: StoredResult): void {
  if (!opts.db) return;
  const store = Store.open(opts.db);
  try {
    keepResult(store, opts, result);
  } finally {
    store.close();
  }
}

/** storeResult in a database already open (compare holds it while it plays, keeping its games). */
export function keepResult(store: Store, opts: StoreTarget, result: StoredResult): void {
  const id = store.insertResult(opts.run ?? null, result);
  console.error(`stored as comparison ${id} in ${opts.db}${opts.run ? ` (run ${opts.run})` : ''}`);
}
