import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Store, STALE_HEARTBEAT_MS } from '../src/store/store';
import { pidAlive } from '../src/util/proc';
import { RunBusyError, RunLostError } from '../src/util/errors';
import { suggest } from '../src/util/command-hint';
import { createRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
import { waitFor } from './helpers/cli';
import { smokeConfig } from './helpers/runs';
import { APPLICATION_ID, SCHEMA_VERSION } from '../src/store/schema';
import { tempDb } from './helpers/runs';

describe('store', () => {
  it('creates a fresh database at the current schema, marked as tune2048\'s, in WAL mode', () => {
    const path = tempDb();
    const store = Store.open(path);
    expect(store.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(store.connectionForTests().pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(store.connectionForTests().pragma('journal_mode', { simple: true })).toBe('wal');
    store.close();
  });

  it('upgrades an old-schema file and keeps its data', () => {
    const path = tempDb();
    const old = Store.open(path, { migrate: false });
    old.migrate(1);
    expect(old.schemaVersion()).toBe(1);
    old.connectionForTests().prepare("INSERT INTO runs (name, config, config_hash, seed, status, created_at) VALUES ('old', '{}', 'h', 5, 'stopped', 1)").run();
    expect(() => old.connectionForTests().prepare('SELECT error FROM runs').all()).toThrow(/no such column/);
    old.close();
    const store = Store.open(path);
    expect(store.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(store.connectionForTests().prepare('SELECT name, seed, error FROM runs').get()).toEqual({ name: 'old', seed: 5, error: null });
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
      const id = store.createRun({ name: 'r', storedConfig: {}, configHash: 'h', seed: 1 });
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
      expect(store.requireRun(id)).toMatchObject({ status: 'running', ownerPid: process.pid });
      store.close();
    });

    it('takes over a holder whose heartbeat is old, even if its pid exists', () => {
      const { store, id } = setup();
      store.acquireRun(id, process.ppid, hostname(), Date.now() - STALE_HEARTBEAT_MS - 1000);
      expect(() => store.acquireRun(id)).not.toThrow();
      store.close();
    });

    it('takes over a holder that is a zombie (killed, not yet reaped): it holds nothing', async () => {
      const { store, id } = setup();
      // The shell starts a child, then becomes `sleep`, which never reaps: the child, killed once the shell is
      // gone (so the shell cannot reap it first), stays a zombie until the test ends.
      const parent = spawn('sh', ['-c', 'sleep 600 & echo $!; exec sleep 601']);
      const zombie = await new Promise<number>((resolve) => parent.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
      try {
        const cmdline = () => {
          try {
            return readFileSync(`/proc/${parent.pid}/cmdline`, 'utf8');
          } catch {
            return '';
          }
        };
        await waitFor(() => cmdline() === 'sleep\u0000601\u0000');
        process.kill(zombie, 'SIGKILL');
        const isZombie = () => {
          try {
            const stat = readFileSync(`/proc/${zombie}/stat`, 'utf8');
            return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
          } catch {
            return false;
          }
        };
        await waitFor(isZombie);
        expect(pidAlive(zombie)).toBe(false);
        store.acquireRun(id, zombie); // fresh heartbeat, pid "exists" for kill(pid, 0)
        expect(() => store.acquireRun(id)).not.toThrow();
      } finally {
        parent.kill('SIGKILL');
        store.close();
      }
    });

    it('a holder that was taken over (paused too long) is told so at its next write, and releases nothing', () => {
      const path = tempDb();
      const paused = Store.open(path);
      const id = paused.createRun({ name: 'r', storedConfig: {}, configHash: 'h', seed: 1 });
      paused.acquireRun(id, process.pid, hostname(), Date.now() - STALE_HEARTBEAT_MS - 1000);
      const other = Store.open(path);
      other.acquireRun(id, 4242, 'elsewhere');
      expect(() => paused.heartbeat(id)).toThrow(RunLostError);
      expect(() => paused.heartbeat(id)).toThrow(RunLostError); // and at every write after
      paused.releaseRun(id, 'stopped', 'interrupted');
      expect(other.requireRun(id)).toMatchObject({ status: 'running', ownerPid: 4242, ownerHost: 'elsewhere' });
      paused.close();
      other.close();
    });

    it('every write of a holder checks that it still holds the run', () => {
      const path = tempDb();
      const paused = Store.open(path);
      const id = paused.createRun({ name: 'r', storedConfig: {}, configHash: 'h', seed: 1 });
      paused.acquireRun(id);
      paused.insertGeneration(id, 0, {}, [{ genome: [0.5], params: { a: 1 }, origin: 'init', parents: [] }]);
      const cand = paused.getCandidates(id, 0)[0].id;
      paused.connectionForTests().prepare('UPDATE runs SET owner_pid = 4242 WHERE id = ?').run(id);
      expect(() => paused.insertGames([{ candidateId: cand, purpose: 'fitness', seed: 2, score: 1, maxTile: 2, moves: 1, ms: 1 }])).toThrow(/run 1 was taken over by pid 4242/);
      expect(paused.getGames(cand, 'fitness')).toEqual([]);
      paused.close();
    });

    it("a learning run's writes (a checkpoint, its start boards) refuse a process that no longer holds it, and keep what the holder wrote", () => {
      const store = Store.open(tempDb());
      const id = store.createLearnRun({ name: 'x', storedConfig: {} });
      store.acquireLearnRun(id, 4242, 'here');
      const boards = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
      store.saveLearnStarts(id, boards, 4242, 'here');
      const lost = new RegExp(`^learning run ${id} was taken over by pid 4242 on here while this process was paused or silent; this process stops and writes nothing more$`);
      expect(() => store.saveLearnStarts(id, new Uint8Array(8), 4343, 'here')).toThrow(lost);
      expect(() => store.saveLearnCheckpoint({ runId: id, games: 1, meanScore: 0, maxTile: 2, tables: null, at: 0 }, 4343, 'here')).toThrow(lost);
      expect([...store.learnStarts(id)!]).toEqual([...boards]);
      expect(store.learnCurve(id)).toEqual([]);
      store.close();
    });

    it('release clears the holder', () => {
      const { store, id } = setup();
      store.acquireRun(id);
      store.releaseRun(id, 'stopped', 'interrupted');
      expect(store.requireRun(id)).toMatchObject({ status: 'stopped', ownerPid: null, error: 'interrupted' });
      store.close();
    });
  });

  describe('reading and failing storage', () => {
    it('a reader opens read-only: it never creates, migrates or leaves files, and works beside a writer', () => {
      const path = tempDb();
      const writer = Store.open(path);
      writer.createRun({ name: 'r', storedConfig: {}, configHash: 'h', seed: 1 });
      const reader = Store.open(path, { readonly: true });
      expect(reader.listRuns()).toHaveLength(1);
      writer.createRun({ name: 's', storedConfig: {}, configHash: 'h', seed: 2 }); // no "database is locked"
      expect(reader.listRuns()).toHaveLength(2);
      expect(() => reader.connectionForTests().prepare("UPDATE runs SET name = 'x'").run()).toThrow(/readonly/);
      reader.close();
      writer.close();
      // At rest, the file needs nothing beside it.
      expect(existsSync(`${path}-wal`) || existsSync(`${path}-shm`)).toBe(false);
    });

    it('a reader of an older schema is told how to upgrade, and the file is left as it was', () => {
      const path = tempDb();
      const old = Store.open(path, { migrate: false });
      old.migrate(1);
      old.close();
      expect(() => Store.open(path, { readonly: true })).toThrow(/schema version 1, older than this tune2048's .* a writing command upgrades it/);
      const check = new Database(path, { readonly: true });
      expect(check.pragma('user_version', { simple: true })).toBe(1);
      check.close();
    });

    it('a full disk mid-run: the run is stored as failed with every finished game, and closing is not an error', async () => {
      const path = tempDb();
      const store = Store.open(path);
      const id = createRun(store, smokeConfig({ fitness: { games: 40, depth: 0 } }), 'full');
      // SQLite's page limit stands in for a full disk: the same SQLITE_FULL at the same writes.
      store.connectionForTests().pragma(`max_page_count = ${(store.connectionForTests().pragma('page_count', { simple: true }) as number) + 2}`);
      const outcome = await new Tuner(store, id, { workers: 2 }).run(false);
      expect(outcome.status).toBe('failed');
      expect(outcome.error).toMatch(/full/);
      const stored = (store.connectionForTests().prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n;
      expect(stored).toBeGreaterThan(0);
      expect(() => store.close()).not.toThrow();
      const again = Store.open(path, { readonly: true });
      expect(again.requireRun(id)).toMatchObject({ status: 'failed' });
      expect((again.connectionForTests().prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n).toBe(stored);
      again.close();
    });
  });

  it('hints carry --db unless it is the default, quoted for the shell when needed', () => {
    expect(suggest('resume 3')).toBe('tune2048 resume 3');
    expect(suggest('resume 3', 'db/tune2048.sqlite')).toBe('tune2048 resume 3');
    expect(suggest('resume 3', '/tmp/x.sqlite')).toBe('tune2048 resume 3 --db /tmp/x.sqlite');
    expect(suggest('resume 3', "my runs/it's.db")).toBe(`tune2048 resume 3 --db 'my runs/it'\\''s.db'`);
  });
});
