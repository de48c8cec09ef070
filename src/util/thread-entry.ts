/**
 * The file a worker thread or process runs: the compiled .js beside the caller, or from TypeScript sources
 * (tests, tsx scripts) the .ts with tsx loaded in it too. tsx compiles every module as the thread or process
 * starts (about half a second of processor time each); with TUNE2048_COMPILED=1 a caller from the sources
 * runs the compiled twin of the file in dist/ instead, when there is one. The test suite sets it once it has
 * built dist/ from these very sources (test/global-setup.ts), so its workers run the same code, compiled.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';

/** src/ of this checkout (this file is src/util/thread-entry.ts, or dist/util/thread-entry.js). */
const SRC = join(__dirname, '..');

/** dist/'s compiled twin of src/DIR/NAME.ts, when asked for (TUNE2048_COMPILED=1) and built; else null. */
export function compiledTwin(dir: string, name: string): string | null {
  if (process.env.TUNE2048_COMPILED !== '1') return null;
  const rel = relative(SRC, dir);
  if (rel.startsWith('..')) return null;
  const twin = join(SRC, '..', 'dist', rel, `${name}.js`);
  return existsSync(twin) ? twin : null;
}

export function threadEntry(callerFile: string, dir: string, name: string): { file: string; execArgv: string[] } {
  if (!callerFile.endsWith('.ts')) return { file: `${dir}/${name}.js`, execArgv: [] };
  const twin = compiledTwin(dir, name);
  return twin ? { file: twin, execArgv: [] } : { file: `${dir}/${name}.ts`, execArgv: ['--require', require.resolve('tsx/cjs')] };
}
