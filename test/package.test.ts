/**
 * What `npm pack` puts in the package (package.json "files"): everything the installed command runs — the
 * compiled CLI and its worker threads, both WebAssembly modules, the web front end, the shipped configs and
 * presets — and none of the tests, sources or scripts a user does not need.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers/cli';

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
    ];
    for (const f of needed) expect(existsSync(join(ROOT, f)), `${f} exists in the checkout`).toBe(true);
    expect(needed.filter((f) => !files.has(f))).toEqual([]);
    expect([...files].filter((f) => /^(test|src|scripts|\.ci)\//.test(f) || f.endsWith('.map') || f === 'examples/players/c/expectimax')).toEqual([]);
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
      expect(missing.stderr.trim()).toBe('tune2048: cannot read config file "no-such-config": ENOENT');
      expect(existsSync(join(dir, 'other.sqlite'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
