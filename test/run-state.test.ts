/**
 * One state and one progress for a run in every view: `runs`, `show`, the dashboard's API and the report say
 * the same status (a run whose process was killed is stopped, not running) and the same validation progress
 * (of a front run too: the points chosen and the start, counted by src/tuner/selection/validation.ts), before and after
 * the run is resumed to its end.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runCli, startCli, waitFor, waitForOutput, type RunningCli } from './helpers/cli';
import { peek, tempDb, writeConfig } from './helpers/runs';
import { LANDSCAPE } from './helpers/front-run';

const started: RunningCli[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** A two-objective run whose validation takes seconds (its synthetic games take 15 ms each, four a batch). */
const FRONT = {
  name: 'front-state',
  seed: 5,
  space: { start: 'tuned-d1', params: { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 }, sumPower: { min: 1, max: 5 } } },
  optimizer: { kind: 'nsga2', population: 8, generations: 2 },
  fitness: { games: 4, player: 'synthetic', cost: 'nodes', synthetic: { ...LANDSCAPE, gameMs: 15 } },
  validation: { front: 5, games: 40 },
  pool: { batchGames: 4 },
};

interface Shown {
  status: string;
  processGone?: boolean;
  validation: { done: number; total: number } | null;
}

async function serve(db: string): Promise<string> {
  const s = startCli(['serve', '--db', db, '--port', '0']);
  started.push(s);
  let out = '';
  s.child.stdout!.on('data', (d) => (out += d));
  await waitForOutput(s, 'stdout', /^http:\/\/\S+\n/);
  return out.trim().split('\n')[0];
}

/** The run as runs --json, show --json, the dashboard's /api/runs and the report give it. */
async function views(db: string, url: string): Promise<{ runs: Shown; show: Shown; api: Shown; report: string }> {
  const [listed] = JSON.parse(runCli(['runs', '--db', db, '--json']).stdout) as Shown[];
  const shown = (JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout) as { run: Shown }).run;
  const [api] = (await (await fetch(`${url}/api/runs`)).json()) as Shown[];
  const where = mkdtempSync(join(tmpdir(), 'tune2048-state-'));
  dirs.push(where);
  expect(runCli(['report', '1', '--db', db, '--out', join(where, 'r.html')]).code).toBe(0);
  const report = /<p id="summary">Status <b>(\w+)<\/b>/.exec(readFileSync(join(where, 'r.html'), 'utf8'))![1];
  const pick = (v: Shown): Shown => ({ status: v.status, ...(v.processGone ? { processGone: true } : {}), validation: v.validation });
  return { runs: pick(listed), show: pick(shown), api: pick(api), report };
}

describe('a run in every view', () => {
  it('mid-validation of a front, then killed with -9, then resumed to its end: one status and one progress everywhere', async () => {
    const db = tempDb();
    const run = startCli(['tune', '-c', writeConfig(FRONT), '--db', db, '--workers', '1']);
    started.push(run);
    const validationGames = () => peek<{ n: number }>(db, "SELECT count(*) AS n FROM games WHERE purpose = 'validation'")?.n ?? 0;
    await waitFor(() => validationGames() >= 4);
    run.child.kill('SIGSTOP'); // held mid-validation: its process is alive, the run running
    const url = await serve(db);
    const live = await views(db, url);
    expect(live.runs.status).toBe('running');
    expect(live.runs.validation!.done).toBeGreaterThanOrEqual(4);
    expect(live.runs.validation!.done).toBeLessThan(live.runs.validation!.total);
    expect(live.runs.validation!.total % 40).toBe(0);
    expect([live.show, live.api, live.report]).toEqual([live.runs, live.runs, 'running']);

    run.child.kill('SIGKILL');
    await run.done;
    const killed = await views(db, url);
    expect(killed.runs).toEqual({ status: 'stopped', processGone: true, validation: live.runs.validation });
    expect([killed.show, killed.api, killed.report]).toEqual([killed.runs, killed.runs, 'stopped']);
    expect(runCli(['runs', '--db', db]).stdout).toMatch(/^1\s+front-state\s+stopped \(process gone\)\s+2\/2\s/m);

    const resumed = runCli(['resume', '1', '--db', db]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const finished = await views(db, url);
    const total = live.runs.validation!.total;
    expect(finished.runs).toEqual({ status: 'finished', validation: { done: total, total } });
    expect([finished.show, finished.api, finished.report]).toEqual([finished.runs, finished.runs, 'finished']);
    // What the run validated: every point chosen and the start, 40 games each, the number every view gave mid-run.
    const validated = (JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout) as { front: unknown[] }).front;
    expect(validated.length).toBeGreaterThan(0);
    expect(peek<{ n: number }>(db, "SELECT count(*) AS n FROM games WHERE purpose = 'validation'")!.n).toBe(total);
  });
});
