/**
 * A real redis-server (Debian's package) on a free loopback port, for the
 * tests and the queue benchmark: no persistence, its own temporary folder,
 * stopped by the caller. Ready when it prints "Ready to accept connections".
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
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

/** A private CA and a certificate for 127.0.0.1 signed by it (openssl), for a TLS redis-server. */
export function makeCertificates(): { dir: string; ca: string; cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-tls-'));
  const f = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '2', '-subj', '/CN=tune2048 test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(f('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.crt'), '-days', '2', '-extfile', f('san.ext'));
  return { dir, ca: f('ca.crt'), cert: f('server.crt'), key: f('server.key') };
}

export interface RedisOptions {
  port?: number;
  /** TLS only (no plain port), with this certificate; the URL is rediss://…?ca=CA. */
  tls?: { ca: string; cert: string; key: string };
  /** requirepass: the URL carries it. */
  password?: string;
}

export async function startRedis(portOrOptions?: number | RedisOptions): Promise<RedisServer> {
  const missing = redisServerMissing();
  if (missing) throw new Error(missing);
  const o: RedisOptions = typeof portOrOptions === 'number' ? { port: portOrOptions } : (portOrOptions ?? {});
  const p = o.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-redis-'));
  const listen = o.tls ? ['--port', '0', '--tls-port', String(p), '--tls-cert-file', o.tls.cert, '--tls-key-file', o.tls.key, '--tls-ca-cert-file', o.tls.ca, '--tls-auth-clients', 'no'] : ['--port', String(p)];
  const auth = o.password ? ['--requirepass', o.password] : [];
  const child = spawn(REDIS_SERVER, [...listen, ...auth, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (d) => {
      seen += d;
      if (/Ready to accept connections/.test(seen)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready: ${seen.slice(-400)}`)));
  });
  const credentials = o.password ? `:${encodeURIComponent(o.password)}@` : '';
  return {
    url: o.tls ? `rediss://${credentials}127.0.0.1:${p}?ca=${encodeURIComponent(o.tls.ca)}` : `redis://${credentials}127.0.0.1:${p}`,
    port: p,
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
