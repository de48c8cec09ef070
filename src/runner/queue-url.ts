/**
 * The --queue value: a Redis URL, checked without loading the Redis client (so a typo costs nothing).
 * redis:// is plain TCP (one machine, or a trusted network); rediss:// is TLS, checked against the system's
 * CAs or the CA file named by `?ca=FILE` (a private CA's certificate, PEM); a password or an ACL user goes
 * in the URL (rediss://USER:PASSWORD@HOST).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../util/errors';
import { shellWord } from '../util/command-hint';

export interface QueueUrl {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** rediss://: TLS, with this CA file if given (else the system's CAs). */
  tls?: { caFile?: string };
  /** The URL without its password, for messages. */
  display: string;
  /** The URL as given, password and CA file included: for a command printed to be pasted (the user typed it). */
  asGiven: string;
}

const FORM = 'redis[s]://[USER:PASSWORD@]HOST[:PORT][/DB][?ca=CAFILE]';

export function parseQueueUrl(value: string, what = '--queue'): QueueUrl {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new InputError(`${what} must be a Redis URL like ${FORM}, got "${value}"`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new InputError(`${what} must be a Redis URL like ${FORM} (redis:// or, with TLS, rediss://), got "${value}"`);
  const tls = u.protocol === 'rediss:';
  if (!u.hostname) throw new InputError(`${what}: no host in "${value}" (${FORM})`);
  const port = u.port === '' ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) throw new InputError(`${what}: the database after the host must be a number from 0 to 99, got "/${path}"`);
  if (u.hash) throw new InputError(`${what}: no fragment in a Redis URL, got "${value}"`);
  const keys = [...u.searchParams.keys()];
  const unknown = keys.find((k) => k !== 'ca');
  if (unknown !== undefined) throw new InputError(`${what}: unknown URL parameter "${unknown}" (only ?ca=CAFILE, with rediss://)`);
  const caFile = u.searchParams.get('ca') ?? undefined;
  if (caFile !== undefined && !tls) throw new InputError(`${what}: ?ca= is for TLS: use rediss://, got "${value}"`);
  if (caFile !== undefined && (caFile === '' || !existsSync(caFile))) throw new InputError(`${what}: the CA file "${caFile}" does not exist`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return {
    host,
    port,
    db: path === '' ? 0 : Number(path),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(tls ? { tls: caFile !== undefined ? { caFile } : {} } : {}),
    display: `${tls ? 'rediss' : 'redis'}://${u.hostname}:${port}${path === '' ? '' : `/${path}`}`,
    asGiven: value,
  };
}

/**
 * The queue's URL for a command printed to be pasted: as given (the CA file, the user), and the password too on a
 * terminal; where stderr goes to a log, the password is written as **** and said so (logs get shared; the user
 * typed it and knows it).
 */
export function pastableQueue(url: QueueUrl, toTerminal = process.stderr.isTTY === true): { word: string; note: string } {
  if (url.password === undefined || toTerminal) return { word: shellWord(url.asGiven), note: '' };
  const u = new URL(url.asGiven);
  u.password = '****';
  return { word: shellWord(u.toString()), note: ' (**** in place of the password given to --queue, not written to logs)' };
}

/** The Redis queue of a run: the same for every session of the run, distinct for every run of every database. */
export function runQueueName(dbPath: string, runId: number): string {
  const db = createHash('sha1').update(resolve(dbPath)).digest('hex').slice(0, 10);
  return `run-${db}-${runId}`;
}
