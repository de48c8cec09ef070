import { describe, expect, it } from 'vitest';
import cliProgress from 'cli-progress';
import { etaTemplate, LogLines } from '../src/cli/progress';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli';
import seedrandom from 'seedrandom';
import { etaSec, GamePace, runEtaSec } from '../src/cli/drive-run';

const options = { format: '', barsize: 10, barCompleteString: '#'.repeat(10), barIncompleteString: '-'.repeat(10), autopaddingChar: '0' } as unknown as cliProgress.Options;
const line = (value: number, eta: unknown) =>
  etaTemplate('{value}/{total} ETA {eta_formatted} elapsed {duration_formatted}')(
    options,
    { value, total: 10, eta: eta as number, progress: value / 10, startTime: Date.now() - 3000, stopTime: Date.now(), maxWidth: 200 } as cliProgress.Params,
    {},
  );

describe('progress line', () => {
  it('says the ETA is unknown before anything is done (cli-progress reports 0)', () => {
    expect(line(0, 0)).toContain('0/10 ETA unknown elapsed 3s');
  });
  it("says unknown for cli-progress's INF and NULL instead of printing 'NFs'", () => {
    expect(line(3, 'INF')).toContain('ETA unknown');
    expect(line(3, 'NULL')).toContain('ETA unknown');
  });
  it('prints a known ETA as minutes and seconds', () => {
    expect(line(3, 125)).toContain('3/10 ETA 2m 05s');
  });
});

