/**
 * A real redis-server (Debian's package) on a free loopback port, for the
 * tests and the queue benchmark: no persistence, its own temporary folder,
 * stopped by the caller. Ready when it prints "Ready to accept connections".
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = process.env.TUNE2048_REDIS_SERVER ?? 'redis-server';

export function redisServerMissing(): string | null {
  const r = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? null : `${REDIS_SERVER} not found: install Debian's redis-server package (apt-get install redis-server); .ci/run does`;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Stops it and waits until it is gone. */
  stop(): Promise<void>;
}

export async function startRedis(port?: number): Promise<RedisServer> {
  const missing = redisServerMissing();
  if (missing) throw new Error(missing);
  const p = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-redis-'));
  const child = spawn(REDIS_SERVER, ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (d) => {
      seen += d;
      if (/Ready to accept connections/.test(seen)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready: ${seen.slice(-400)}`)));
  });
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
