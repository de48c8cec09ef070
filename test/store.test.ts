import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Store, RunBusyError, STALE_HEARTBEAT_MS } from '../src/store/store';
import { APPLICATION_ID, SCHEMA_VERSION } from '../src/store/schema';
import { tempDb } from './helpers/runs';

describe('store', () => {
  it('creates a fresh database at the current schema, marked as tune2048\'s, in WAL mode', () => {
    const path = tempDb();
    const store = Store.open(path);
    expect(store.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(store.raw.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(store.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    store.close();
  });

  it('upgrades an old-schema file and keeps its data', () => {
    const path = tempDb();
    const old = Store.open(path, { migrate: false });
    old.migrate(1);
    expect(old.schemaVersion()).toBe(1);
    old.raw.prepare("INSERT INTO runs (name, config, config_hash, seed, status, created_at) VALUES ('old', '{}', 'h', 5, 'stopped', 1)").run();
    expect(() => old.raw.prepare('SELECT error FROM runs').all()).toThrow(/no such column/);
    old.close();
    const store = Store.open(path);
    expect(store.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(store.raw.prepare('SELECT name, seed, error FROM runs').get()).toEqual({ name: 'old', seed: 5, error: null });
    store.close();
  });

  it('refuses a database of a newer schema', () => {
    const path = tempDb();
    Store.open(path).close();
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => Store.open(path)).toThrow(new RegExp(`schema version ${SCHEMA_VERSION + 1}, newer than this tune2048 understands`));
  });

  it('refuses a foreign SQLite database and a file that is not SQLite, and changes neither', () => {
    const foreign = tempDb();
    const db = new Database(foreign);
    db.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES (\'mine\')');
    db.close();
    expect(() => Store.open(foreign)).toThrow(/is not a tune2048 database/);
    const check = new Database(foreign);
    expect(check.prepare('SELECT body FROM notes').all()).toEqual([{ body: 'mine' }]);
    expect(check.pragma('user_version', { simple: true })).toBe(0);
    check.close();
    const text = tempDb();
    writeFileSync(text, 'just some text, long enough to not be an empty database file......................................');
    expect(() => Store.open(text)).toThrow(/is not a SQLite database/);
  });

  it('read-only commands do not create a database', () => {
    expect(() => Store.open('/tmp/definitely/missing.sqlite', { create: false })).toThrow(/no database at/);
  });

  it('names a missing run', () => {
    const store = Store.open(tempDb());
    expect(() => store.requireRun(42)).toThrow(/no run 42 in/);
    store.close();
  });

  describe('run ownership', () => {
    const setup = () => {
      const store = Store.open(tempDb());
      const id = store.createRun({ name: 'r', config: '{}', configHash: 'h', seed: 1 });
      return { store, id };
    };

    it('refuses a run held by a live process, naming it', async () => {
      const { store, id } = setup();
      const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
      try {
        store.acquireRun(id, holder.pid as number);
        expect(() => store.acquireRun(id)).toThrow(RunBusyError);
        expect(() => store.acquireRun(id)).toThrow(new RegExp(`held by pid ${holder.pid} on ${hostname()}`));
      } finally {
        holder.kill('SIGKILL');
        store.close();
      }
    });

    it('takes over a holder whose pid is dead', async () => {
      const { store, id } = setup();
      const holder = spawn(process.execPath, ['-e', '0']);
      await new Promise((r) => holder.on('exit', r));
      store.acquireRun(id, holder.pid as number);
      expect(() => store.acquireRun(id)).not.toThrow();
      expect(store.requireRun(id)).toMatchObject({ status: 'running', owner_pid: process.pid });
      store.close();
    });

    it('takes over a holder whose heartbeat is old, even if its pid exists', () => {
      const { store, id } = setup();
      store.acquireRun(id, process.ppid, hostname(), Date.now() - STALE_HEARTBEAT_MS - 1000);
      expect(() => store.acquireRun(id)).not.toThrow();
      store.close();
    });

    it('release clears the holder', () => {
      const { store, id } = setup();
      store.acquireRun(id);
      store.releaseRun(id, 'stopped', 'interrupted');
      expect(store.requireRun(id)).toMatchObject({ status: 'stopped', owner_pid: null, error: 'interrupted' });
      store.close();
    });
  });
});
