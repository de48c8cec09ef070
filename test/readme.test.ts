/**
 * The README's commands work as printed: the five-minute tour runs line by line in an empty folder, as a
 * newcomer would run it (`tune2048` is the CLI from source), each command exiting 0, in order, on the
 * database the first one made. `serve` runs until stopped: it is started, asked for its dashboard and
 * stopped with Ctrl-C (on a free port, so two suites on one machine do not collide: the one change to a
 * printed line). Of the "other things to try", every line runs except the 1.5-minute network training,
 * which the learning tests cover with smaller configs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli, startCli, waitForOutput } from './helpers/cli';

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
    expect(tour.map((a) => a[0])).toEqual(['tune', 'show', 'export', 'play', 'compare', 'hint', 'report', 'serve']);
    const cwd = emptyFolder();
    await runAll(tour, cwd);
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
});
