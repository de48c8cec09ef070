/**
 * The README's commands work as printed: the five-minute tour runs line by line in an empty folder, as a
 * newcomer would run it (`tune2048` is the CLI from source), each command exiting 0, in order, on the
 * database the first one made. `serve` runs until stopped: it is started, asked for its dashboard and
 * stopped with Ctrl-C (on a free port, so two suites on one machine do not collide: the one change to a
 * printed line). Of the "other things to try", every line runs except the 1.5-minute network training,
 * which the learning tests cover with smaller configs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT, runCli, startCli, waitForOutput } from './helpers/cli';
import { all } from './helpers/runs';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The `tune2048` lines of the first sh block after a heading, as argument lists (comments dropped, "quoted" words kept whole). */
function commandsUnder(heading: string): string[][] {
  const after = README.slice(README.indexOf(`\n## ${heading}\n`));
  const block = /```sh\n([\s\S]*?)```/.exec(after)![1];
  return block
    .split('\n')
    .filter((line) => line.startsWith('tune2048 '))
    .map((line) => {
      const words = [...line.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
      return words.slice(1);
    });
}

const dirs: string[] = [];
function emptyFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-readme-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function runAll(commands: string[][], cwd: string): Promise<void> {
  for (const args of commands) {
    if (args[0] === 'serve') {
      const s = startCli([...args, '--port', '0'], { cwd });
      let out = '';
      s.child.stdout!.on('data', (d) => (out += d));
      await waitForOutput(s, 'stdout', /^http:\/\/\S+\n/);
      const page = await fetch(`${out.trim().split('\n')[0]}/runs/1`);
      expect(page.status).toBe(200);
      s.child.kill('SIGINT');
      expect([0, 130]).toContain((await s.done).code);
      continue;
    }
    const r = runCli(args, { cwd });
    expect(r.code, `tune2048 ${args.join(' ')}: ${r.stderr.slice(-400)}`).toBe(0);
  }
}

describe('the README', () => {
  it('five-minute tour: every line works as printed, in order, in an empty folder', async () => {
    const tour = commandsUnder('A five-minute tour');
    // The tour goes on from the two commands: run 1 is the quick run the first one made (issue 67: it made no second run).
    expect(tour.map((a) => a[0])).toEqual(['runs', 'show', 'export', 'play', 'compare', 'hint', 'report', 'serve']);
    const first = /## Two commands\n\n```sh\n([\s\S]*?)```/.exec(README)![1].trim().split('\n')[0];
    const steps = first.replace(/\s+#.*$/, '').split('&&').map((x) => x.trim());
    expect(steps.slice(0, 2)).toEqual(['npm ci', 'npm run build']); // a build script, not an install one (issue 67: no npm warning)
    const tune = steps[2].split(/\s+/).slice(2); // npx tune2048 tune --config quick
    expect(tune).toEqual(['tune', '--config', 'quick']);
    const cwd = emptyFolder();
    await runAll([tune, ...tour], cwd);
    expect(all<{ n: number }>(join(cwd, 'db', 'tune2048.sqlite'), 'SELECT count(*) AS n FROM runs')[0].n).toBe(1);
    expect(existsSync(join(cwd, 'db', 'tune2048.sqlite'))).toBe(true);
    expect(existsSync(join(cwd, 'tuned.json'))).toBe(true);
    expect(existsSync(join(cwd, 'run-1.html'))).toBe(true);
  });

  it('other things to try: the lines that take seconds work as printed', async () => {
    const after = README.slice(README.indexOf('Other things to try:'));
    const more = /```sh\n([\s\S]*?)```/.exec(after)![1].split('\n').filter((l) => l.startsWith('tune2048 '));
    const quick = more.filter((l) => /^tune2048 (presets|compare)/.test(l)).map((l) => [...l.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]).slice(1));
    expect(quick).toHaveLength(2);
    await runAll(quick, emptyFolder());
  });

  it('links only to files that exist', () => {
    for (const [, target] of README.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)) {
      if (/^https?:/.test(target)) continue;
      expect(existsSync(join(ROOT, target)), target).toBe(true);
    }
  });

  it('a newcomer\'s README: one results table of at most 8 rows, no figure of the package or the suite that goes stale, the two commands saying what they do', () => {
    const tables = README.split('\n\n').filter((block) => block.split('\n').filter((l) => l.startsWith('|')).length >= 3);
    expect(tables).toHaveLength(1);
    expect(tables[0].split('\n').filter((l) => l.startsWith('|')).length - 2).toBeLessThanOrEqual(8);
    // Sizes of the package and times of the demo or the suite change with every commit and machine: computed elsewhere, or left out.
    expect(README).not.toMatch(/\d+ kB|\d+ files\)|~\d+ s of tuning|suite takes about/);
    const two = /## Two commands\n\n```sh\n([\s\S]*?)```/.exec(README)![1].trim().split('\n');
    expect(two).toHaveLength(2);
    expect(two[1]).toMatch(/^npm test\s+#.*redis-server.*chromium/);
    expect(two[1]).toMatch(/as root/);
  });

  it('docs/results/ is an index by question: every page linked and short, opening with its answer, its command and the published row', () => {
    const dir = join(ROOT, 'docs', 'results');
    const noCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');
    const slug = (h: string) => h.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const anchorsOf = (file: string) => new Set(noCode(readFileSync(file, 'utf8')).split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ''))));
    const linksOf = (text: string) => [...noCode(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^(https?|mailto):/.test(t));
    /** Every relative link of `text` (written in folder `from`) names a file that exists, and its #anchor, if any, a heading of that file. */
    const resolves = (text: string, from: string, self: string) => {
      for (const link of linksOf(text)) {
        const [path, anchor] = link.split('#');
        const target = path === '' ? self : resolve(from, path);
        expect(existsSync(target), `${self}: ${link}`).toBe(true);
        if (anchor !== undefined) expect(anchorsOf(statSync(target).isDirectory() ? join(target, 'README.md') : target).has(anchor), `${self}: ${link}`).toBe(true);
      }
    };
    const pages = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(pages.length).toBeGreaterThanOrEqual(10);
    const index = readFileSync(join(dir, 'README.md'), 'utf8');
    expect(index).toContain("All figures from this project's machine kind (2 cores, Node 20.20). Commands reproduce them exactly: every run derives from its seed.");
    const linked = new Set(linksOf(index).map((l) => resolve(dir, l.split('#')[0])));
    for (const page of pages) expect(linked.has(join(dir, page)), `docs/results/README.md links ${page}`).toBe(true);
    for (const name of ['README.md', ...pages]) {
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      expect(statSync(file).size, `${name} is at most 15,000 bytes`).toBeLessThanOrEqual(15000);
      // A "# " title, then (after blank lines) a paragraph of prose: the answer first, not a table, a heading, a list or code.
      const [title, first] = text.split(/\n(?:[ \t]*\n)+/);
      expect(title, name).toMatch(/^# \S[^\n]*$/);
      expect(first, name).toMatch(/^[^|#>`\-*\s]/);
      expect(first, name).toMatch(/\p{L}[^\n]*[.:!?]/u);
      if (name !== 'README.md') {
        expect(text, `${name}: a "Reproduce" line`).toMatch(/^Reproduce/m);
        expect(text, `${name}: a "Published" line`).toMatch(/^Published/m);
      }
      resolves(text, dir, file);
    }
    // The README's links into docs/results/ land on its pages (and headings).
    const intoResults = linksOf(README).filter((l) => l.startsWith('docs/results/'));
    expect(intoResults.length).toBeGreaterThan(0);
    resolves(intoResults.map((l) => `](${l})`).join('\n'), ROOT, join(ROOT, 'README.md'));
    // docs/results.md stays, a stub, so old links land on the index.
    const stub = readFileSync(join(ROOT, 'docs', 'results.md'), 'utf8');
    expect(stub.length).toBeLessThanOrEqual(1024);
    expect(stub).toContain('](results/README.md)');
    resolves(stub, join(ROOT, 'docs'), join(ROOT, 'docs', 'results.md'));
  });
});
