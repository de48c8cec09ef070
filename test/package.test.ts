/**
 * What `npm pack` puts in the package (package.json "files"): everything the installed command runs — the
 * compiled CLI and its worker threads, both WebAssembly modules, the web front end, the shipped configs and
 * presets — and none of the tests, sources or scripts a user does not need; and the tarball installed into an
 * empty prefix runs from another folder.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, waitFor } from './helpers/cli';
import { peek } from './helpers/runs';

describe('the package', () => {
  it('holds what runs, and no tests, sources or scripts', () => {
    // --ignore-scripts: the build is npm test's own first step (no second build here).
    const out = execFileSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const files = new Set((JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((f) => f.path));
    const needed = [
      'package.json', 'README.md', 'LICENSE',
      'dist/cli/main.js', 'dist/index.js', 'dist/learn/ntuple/train-thread.js', 'dist/player/search-thread.js', 'dist/runner/child.js',
      'build/search.wasm', 'build/learn.wasm',
      ...readdirSync(join(ROOT, 'build', 'web')).map((f) => `build/web/${f}`),
      ...readdirSync(join(ROOT, 'configs')).filter((f) => f.endsWith('.json')).map((f) => `configs/${f}`),
      ...readdirSync(join(ROOT, 'configs', 'weights')).map((f) => `configs/weights/${f}`),
      'examples/players/c/expectimax.c', 'examples/players/python/greedy.py',
      // The README links into docs/: an installed README finds its pages.
      ...(readdirSync(join(ROOT, 'docs'), { recursive: true }) as string[]).filter((f) => statSync(join(ROOT, 'docs', f)).isFile()).map((f) => `docs/${f}`),
    ];
    for (const f of needed) expect(existsSync(join(ROOT, f)), `${f} exists in the checkout`).toBe(true);
    expect(needed.filter((f) => !files.has(f))).toEqual([]);
    expect([...files].filter((f) => /^(test|src|scripts|\.ci)\//.test(f) || f.endsWith('.map') || f === 'examples/players/c/expectimax')).toEqual([]);
    // No install-time script of its own: npm ≥ 11.5 lists any such script of a package installed from a tarball
    // as not allowed, and the package is built already (issue 67: the README's install line warned of "prepare").
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    expect(scripts.filter((s) => ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare'].includes(s))).toEqual([]);
    expect(scripts).toContain('prepack'); // npm pack builds first
  });

  it('the built command runs a shipped config by name from any folder (tune -c smoke), and says what a missing name is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-package-'));
    try {
      const cli = (args: string[]) => spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), ...args], { cwd: dir, encoding: 'utf8' });
      const r = cli(['tune', '-c', 'smoke', '--db', 'runs.sqlite', '--workers', '1']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('export it with: tune2048 export 1 --out tuned.json --db runs.sqlite');
      const missing = cli(['tune', '-c', 'no-such-config', '--db', 'other.sqlite']);
      expect(missing.status).toBe(2);
      expect(missing.stderr.trim()).toMatch(/^tune2048: no config file "no-such-config" here and no shipped tuning config of that name \(shipped: .*\bquick\b.*\bsmoke\b.*\)$/);
      expect(missing.stderr).not.toMatch(/learn-ntuple/); // a learning config is not offered to tune
      expect(existsSync(join(dir, 'other.sqlite'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('installed from its tarball into an empty prefix, runs from another folder: --version, tune -c smoke, export, play, serve', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-install-'));
    try {
      // The tarball as `npm pack` makes it (already built: npm test builds first), installed as a user installs it, from
      // npm's cache where it can. Install scripts are skipped and better-sqlite3's native module is copied from this
      // checkout (the same pinned version and Node) instead of compiled again for a minute and a half: the package's own
      // files are what is tested. msgpackr-extract is optional (BullMQ falls back to JavaScript).
      execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, stdio: 'ignore' });
      const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
      const prefix = join(dir, 'prefix');
      execFileSync('npm', ['install', '-g', '--prefix', prefix, join(dir, tarball), '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
      const installed = join(prefix, 'lib', 'node_modules', 'tune2048');
      const native = join('node_modules', 'better-sqlite3', 'build', 'Release');
      mkdirSync(join(installed, native), { recursive: true });
      copyFileSync(join(ROOT, native, 'better_sqlite3.node'), join(installed, native, 'better_sqlite3.node'));
      const away = join(dir, 'away');
      mkdirSync(away);
      const bin = join(prefix, 'bin', 'tune2048');
      // The user's PATH has the installed command (npm install -g links it into prefix/bin); players built on first use go to a cache of this test's own.
      const cache = join(dir, 'cache');
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, XDG_CACHE_HOME: cache };
      delete env.TUNE2048_CACHE; // the suite's own (test/global-setup.ts): this test is the user's cache
      const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => spawnSync(bin, args, { cwd: away, encoding: 'utf8', env: { ...env, ...extra } });
      expect(cli(['--version']).stdout).toMatch(/^tune2048 \d+\.\d+\.\d+\nsearch build [0-9a-f]{12}, learning build [0-9a-f]{12}\nNode v20/);
      const tune = cli(['tune', '-c', 'smoke', '--workers', '1']);
      expect(tune.status, tune.stderr).toBe(0);
      expect(tune.stdout).toContain('export it with: tune2048 export 1 --out tuned.json');
      expect(cli(['export', '1', '--out', 'tuned.json']).status).toBe(0);
      const play = cli(['play', '--weights', 'tuned.json', '-n', '2', '-d', '1', '--json']);
      expect(play.status, play.stderr).toBe(0);
      // The shipped examples run from the package: the C player (shipped as source) is built on first use into the
      // user's cache, then found there; without a compiler, one line says what to install.
      const c = cli(['play', '--player', 'external:expectimax-c', '-n', '2', '--json']);
      expect(c.status, c.stderr).toBe(0);
      expect(c.stderr).toMatch(new RegExp(`built player "expectimax-c" on first use into ${cache}/tune2048/players/expectimax-c-[0-9a-f]{12}/expectimax`));
      const again = cli(['play', '--player', 'external:expectimax-c', '-n', '2', '--json']);
      // Nothing said but progress (a play past a few seconds, as on a busy machine, shows a bar): not built again.
      const said = again.stderr.split('\n').filter((l) => l.trim() !== '' && !/^\w+ \[[-=]+\] \d+\/\d+ \|/.test(l));
      expect([again.status, said]).toEqual([0, []]);
      const scores = (out: string) => (JSON.parse(out) as { games: { seed: number; score: number }[] }).games.map((g) => [g.seed, g.score]);
      expect(scores(again.stdout)).toEqual(scores(c.stdout));
      expect(existsSync(join(installed, 'examples', 'players', 'c', 'expectimax'))).toBe(false); // nothing written into the package
      const nodeOnly = join(dir, 'node-only');
      mkdirSync(nodeOnly);
      symlinkSync(process.execPath, join(nodeOnly, 'node'));
      const noCompiler = cli(['play', '--player', 'external:expectimax-c', '-n', '1'], { PATH: nodeOnly, XDG_CACHE_HOME: join(dir, 'cache-2') });
      expect(noCompiler.status).toBe(2);
      expect(noCompiler.stderr.trim()).toMatch(/^tune2048: player "expectimax-c": its program \S+\/examples\/players\/c\/expectimax is not built, and building it needs "cc", which is not installed \(on Debian: apt-get install gcc\); install it and run this again/);
      expect(noCompiler.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(join(dir, 'cache-2'))).toBe(false); // nothing made
      // The shipped external-player config starts on it too (its first generation's games stored: it runs; ten minutes to its end).
      const tuneC = spawn(bin, ['tune', '-c', 'external-c', '--db', 'c.sqlite', '--workers', '1'], { cwd: away, env, stdio: 'ignore' });
      try {
        await waitFor(() => (peek<{ n: number }>(join(away, 'c.sqlite'), 'SELECT count(*) AS n FROM games')?.n ?? 0) > 0 || tuneC.exitCode !== null);
        expect(tuneC.exitCode).toBe(null);
      } finally {
        tuneC.kill('SIGKILL');
      }
      // serve finds its front end inside the package.
      const serve = spawn(bin, ['serve', '--port', '0'], { cwd: away, stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          serve.stdout!.on('data', (d) => {
            out += d;
            const m = /^(http:\/\/\S+)\n/.exec(out);
            if (m) resolve(m[1]);
          });
          serve.on('close', (code) => reject(new Error(`serve ended with ${code}`)));
        });
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(await page.text()).toMatch(/<script/);
      } finally {
        serve.kill('SIGKILL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
