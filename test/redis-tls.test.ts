/**
 * Redis between machines is not plaintext only: a redis-server started with TLS alone (its certificate
 * signed by a private CA) and a password; runs and workers reach it with rediss://:PASSWORD@HOST?ca=FILE and
 * play the local run's rows. A plain client, an unknown CA or a wrong password: one line, exit 4, nothing
 * created.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, waitForOutput, type RunningCli } from './helpers/cli';
import { makeCertificates, startRedis, type RedisServer } from './helpers/redis-server';
import { dumpRun, SMOKE, smokeConfig, tempDb, tuneToEnd, writeConfig } from './helpers/runs';

let redis: RedisServer;
let certs: ReturnType<typeof makeCertificates>;
const workers: RunningCli[] = [];
const PASSWORD = 's3cret/pass';

beforeAll(async () => {
  certs = makeCertificates();
  redis = await startRedis({ tls: certs, password: PASSWORD });
});

afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await redis?.stop();
});

describe.sequential('TLS and a password on the queue', () => {
  it('a run and two workers over rediss:// with a password and a private CA: the local rows', async () => {
    expect(redis.url).toMatch(/^rediss:\/\/:s3cret%2Fpass@127\.0\.0\.1:\d+\?ca=/);
    const local = tempDb();
    const reference = await tuneToEnd(local, smokeConfig({ name: 'smoke' }), { workers: 2 });
    for (let i = 0; i < 2; i++) {
      const w = startCli(['worker', '--queue', redis.url, '--concurrency', '1']);
      workers.push(w);
      await waitForOutput(w, 'stderr', /waiting for runs/);
    }
    const db = tempDb();
    const r = await startCli(['tune', '-c', writeConfig({ ...SMOKE, name: 'smoke' }), '--name', 'test', '--db', db, '--queue', redis.url]).done;
    expect(r.code, r.stderr).toBe(0);
    expect(dumpRun(db, 1)).toEqual(dumpRun(local, reference.id));
    expect(r.stderr).not.toContain(PASSWORD); // messages name the queue without its password
  });

  it.each([
    ['a plain client', () => redis.url.replace('rediss://', 'redis://').replace(/\?ca=.*$/, ''), /^tune2048: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+: /],
    ['no CA for its certificate', () => redis.url.replace(/\?ca=.*$/, ''), /^tune2048: cannot reach Redis at rediss:\/\/127\.0\.0\.1:\d+: .*(self[- ]signed|unable to verify|certificate)/i],
    ['a wrong password', () => redis.url.replace('s3cret%2Fpass', 'wrong'), /^tune2048: cannot reach Redis at rediss:\/\/127\.0\.0\.1:\d+: .*(WRONGPASS|invalid username-password)/i],
  ])('%s: one line, exit 4, no database', (_what, url, message) => {
    const db = tempDb();
    const r = runCli(['tune', '-c', writeConfig(SMOKE), '--db', db, '--queue', url()]);
    expect(r.code).toBe(4);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(message);
    expect(existsSync(db)).toBe(false);
  });

  it('malformed TLS settings in the URL: exit 2 naming them', () => {
    const cases: [string, RegExp][] = [
      [`redis://127.0.0.1:6379?ca=${certs.ca}`, /\?ca= is for TLS: use rediss:\/\//],
      ['rediss://127.0.0.1:6379?ca=/nonexistent/ca.pem', /the CA file "\/nonexistent\/ca.pem" does not exist/],
      ['rediss://127.0.0.1:6379?cert=x', /unknown URL parameter "cert" \(only \?ca=CAFILE, with rediss:\/\/\)/],
      ['http://127.0.0.1:6379', /must be a Redis URL like redis\[s\]:\/\//],
    ];
    for (const [url, message] of cases) {
      const r = runCli(['play', '-n', '1', '--queue', url]);
      expect(r.code, url).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
