/** The store's shared context (store.ts builds it; tuning.ts, games.ts and learning.ts read and write through it). */
import type Database from 'better-sqlite3';

/** What each part of the store shares: the connection, what opening found, and the holder's write guard. */
export interface StoreContext {
  readonly db: Database.Database;
  readonly path: string;
  /** An empty file opened read-only: it holds no runs (and no tables). */
  readonly empty: boolean;
  schemaVersion(): number;
  /** A write transaction (immediate) that first checks this process still holds its run. */
  write<T>(fn: () => T): T;
}
