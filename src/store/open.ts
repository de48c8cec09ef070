/**
 * Opening a database: the checks before SQLite touches the file (a folder that is not there, a file that is not
 * writable, a missing database named with the command that starts one), SQLite's own refusals as one-line errors
 * naming the file (not a database, another program's, newer, damaged), and a read-only open that never writes
 * beside the file. Store.open (store.ts) is the one caller.
 */
import Database from 'better-sqlite3';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { describeFsError, InputError } from '../util/errors';
import { DEFAULT_DB, suggest } from '../util/command-hint';
import { APPLICATION_ID, OLDEST_READABLE_SCHEMA, SCHEMA_VERSION } from './schema';

export interface OpenOptions {
  /** Create the file (and its folder) when missing (default true; ignored when readonly). */
  create?: boolean;
  /**
   * Read only (runs, show, export, report): never writes, never creates, works on a read-only file,
   * folder or mount, and never stands in a writer's way.
   */
  readonly?: boolean;
  /** Apply pending migrations (default true). Tests pass false to build old files. */
  migrate?: boolean;
  /** Run quick_check first (default true). A server re-opening a file it checked at start skips it. */
  check?: boolean;
  /** What the command looks for (a missing database's message says how to start one): tuning runs (default) or learning runs. */
  purpose?: 'tuning' | 'learning';
}

/** The one-line problem with opening `path` for writing, or null (checked before SQLite tries). */
/**
 * Why a database could not be created at `path` (which does not exist yet), creating nothing: the nearest
 * existing folder above it must be a writable folder. A command checks this before its work, and creates
 * the file only when it has something to keep.
 */
