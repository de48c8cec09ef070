/** The --queue value: a Redis URL, checked without loading the Redis client (so a typo costs nothing). */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { InputError } from '../util/errors';

export interface QueueUrl {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** The URL without its password, for messages. */
  display: string;
}

const FORM = 'redis://[USER:PASSWORD@]HOST[:PORT][/DB]';

export function parseQueueUrl(value: string, what = '--queue'): QueueUrl {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new InputError(`${what} must be a Redis URL like ${FORM}, got "${value}"`);
  }
  if (u.protocol !== 'redis:') throw new InputError(`${what} must be a Redis URL like ${FORM} (redis:// only), got "${value}"`);
  if (!u.hostname) throw new InputError(`${what}: no host in "${value}" (${FORM})`);
  const port = u.port === '' ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) throw new InputError(`${what}: the database after the host must be a number from 0 to 99, got "/${path}"`);
  if (u.search || u.hash) throw new InputError(`${what}: no query or fragment in a Redis URL, got "${value}"`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return {
    host,
    port,
    db: path === '' ? 0 : Number(path),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    display: `redis://${u.hostname}:${port}${path === '' ? '' : `/${path}`}`,
  };
}

/** The Redis queue of a run: the same for every session of the run, distinct for every run of every database. */
export function runQueueName(dbPath: string, runId: number): string {
  const db = createHash('sha1').update(resolve(dbPath)).digest('hex').slice(0, 10);
  return `run-${db}-${runId}`;
}
