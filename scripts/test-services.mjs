#!/usr/bin/env node
/**
 * `npm test`'s first step (the `pretest` script): the suite starts a real redis-server (the queue tests,
 * with TLS certificates made by openssl) and headless Chromium (the dashboard's end-to-end tests), and
 * builds and runs the example external players (cc, python3), all from Debian's packages. When one is
 * missing, this installs it the way .ci/run always did (apt-get, as root), saying what it installs first;
 * without root or apt-get it stops at once with one line naming the command to run. Never skips a suite.
 *
 * TUNE2048_REDIS_SERVER and TUNE2048_CHROMIUM point the tests (and this check) at other binaries.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const redis = process.env.TUNE2048_REDIS_SERVER ?? 'redis-server';
const chromium = process.env.TUNE2048_CHROMIUM ?? '/usr/bin/chromium';

function runs(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.status === 0;
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Debian packages still missing, by what the tests look for. */
function missing() {
  const need = [];
  if (!runs(redis, ['--version'])) need.push('redis-server');
  if (!executable(chromium)) need.push('chromium');
  if (!runs('openssl', ['version'])) need.push('openssl');
  if (!runs('cc', ['--version'])) need.push('gcc');
  if (!runs('python3', ['--version'])) need.push('python3');
  return need;
}

const need = missing();
if (need.length === 0) process.exit(0);

// The very commands run below, printed as they run (a user who copies them gets what the suite did).
const UPDATE = ['update', '-qq'];
const INSTALL = ['install', '-y', '-qq', '--no-install-recommends', ...need];
const command = `apt-get ${INSTALL.join(' ')}`;
const overridden = need.filter((p) => (p === 'redis-server' ? process.env.TUNE2048_REDIS_SERVER : p === 'chromium' ? process.env.TUNE2048_CHROMIUM : undefined));
if (overridden.length > 0) {
  const named = overridden.map((p) => (p === 'redis-server' ? `TUNE2048_REDIS_SERVER=${redis}` : `TUNE2048_CHROMIUM=${chromium}`));
  console.error(`npm test: ${named.join(' and ')} ${named.length > 1 ? 'are' : 'is'} not there to run: fix the variable or unset it`);
  process.exit(1);
}
const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (!root || !runs('apt-get', ['--version'])) {
  console.error(`npm test: the suite needs ${need.join(' and ')} (Debian packages) and cannot install them here (${root ? 'no apt-get' : 'not root'}): run "sudo apt-get ${UPDATE.join(' ')} && sudo ${command}", then npm test again`);
  process.exit(1);
}

// Each package by the tests that need it, so the line says why each one is installed.
const FOR = { 'redis-server': 'the Redis queue tests', chromium: "the dashboard's browser tests", openssl: 'the TLS queue tests', gcc: 'the C example player', python3: 'the Python example player' };
console.error(`npm test: installing from Debian's packages ${need.map((p) => `${p} (for ${FOR[p]})`).join(', ')}: apt-get ${UPDATE.join(' ')} && ${command}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [UPDATE, INSTALL]) {
  const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (r.status !== 0) {
    console.error(`npm test: "apt-get ${args.join(' ')}" failed (exit ${r.status ?? r.signal}); install ${need.join(' and ')} by hand, then npm test again`);
    process.exit(1);
  }
}
const still = missing();
if (still.length > 0) {
  console.error(`npm test: ${still.join(' and ')} still missing after apt-get install; install by hand, then npm test again`);
  process.exit(1);
}
console.error(`npm test: installed ${need.join(' and ')}`);
