/**
 * An external player built on first use. A player definition may say how its program is built
 * (`"build": ["cc", "-O2", "-o", "{program}", "expectimax.c", "-lm"]`); where the program is missing (an
 * installed package ships the C example's source, not a binary, and its folder may not be writable), it is
 * built once into the user's cache folder, named by a hash of the recipe and the sources it names, and run
 * from there.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describeFsError, InputError, InterruptedError } from '../../util/errors';

/** Where built players go: $TUNE2048_CACHE, else $XDG_CACHE_HOME/tune2048, else ~/.cache/tune2048. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TUNE2048_CACHE) return env.TUNE2048_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tune2048');
}

/** The recipe's words that name files in `cwd` (its sources), read for the hash: a changed source builds anew. */
export function recipeHash(build: readonly string[], cwd: string): string {
  const hash = createHash('sha256').update(JSON.stringify(build));
  for (const word of build) {
    const path = join(cwd, word);
    try {
      if (statSync(path).isFile()) hash.update(word).update(readFileSync(path));
    } catch {
      // not a file: a flag or the output
    }
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * The program to run for a player whose `program` is missing: built from `build` (run in `cwd`, "{program}"
 * standing for the file to write) into the cache folder, or found there from an earlier build. One line on
 * stderr when it builds; an InputError saying what to install when the compiler is not there.
 */
export function builtProgram(name: string, program: string, build: readonly string[], cwd: string): string {
  const folder = join(cacheDir(), 'players', `${name}-${recipeHash(build, cwd)}`);
  const out = join(folder, basename(program));
  if (existsSync(out)) return out;
  const tool = build[0];
  const asYouWould = `(cd ${cwd} && ${build.map((w) => w.replaceAll('{program}', program)).join(' ')})`;
  // The first folder of the path that is not there yet: what a failed build removes again.
  let made: string | null = null;
  for (let f = folder; !existsSync(f); f = dirname(f)) made = f;
  try {
    mkdirSync(folder, { recursive: true });
  } catch (e) {
    throw new InputError(`player "${name}": its program ${program} is not built, and the cache folder ${folder} cannot be made (${describeFsError(e)}): set TUNE2048_CACHE to a writable folder, or build it yourself: ${asYouWould}`);
  }
  // Built under a name of its own, then renamed: two commands starting at once never run a half-written file.
  const partial = `${out}.${process.pid}.partial`;
  const r = spawnSync(tool, build.slice(1).map((w) => w.replaceAll('{program}', partial)), { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error || r.status !== 0) {
    rmSync(made ?? partial, { recursive: true, force: true }); // a failed build leaves nothing behind
    // Ctrl-C or a closed terminal reaches the compiler too (it runs in the terminal's process group): a stop, not a failed build.
    // (A build tool that catches the signal exits 128 + its number: 129 SIGHUP, 130 SIGINT, 143 SIGTERM.)
    const stopSignal = r.signal ?? ({ 129: 'SIGHUP', 130: 'SIGINT', 143: 'SIGTERM' } as Record<number, string>)[r.status ?? 0];
    if (stopSignal === 'SIGINT' || stopSignal === 'SIGTERM' || stopSignal === 'SIGHUP') throw new InterruptedError(`stopped while building player "${name}" (${stopSignal}): nothing was built; the next command that plays it builds it`);
    const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT') throw new InputError(`player "${name}": its program ${program} is not built, and building it needs "${tool}", which is not installed${tool === 'cc' || tool === 'gcc' ? ' (on Debian: apt-get install gcc)' : ''}; install it and run this again (the player is built once into ${folder}), or build it yourself: ${asYouWould}`);
    const last = `${r.stderr ?? ''}`.trim().split('\n').filter(Boolean).at(-1) ?? (r.error ? r.error.message : `exit ${r.status ?? r.signal}`);
    throw new InputError(`player "${name}": building its program failed (${build.join(' ')} in ${cwd}): ${last}`);
  }
  renameSync(partial, out);
  console.error(`tune2048: built player "${name}" on first use into ${out}`);
  return out;
}
