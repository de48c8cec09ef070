/**
 * Every command the tool prints works pasted where the user is: "tune2048 …" where the user's PATH has this
 * tune2048 (installed), "npx tune2048 …" in a checkout without it, "node …/main.js …" anywhere else; and a
 * missing database's message names the command that starts what the command looks for.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, runPrinted, startCli, waitForOutput } from './helpers/cli';
import { SMOKE, writeConfig } from './helpers/runs';
import { folders } from './helpers/folders';

const dir = folders('tune2048-printed-');

/** The suite's PATH without the folder that has this CLI as tune2048 (test/global-setup.ts): a checkout's user. */
const notInstalled = { ...process.env, PATH: (process.env.PATH ?? '').split(':').filter((d) => d !== process.env.TUNE2048_TEST_BIN).join(':') };

/** The "export it with:" line of a finished tune, and that the printed command writes the file where the user is. */
function exportHint(cwd: string, env: NodeJS.ProcessEnv): string {
  const db = join(dir(), 'runs.sqlite');
  const r = runCli(['tune', '-c', writeConfig(SMOKE), '--db', db], { cwd, env });
  expect(r.code, r.stderr).toBe(0);
  const hint = /export it with: (.*)$/m.exec(r.stdout)![1];
  const pasted = runPrinted(hint, { cwd, env });
  expect(pasted.code, pasted.stderr).toBe(0);
  return hint.replace(` --db ${db}`, ' --db DB');
}

describe('printed commands, pasted where the user is', () => {
  it('installed (this tune2048 on the PATH): "tune2048 …"', () => {
    expect(exportHint(dir(), process.env)).toBe('tune2048 export 1 --out tuned.json --db DB');
  });

  it('in a checkout (and its subfolders) without it on the PATH: "npx tune2048 …", which runs this checkout\'s', () => {
    const sub = mkdtempSync(join(ROOT, 'db', 'printed-'));
    try {
      expect(exportHint(ROOT, notInstalled)).toBe('npx tune2048 export 1 --out tuned.json --db DB');
      expect(exportHint(sub, notInstalled)).toBe('npx tune2048 export 1 --out tuned.json --db DB');
    } finally {
      rmSync(sub, { recursive: true, force: true });
      rmSync(join(ROOT, 'tuned.json'), { force: true });
    }
  });

  it('elsewhere, or where another tune2048 comes first on the PATH: "node …/dist/cli/main.js …"', () => {
    const main = join(ROOT, 'dist', 'cli', 'main.js');
    expect(exportHint(dir(), notInstalled)).toBe(`node ${main} export 1 --out tuned.json --db DB`);
    const other = dir();
    writeFileSync(join(other, 'tune2048'), '#!/bin/sh\necho "another tune2048" >&2; exit 9\n');
    chmodSync(join(other, 'tune2048'), 0o755);
    expect(exportHint(dir(), { ...process.env, PATH: `${other}:${process.env.PATH}` })).toBe(`node ${main} export 1 --out tuned.json --db DB`);
    // TUNE2048_COMMAND names the command when the user wraps it.
    expect(exportHint(dir(), { ...notInstalled, TUNE2048_COMMAND: `node ${main}` })).toBe(`node ${main} export 1 --out tuned.json --db DB`);
  });

  it('a missing database: the command that starts what was asked for in it (a learning run for learn commands), which runs as printed', async () => {
    const where = dir();
    const db = join(where, 'none.sqlite');
    const learn = runCli(['learn', 'show', '--db', db]);
    expect([learn.code, learn.stderr.trim()]).toEqual([2, `tune2048: no database at "${db}": start a learning run in it with tune2048 learn start -c learn-ntuple-small --db ${db}, or name another with --db`]);
    for (const args of [['learn', 'show', '1'], ['learn', 'export', '1', '--out', join(where, 'x.bin')], ['learn', 'report', '1'], ['learn', 'resume', '1']]) {
      expect(runCli([...args, '--db', db]).stderr).toContain(`start a learning run in it with tune2048 learn start -c learn-ntuple-small --db ${db}`);
    }
    const tune = runCli(['show', '1', '--db', db]);
    expect(tune.stderr.trim()).toBe(`tune2048: no database at "${db}": start a run in it with tune2048 tune -c quick --db ${db}, or name another with --db`);
    // Pasted, each starts (stopped once it has begun: the demo runs take minutes).
    for (const [command, stream, begun] of [[`tune2048 learn start -c learn-ntuple-small --db ${db}`, 'stderr', /learning run 1 created/], [`tune2048 tune -c quick --db ${db}`, 'stdout', /^run 1$/m]] as const) {
      const run = startCli(command.split(' ').slice(1), { cwd: where });
      await waitForOutput(run, stream, begun);
      run.child.kill('SIGKILL');
      await run.done;
    }
  });
});
