/** Opening the database for a command: readers read-only, writers after their input is checked. */
import { Option } from 'commander';
import { DEFAULT_DB, Store, type OpenOptions } from '../store/store';
import { RunBusyError } from '../util/errors';
import { EXIT_BUSY } from './exit-codes';

export const dbOption = () => new Option('--db <file>', 'SQLite database').default(DEFAULT_DB);

/**
 * Opens the database, runs `fn` and closes it. `readonly` commands (runs, show, export, report) never
 * write, create or lock anything. A run held by another live process exits with code 3.
 */
export async function withStore<T>(path: string, mode: 'read' | 'write' | 'write-existing', fn: (store: Store) => Promise<T> | T, options: Pick<OpenOptions, 'check' | 'purpose'> = {}): Promise<T | undefined> {
  const store = Store.open(path, { readonly: mode === 'read', create: mode === 'write', ...options });
  try {
    return await fn(store);
  } catch (e) {
    if (e instanceof RunBusyError) {
      console.error(`tune2048: ${e.message}`);
      process.exitCode = EXIT_BUSY;
      return undefined;
    }
    throw e;
  } finally {
    store.close();
  }
}

/** withStore for the learn commands: a missing database's message says how to start a learning run. */
export function withLearnStore<T>(path: string, mode: 'read' | 'write' | 'write-existing', fn: (store: Store) => Promise<T> | T, options: Pick<OpenOptions, 'check'> = {}): Promise<T | undefined> {
  return withStore(path, mode, fn, { ...options, purpose: 'learning' });
}