describe('run ETA', () => {
  const plan = { generations: 4, validationGames: 200 };
  it('is unknown until a game of this session is done, and counts no time for games stored earlier', () => {
    const pace = new GamePace();
    pace.observe('fitness:1', 30, 0); // resumed: 30 games were stored before
    expect(pace.secondsPerGame()).toBeNull();
    pace.observe('fitness:1', 30, 5000);
    expect(pace.secondsPerGame()).toBeNull();
    pace.observe('fitness:1', 40, 20_000);
    expect(pace.secondsPerGame()).toBe(2);
  });
  it("pools this phase's games with the last phase's (a phase's first games alone set a wild pace), the last phase's until this one has played a game", () => {
    const pace = new GamePace();
    pace.observe('fitness:0', 0, 0);
    pace.observe('fitness:0', 100, 100_000); // 1 s a game
    pace.observe('fitness:1', 0, 100_000);
    expect(pace.secondsPerGame()).toBe(1);
    pace.observe('fitness:1', 2, 100_200); // two cheap games first: alone they would say 0.1 s a game
    expect(pace.secondsPerGame()).toBeCloseTo(100.2 / 102, 9);
    pace.observe('fitness:1', 50, 250_000); // 3 s a game
    expect(pace.secondsPerGame()).toBeCloseTo(250 / 150, 9);
    pace.observe('fitness:2', 0, 250_000);
    pace.observe('fitness:2', 10, 280_000); // the phase before is now fitness:1 alone
    expect(pace.secondsPerGame()).toBeCloseTo((150 + 30) / 60, 9);
  });
  it('is the rest of this generation, the later generations at its size and validation', () => {
    expect(runEtaSec(2, { phase: 'fitness', generation: 1, done: 40, total: 100 }, plan)).toBe(2 * (60 + 2 * 100 + 200));
    expect(runEtaSec(2, { phase: 'fitness', generation: 3, done: 100, total: 100 }, plan)).toBe(2 * 200);
    expect(runEtaSec(2, { phase: 'validation', generation: 4, done: 50, total: 200 }, plan)).toBe(2 * 150);
    expect(runEtaSec(null, { phase: 'fitness', generation: 0, done: 0, total: 100 }, plan)).toBeNull();
  });
  it("counts later phases' games as long as the last generation's best quarter played them (games lengthen as weights improve)", () => {
    const p = { phase: 'fitness' as const, generation: 1, done: 40, total: 100 };
    expect(runEtaSec(2, p, { ...plan, lengthening: 3 })).toBe(2 * (60 + 3 * (2 * 100 + 200)));
    // Never shorter than this phase's pace (an ETA that errs, errs long); the rest of this phase stays at its own pace.
    expect(runEtaSec(2, p, { ...plan, lengthening: 0.5 })).toBe(runEtaSec(2, p, plan));
    expect(runEtaSec(2, { phase: 'validation', generation: 4, done: 50, total: 200 }, { ...plan, lengthening: 3 })).toBe(2 * 150);
  });

  it('a real run reports the lengthening of each generation, and the whole-run ETA is a floor ("or more") until the first generation finishes', () => {
    const db = join(mkdtempSync(join(tmpdir(), 'tune2048-eta-')), 'run.sqlite');
    const r = runCli(['tune', '-c', 'smoke', '--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.event === 'generation-finished');
    expect(events.length).toBeGreaterThan(1);
    for (const e of events) expect(e.lengthening).toBeGreaterThan(0);
    const text = runCli(['tune', '-c', 'smoke', '--db', join(mkdtempSync(join(tmpdir(), 'tune2048-eta-')), 'run.sqlite')], { env: { ...process.env, TUNE2048_PROGRESS: 'every' } });
    expect(text.code, text.stderr).toBe(0);
    const bars = text.stderr.split(/[\r\n]+/).filter((l) => /whole run:/.test(l) && !/unknown left/.test(l));
    const first = bars.filter((l) => l.startsWith('generation 0 '));
    const later = bars.filter((l) => /^(generation [1-9]|validation)/.test(l));
    expect(first.length).toBeGreaterThan(0);
    for (const l of first) expect(l).toMatch(/whole run: \S+( \S+)? or more left/);
    expect(later.length).toBeGreaterThan(0);
    for (const l of later) expect(l).not.toMatch(/or more/);
  });

  it('counts no more later fitness games than a budget leaves', () => {
    // 1,000 generations planned, a budget of 500 games: 150 spent before this generation of 100, 40 of it played.
    const budgeted = { generations: 1000, validationGames: 200, budget: 500 };
    expect(runEtaSec(2, { phase: 'fitness', generation: 2, done: 40, total: 100 }, budgeted, 150)).toBe(2 * (60 + 250 + 200));
    expect(runEtaSec(2, { phase: 'fitness', generation: 9, done: 0, total: 100 }, budgeted, 480)).toBe(2 * (100 + 0 + 200));
  });
  it('the whole run\'s seconds left are never below the phase\'s (a property over random runs)', () => {
    const rng = seedrandom.alea('eta');
    const int = (n: number) => Math.floor(rng() * n);
    for (let k = 0; k < 2000; k++) {
      const total = 1 + int(500);
      const p = { phase: rng() < 0.8 ? ('fitness' as const) : ('validation' as const), generation: int(20), done: int(total + 1), total };
      const plan = { generations: 1 + int(30), validationGames: int(1000), ...(rng() < 0.5 ? { budget: int(20_000) } : {}) };
      const e = etaSec(rng() * 5, p, plan, int(20_000));
      expect(e.run!, JSON.stringify({ p, plan, e })).toBeGreaterThanOrEqual(e.phase!);
    }
  });
});

describe('progress in a log file or pipe', () => {
  const sink = () => {
    const lines: string[] = [];
    return { lines, out: { write: (s: string) => (lines.push(s), true) } as unknown as NodeJS.WritableStream };
  };
  it('a short phase prints nothing: not its start (0 done), not its end, no blank lines', () => {
    const { lines, out } = sink();
    const log = new LogLines(out);
    log.write('phase [----] 0/36');
    log.write('\n');
    log.stopping = true;
    log.write('phase [====] 36/36');
    log.write('\n');
    log.write('\n');
    expect(lines).toEqual([]);
  });
  it('a long one prints its timed lines, then its last', () => {
    const { lines, out } = sink();
    const log = new LogLines(out);
    log.write('phase 0/36\n');
    log.write('phase 12/36\n'); // a timed render, 5 s on
    log.write('phase 30/36\n');
    log.stopping = true;
    log.write('phase 36/36\n\n');
    expect(lines).toEqual(['phase 12/36\n', 'phase 30/36\n', 'phase 36/36\n']);
  });
  it('an end that moved nothing since the last timed line is not printed again (learn start into a pipe printed its last line twice)', () => {
    const { lines, out } = sink();
    const log = new LogLines(out);
    log.write('learn 0/20000\n');
    log.write('learn 20000/20000 | ETA 0s\n'); // the last timed render, at the end
    log.stopping = true;
    log.write('learn 20000/20000 | ETA 0s\n\n'); // stop() renders it again
    expect(lines).toEqual(['learn 20000/20000 | ETA 0s\n']);
  });
  it('through the CLI: a tune whose phases are short writes no progress lines to a file', () => {
    const r = runCli(['tune', '-c', 'smoke', '--db', join(mkdtempSync(join(tmpdir(), 'tune2048-log-')), 'r.sqlite'), '--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});
