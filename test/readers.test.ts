/**
 * What reads a database never writes, and follows what it reads to the end: `learn show --follow` prints every
 * checkpoint whenever it started; a database followed, killed or resumed, then copied into a read-only folder
 * (with or without what SQLite left beside it), is read by every read-only command as an unprivileged user; a
 * database renamed together with its networks folder keeps working.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startCli, waitFor, waitForOutput } from './helpers/cli';
import { peek, SMOKE } from './helpers/runs';
import Database from 'better-sqlite3';
import { Store } from '../src/store/store';
import { checkpoints, smallLearnConfig } from './helpers/learn';

const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tune2048-readers-'));
  chmodSync(d, 0o755);
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) {
    chmodSync(d, 0o755);
    rmSync(d, { recursive: true, force: true });
  }
});

/** The small network's config (helpers/learn.ts) at 3,000 games with 20 held-out games a checkpoint. */
const learnConfig = (where: string, extra: Record<string, unknown> = {}) => smallLearnConfig(where, { games: 3000, heldOut: { games: 20, seed: 424242 }, ...extra });

function writeConfigFile(where: string, data: unknown): string {
  const path = join(where, 'tune.json');
  writeFileSync(path, JSON.stringify(data));
  return path;
}


describe('learn show --follow', () => {
  it('prints every checkpoint stored, the first included, when it started before there was any', async () => {
    const db = join(dir(), 'follow.sqlite');
    // The run's holder: a live process standing in for a trainer, so that checkpoints arrive exactly when the test stores them.
    const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
    const store = Store.open(db);
    const runId = store.createLearnRun({ name: 'lines by hand', storedConfig: { format: 'tune2048/learn', name: 'lines by hand', games: 300 } });
    store.acquireLearnRun(runId, holder.pid!, hostname());
    store.close();
    const checkpoint = (games: number) => {
      const s = Store.open(db);
      s.saveLearnCheckpoint({ runId, games, meanScore: 1000 + games, maxTile: 256, tables: new Uint8Array(8), at: Date.now() }, holder.pid!, hostname());
      s.close();
    };
    try {
      const follow = startCli(['learn', 'show', String(runId), '--db', db, '--follow']);
      await waitForOutput(follow, 'stdout', /0 checkpoints so far/);
      checkpoint(100);
      await waitForOutput(follow, 'stdout', /checkpoint at 100 games/);
      checkpoint(200);
      await waitForOutput(follow, 'stdout', /checkpoint at 200 games/);
      holder.kill('SIGKILL');
      const r = await follow.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n').filter((l) => l.startsWith('checkpoint at'))).toEqual(['checkpoint at 100 games: mean of the last games 1100', 'checkpoint at 200 games: mean of the last games 1200']);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

describe('a read never writes', () => {
  /** A copy of `files` (names in `from`) in a new folder that its owner (root) then makes read-only, files and folder. */
  function readOnlyCopy(from: string, files: string[]): string {
    const to = dir();
    for (const f of files) cpSync(join(from, f), join(to, f), { recursive: true });
    const seal = (path: string) => {
      for (const e of readdirSync(path, { withFileTypes: true })) {
        if (e.isDirectory()) seal(join(path, e.name));
        else chmodSync(join(path, e.name), 0o444);
      }
      chmodSync(path, 0o555);
    };
    seal(to);
    return to;
  }

  const asNobody = () => {
    const cwd = dir(); // reports and exports go here
    chmodSync(cwd, 0o777);
    return { uid: 65534, gid: 65534, cwd, env: { ...process.env, HOME: cwd } };
  };

  function readsWork(db: string, reads: string[][]): void {
    const user = asNobody();
    const before = readdirSync(join(db, '..')).sort();
    for (const args of reads) {
      const r = runCli([...args.map((a) => a.replace('OUT', join(user.cwd, `out-${args[0]}-${args[1]}`))), '--db', db], user);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    expect(readdirSync(join(db, '..')).sort()).toEqual(before);
  }

  const LEARN_READS = [['learn', 'show'], ['learn', 'show', '1'], ['learn', 'show', '1', '--follow'], ['learn', 'report', '1', '--out', 'OUT.html'], ['learn', 'export', '1', '--out', 'OUT.bin']];

  describe.runIf(process.getuid?.() === 0)('as an unprivileged user (run as "nobody"), in a read-only copy', () => {
    it('a learning database that was followed to its end: the trainer left it whole, with nothing beside it', async () => {
      const where = dir();
      const db = join(where, 'learn.sqlite');
      const run = startCli(['learn', 'start', '-c', learnConfig(where), '--db', db]);
      await waitForOutput(run, 'stderr', /learning run 1 created/);
      const follow = startCli(['learn', 'show', '1', '--db', db, '--follow']);
      const [trained, followed] = await Promise.all([run.done, follow.done]);
      expect(trained.code, trained.stderr).toBe(0);
      expect(followed.code, followed.stderr).toBe(0);
      expect(readdirSync(where).sort()).toEqual(['learn.json', 'learn.sqlite', 'learn.sqlite.networks']);
      readsWork(join(readOnlyCopy(where, ['learn.sqlite', 'learn.sqlite.networks']), 'learn.sqlite'), LEARN_READS);
    });

    it('a learning database whose trainer ended while another reader held it open (left in WAL mode), copied without what sits beside it', async () => {
      const where = dir();
      const db = join(where, 'learn.sqlite');
      const run = startCli(['learn', 'start', '-c', learnConfig(where), '--db', db]);
      await waitFor(() => checkpoints(db) >= 1);
      const reader = new Database(db, { readonly: true });
      try {
        reader.prepare('SELECT count(*) FROM learn_checkpoints').get();
        expect((await run.done).code).toBe(0);
      } finally {
        reader.close();
      }
      expect(readdirSync(where)).toContain('learn.sqlite-shm');
      readsWork(join(readOnlyCopy(where, ['learn.sqlite', 'learn.sqlite.networks']), 'learn.sqlite'), LEARN_READS);
    });

    it('a learning database killed with -9 mid-run, copied with its -wal but not its -shm; then resumed to its end', async () => {
      const where = dir();
      const db = join(where, 'learn.sqlite');
      const run = startCli(['learn', 'start', '-c', learnConfig(where, { games: 100_000 }), '--db', db]);
      await waitFor(() => checkpoints(db) >= 1);
      run.child.kill('SIGKILL');
      await run.done;
      expect(readdirSync(where)).toContain('learn.sqlite-wal');
      const copy = join(readOnlyCopy(where, ['learn.sqlite', 'learn.sqlite-wal', 'learn.sqlite.networks']), 'learn.sqlite');
      readsWork(copy, LEARN_READS);
      expect(JSON.parse(runCli(['learn', 'show', '1', '--db', copy, '--json'], asNobody()).stdout).processGone).toBe(true);
      const last = checkpoints(db);
      const resumed = runCli(['learn', 'resume', '1', '--games', String((last + 1) * 1000), '--db', db]);
      expect(resumed.code, resumed.stderr).toBe(0);
      readsWork(join(readOnlyCopy(where, ['learn.sqlite', 'learn.sqlite.networks']), 'learn.sqlite'), LEARN_READS);
    });

    it('an output that cannot be written: one line saying "permission denied", as every command says it', () => {
      const where = dir();
      const db = join(where, 'learn.sqlite');
      // ziap's nw5x4 tuples, so that its layout takes the network too.
      expect(runCli(['learn', 'start', '-c', learnConfig(where, { games: 1000, network: { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [1, 2, 5, 6], [5, 6, 9, 10]] } }), '--db', db]).code).toBe(0);
      const tuneDb = join(where, 'tune.sqlite');
      expect(runCli(['tune', '-c', writeConfigFile(where, SMOKE), '--db', tuneDb]).code).toBe(0);
      const closed = dir(); // 0o755, root's: nobody cannot write in it
      for (const args of [['learn', 'export', '1', '--db', db, '--out', join(closed, 'net.bin')], ['learn', 'export', '1', '--db', db, '--format', 'ziap', '--out', join(closed, 'z.bin')], ['export', '1', '--db', tuneDb, '--out', join(closed, 'w.json')], ['report', '1', '--db', tuneDb, '--out', join(closed, 'r.html')], ['learn', 'report', '1', '--db', db, '--out', join(closed, 'l.html')]]) {
        const r = runCli(args, asNobody());
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
        expect(r.stderr, args.join(' ')).toMatch(/permission denied/);
        expect(r.stderr, args.join(' ')).not.toMatch(/EACCES/);
      }
      expect(readdirSync(closed)).toEqual([]);
    });

    it('a tuning database killed with -9 mid-run, copied with its -wal: runs, show and report', async () => {
      const where = dir();
      const db = join(where, 'tune.sqlite');
      const config = join(where, 'slow.json');
      writeFileSync(config, JSON.stringify({ ...SMOKE, optimizer: { ...SMOKE.optimizer, generations: 50 } }));
      const run = startCli(['tune', '-c', config, '--db', db, '--workers', '1']);
      await waitFor(() => (peek<{ n: number }>(db, "SELECT count(*) AS n FROM generations WHERE status = 'done'")?.n ?? 0) >= 1);
      run.child.kill('SIGKILL');
      await run.done;
      expect(readdirSync(where)).toContain('tune.sqlite-wal');
      readsWork(join(readOnlyCopy(where, ['tune.sqlite', 'tune.sqlite-wal']), 'tune.sqlite'), [['runs'], ['show', '1'], ['report', '1', '--out', 'OUT.html']]);
    });
  });

  it('a learning database renamed together with its networks folder exports, shows and resumes', () => {
    const where = dir();
    const db = join(where, 'old.sqlite');
    expect(runCli(['learn', 'start', '-c', learnConfig(where, { games: 2000 }), '--db', db]).code).toBe(0);
    const moved = join(dir(), 'new name.sqlite');
    renameSync(db, moved);
    renameSync(`${db}.networks`, `${moved}.networks`);
    const exported = runCli(['learn', 'export', '1', '--db', moved, '--out', join(where, 'net.bin')]);
    expect(exported.code, exported.stderr).toBe(0);
    const resumed = runCli(['learn', 'resume', '1', '--games', '3000', '--db', moved]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readdirSync(`${moved}.networks`)).toEqual(['learn-1-3000.bin']);
    expect(existsSync(`${db}.networks`)).toBe(false);
  });
});
