/** compare and sweep with --db [--run]: the target is checked before any game is played, the result stored after. */
import { existsSync } from 'node:fs';
import { creationProblem, Store, type StoredResult } from '../store/store';
import { InputError } from '../util/errors';
import { storeMemo } from '../compare/memo';
import type { GameMemo } from '../compare/compare';

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

/** With --db, keeps a comparison or sweep (tied to --run, if given) for the run's report, in the database the command holds. */
export function keepResult(store: Store, opts: StoreTarget, result: StoredResult): void {
  const id = store.insertResult(opts.run ?? null, result);
  console.error(`stored as comparison ${id} in ${opts.db}${opts.run ? ` (run ${opts.run})` : ''}`);
}

/** With --db: the database, held while the games are played, and the memory of games it keeps there. */
export type OpenGameMemo = { store: Store; memo: GameMemo } | null;

/**
 * compare and sweep with --db: every finished batch is kept, so the same command goes on after an
 * interruption, playing only what is missing (it says so once).
 */
export function openGameMemo(opts: StoreTarget): OpenGameMemo {
  if (!opts.db) return null;
  const store = Store.open(opts.db, { create: opts.run === undefined });
  const kept = storeMemo(store);
  let said = false;
  const memo: GameMemo = {
    known(spec, seeds) {
      const found = kept.known(spec, seeds);
      if (found.size > 0 && !said) {
        said = true;
        console.error(`going on from the games ${opts.db} holds of this comparison: only the missing ones are played`);
      }
      return found;
    },
    keep: kept.keep,
  };
  return { store, memo };
}