export function creationProblem(path: string): string | null {
  let dir = dirname(resolve(path));
  for (;;) {
    try {
      if (!statSync(dir).isDirectory()) return `cannot create database "${path}": "${dir}" is a file, not a folder`;
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot create database "${path}": ${describeFsError(e)}`;
      // One rule for every path a user names (as --out's): a folder named must exist; only the default db/ is made.
      if (!isDefaultDatabase(path)) return missingFolder(path);
      dir = dirname(dir);
    }
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    return `cannot create database "${path}": its folder is not writable (${describeFsError(e)})`;
  }
  return null;
}

/** Whether a path is the default database's (db/tune2048.sqlite where the command runs): its folder is made when missing. */
function isDefaultDatabase(path: string): boolean {
  return resolve(path) === resolve(DEFAULT_DB);
}

/** A named database's folder that is not there: refused, as every command refuses a missing folder it is given (export --out). */
function missingFolder(path: string): string {
  return `cannot create database "${path}": the folder "${dirname(path)}" does not exist (make it first, or name a database in an existing folder)`;
}

/** A missing database, said with the command that starts what the command asked about in it. */
function missingDatabase(path: string, purpose: OpenOptions['purpose']): string {
  const start = purpose === 'learning' ? suggest(['learn', 'start', '-c', 'learn-ntuple-small'], path) : suggest(['tune', '-c', 'quick'], path);
  return `no database at "${path}": start ${purpose === 'learning' ? 'a learning run' : 'a run'} in it with ${start}, or name another with --db`;
}

function writeProblem(path: string, create: boolean, purpose: OpenOptions['purpose']): string | null {
  let exists = true;
  try {
    if (statSync(path).isDirectory()) return `database "${path}" is a folder, not a file`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot open database "${path}": ${describeFsError(e)}`;
    exists = false;
  }
  if (!exists) {
    if (!create) return missingDatabase(path, purpose);
    if (!existsSync(dirname(resolve(path)))) {
      if (!isDefaultDatabase(path)) return missingFolder(path);
      try {
        mkdirSync(dirname(resolve(path)), { recursive: true });
      } catch (e) {
        return `cannot create database "${path}": ${describeFsError(e)}`;
      }
    }
  }
  // SQLite writes the file and, in WAL mode, a -wal and a -shm file beside it.
  for (const [what, target] of [['the database', path], ['its folder', dirname(resolve(path))]] as const) {
    if (what === 'the database' && !exists) continue;
    try {
      accessSync(target, constants.W_OK);
    } catch (e) {
      return `cannot write database "${path}": ${what} is not writable (${describeFsError(e)})`;
    }
  }
  return null;
}

/** An error from SQLite at open or first read, as a one-line InputError naming the file. */
export function describeOpenError(path: string, e: unknown): Error {
  if (e instanceof InputError) return e;
  const code = (e as { code?: string }).code ?? '';
  if (code === 'SQLITE_NOTADB') return new InputError(`"${path}" is not a SQLite database`);
  if (code.startsWith('SQLITE_CORRUPT')) return new InputError(`"${path}" is damaged (${(e as Error).message}); refusing to use it: restore a backup or pass another --db`);
  if (code.startsWith('SQLITE_CANTOPEN')) return new InputError(`cannot open database "${path}": ${(e as Error).message}`);
  if (code.startsWith('SQLITE_READONLY')) return new InputError(`cannot write database "${path}": ${(e as Error).message}`);
  if (code === 'SQLITE_FULL') return new InputError(`cannot write database "${path}": the disk is full`);
  return e as Error;
}

/**
 * A read-only connection to `path`. A file in WAL mode (a writer killed, or one that could not leave WAL
 * mode at its end) needs a -shm file beside it; in a read-only folder SQLite can create none and refuses
 * the file ("attempt to write a readonly database"). Then the file and its -wal are read from a private
 * copy in the temporary folder (removed by `dispose`): a read never writes beside the database.
 */
function openReadonly(path: string): { db: Database.Database; dispose: () => void } {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('user_version', { simple: true }); // the first read is where a WAL file without its -shm fails
    return { db, dispose: () => undefined };
  } catch (e) {
    if (db?.open) db.close();
    const code = (e as { code?: string }).code ?? '';
    if (code !== 'SQLITE_READONLY_DIRECTORY' && code !== 'SQLITE_CANTOPEN' && code !== 'SQLITE_READONLY_CANTINIT') throw e;
    const copy = mkdtempSync(join(tmpdir(), 'tune2048-read-'));
    const dispose = () => rmSync(copy, { recursive: true, force: true });
    try {
      const target = join(copy, basename(path));
      copyFileSync(path, target);
      if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${target}-wal`);
      const copied = new Database(target, { readonly: true, fileMustExist: true });
      return { db: copied, dispose };
    } catch {
      dispose();
      throw e;
    }
  }
}

/** An open connection and what opening it found. */
export interface OpenedDatabase {
  db: Database.Database;
  /** Removes what opening needed outside the database's folder (a read-only copy), after close. */
  dispose: () => void;
  /** An empty file opened read-only: it holds no runs (and no tables). */
  empty: boolean;
}

/** Opens `path` as OpenOptions say, or throws one line naming the problem (nothing created when it throws before SQLite). */
export function openDatabase(path: string, options: OpenOptions = {}): OpenedDatabase {
  const { create = true, readonly = false, check: quickCheck = true } = options;
  if (!readonly) {
    const problem = writeProblem(path, create, options.purpose);
    if (problem) throw new InputError(problem);
  } else {
    try {
      if (statSync(path).isDirectory()) throw new InputError(`database "${path}" is a folder, not a file`);
    } catch (e) {
      if (e instanceof InputError) throw e;
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new InputError(missingDatabase(path, options.purpose));
      throw new InputError(`cannot open database "${path}": ${describeFsError(e)}`);
    }
  }
  let db: Database.Database | null = null;
  let dispose = () => {};
  try {
    if (readonly) ({ db, dispose } = openReadonly(path));
    else db = new Database(path);
    db.pragma('busy_timeout = 5000');
    const appId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
    if (appId !== APPLICATION_ID && (appId !== 0 || tables > 0)) {
      throw new InputError(`"${path}" is not a tune2048 database (it holds other data); refusing to touch it`);
    }
    if (version > SCHEMA_VERSION) {
      throw new InputError(`"${path}" has schema version ${version}, newer than this tune2048 understands (${SCHEMA_VERSION}); upgrade tune2048`);
    }
    const empty = readonly && tables === 0; // a writer migrates an empty file to the schema
    if (readonly && !empty && version < OLDEST_READABLE_SCHEMA) {
      throw new InputError(`"${path}" has schema version ${version}, older than this tune2048's (${SCHEMA_VERSION}); a writing command upgrades it (e.g. tune2048 resume <run> --db ${path})`);
    }
    // Before anything is written: a damaged file is refused, not written into (and not read as if whole).
    const check = quickCheck ? (db.pragma('quick_check(3)') as { quick_check: string }[]).map((r) => r.quick_check).filter((line) => !line.startsWith('***')) : ['ok'];
    if (check[0] !== 'ok') throw new InputError(`"${path}" is damaged (SQLite quick_check: ${check[0]}); refusing to use it: restore a backup or pass another --db`);
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
    }
    return { db, dispose, empty };
  } catch (e) {
    if (db?.open) db.close();
    dispose();
    throw describeOpenError(path, e);
  }
}
