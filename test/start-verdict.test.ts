/**
 * A run never hands back worse than it started (issue 32 §4): validation plays the start beside the
 * finalists on the same held-out seeds; when the finalists were picked by in-sample luck and the start
 * validates above them, the run's best is the start, and the run, show, the report and export say so.
 * Proven on the synthetic player, whose landscape is known: its optimum is put at the start itself, so
 * every other candidate is truly worse and any finalist got there by luck.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { loadWeights } from '../src/heuristic/weights';
import { syntheticMean, type SyntheticLandscape } from '../src/player/synthetic';
import { Store } from '../src/store/store';
import { loadRunProblem } from '../src/tuner/run/run-problem';
import { describeStartVerdict, findStart, runStartVerdict } from '../src/tuner/selection/verdict';
import { validationSeeds } from '../src/tuner/run/seeds';
import { createOptimizer } from '../src/tuner/optimizers/create';
import { parseConfig } from '../src/tuner/config/config';
import { ROOT, runCli } from './helpers/cli';
import { smokeConfig, tempDb, tuneToEnd, writeConfig } from './helpers/runs';
import seedrandom from 'seedrandom';
import { tQuantile } from '../src/util/stats';

const nneonneo = loadWeights('nneonneo');
const landscape: SyntheticLandscape = {
  // The optimum is the start: nothing a run proposes can truly beat it.
  optimum: { empty: nneonneo.empty, merges: nneonneo.merges, monotonicity: nneonneo.monotonicity },
  width: 0.3,
  peak: 100_000,
  floor: 0.3,
  cv: 0.4,
  gameMs: 0,
};

/** A run that picks its finalists by luck: four noisy games per candidate, big mutations, no elites kept. */
function luckyConfig(optimizer: Record<string, unknown>) {
  return {
    format: 'tune2048/config',
    name: 'lucky',
    seed: 5,
    space: {
      start: 'nneonneo',
      params: { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 }, monotonicity: { min: 1, max: 500, scale: 'log' } },
    },
    optimizer,
    fitness: { games: 4, depth: 3, player: 'synthetic', synthetic: landscape },
    validation: { finalists: 2, games: 200 },
    pool: { batchGames: 50 },
  };
}

const GA = { kind: 'ga', population: 10, generations: 3, elitism: 0, tournament: 2, mutationScale: 0.3, initScale: 0.3 };
const CMA = { kind: 'cmaes', population: 8, generations: 3, sigma0: 0.3 };

describe('the start is validated beside the finalists', () => {
  it("every optimizer's first generation holds the start itself", () => {
    const start = [0.1, 0.5, 0.9];
    const rng = () => seedrandom.alea('x');
    const space = { size: 3, canonical: (g: readonly number[]) => [...g] };
    const optimizers = ['ga', 'random', 'cmaes', 'regression', 'surrogate', 'model'].map((kind) => createOptimizer(smokeConfig({ optimizer: { kind, population: 6, generations: 2 } }), space, (g) => g.join(',')));
    for (const o of optimizers) expect(o.initial(start, rng()).candidates.map((c) => c.genome)).toContainEqual(start);
  });

  it('one rule, said one way: the best is the highest held-out point; a lead within the noise is kept and said to be so; a clear lead is said to beat the start', () => {
    const base = { start: { candidate: 1, validation: 10_000 }, games: 24, gamesToResolve: 300 };
    const within = { ...base, best: { candidate: 32, validation: 12_302 }, rival: { candidate: 32, validation: 12_302 }, difference: 2302, halfWidth: 9670, clear: false };
    expect(describeStartVerdict(within)).toBe("the run's best (candidate 32, the first held-out set's choice) leads the start by less than the noise: 12,302 against the start's 10,000, +2,302 ± 9,670 (95 %) on 24 held-out games; it is not shown better than the start; about 300 held-out games per candidate (validation.games) would find a gap this size 80 % of the time");
    const startBest = { ...base, best: base.start, rival: { candidate: 7, validation: 9000 }, difference: -1000, halfWidth: 400, clear: false, gamesToResolve: null };
    expect(describeStartVerdict(startBest)).toMatch(/^nothing beats the start: .*the run's best is its start \(candidate 1\)$/);
    const clear = { ...within, halfWidth: 900, clear: true, gamesToResolve: null };
    expect(describeStartVerdict(clear)).toMatch(/^the best beats the start: candidate 32 /);
    // The README says the same rule.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain("The run's best is the point with the highest held-out value, its start included");
  });

  it('a plain run plays the start on the same held-out seeds as its finalists and weighs its best against it', async () => {
    const db = tempDb();
    const config = smokeConfig();
    const { id, outcome } = await tuneToEnd(db, config);
    expect(outcome.status).toBe('finished');
    const store = Store.open(db, { readonly: true });
    try {
      const problem = loadRunProblem(store, id);
      const start = findStart(store.getCandidates(id, 0), problem)!;
      expect(start.generation).toBe(0);
      expect(store.getGames(start.id, 'validation').map((g) => g.seed)).toEqual([...validationSeeds(config.seed, 8)].sort((a, b) => a - b));
      const verdict = runStartVerdict(store, problem)!;
      expect(verdict.start.candidate).toBe(start.id);
      expect(verdict.games).toBe(8);
      // The run's best is the best validated point, the start included.
      const validated = store.validatedCandidates(id);
      expect(validated.map((c) => c.id)).toContain(start.id);
      expect(verdict.best.validation).toBeGreaterThanOrEqual(start.validation!);
      // The difference and its interval from the per-seed differences, by hand (the smoke run's finalists are not the start).
      expect(verdict.rival).not.toBeNull();
      const a = new Map(store.getGames(verdict.rival!.candidate, 'validation').map((g) => [g.seed, g.score]));
      const diffs = store.getGames(start.id, 'validation').map((g) => a.get(g.seed)! - g.score);
      const m = diffs.reduce((s, x) => s + x, 0) / diffs.length;
      expect(verdict.difference).toBeCloseTo(m, 6);
      const sd = Math.sqrt(diffs.reduce((s, x) => s + (x - m) ** 2, 0) / (diffs.length - 1));
      expect(verdict.clear).toBe(m > verdict.halfWidth);
      expect(verdict.halfWidth).toBeCloseTo((tQuantile(0.975, diffs.length - 1) * sd) / Math.sqrt(diffs.length), 6);
    } finally {
      store.close();
    }
  });

  for (const [name, optimizer] of [['GA', GA], ['CMA-ES (a pooled optimizer: its point against the start)', CMA]] as const) {
    it(`${name}: finalists picked by luck and worse than the start: the run's best is the start`, async () => {
      const db = tempDb();
      const { id, outcome } = await tuneToEnd(db, parseConfig(luckyConfig(optimizer)));
      expect(outcome.status).toBe('finished');
      const store = Store.open(db, { readonly: true });
      try {
        const problem = loadRunProblem(store, id);
        const verdict = runStartVerdict(store, problem)!;
        expect(outcome.status === 'finished' && outcome.bestCandidate).toBe(verdict.start.candidate);
        expect(verdict.best.candidate).toBe(verdict.start.candidate);
        // The finalists were truly worse (the landscape says so); the GA's looked better in-sample than they were.
        const finalists = store.validatedCandidates(id).filter((c) => c.id !== verdict.start.candidate);
        expect(finalists.length).toBeGreaterThan(0);
        for (const f of finalists) expect(syntheticMean({ ...nneonneo, ...f.params }, landscape)).toBeLessThan(landscape.peak);
        if (optimizer === GA) expect(Math.max(...finalists.map((f) => f.fitness!))).toBeGreaterThan(Math.max(...finalists.map((f) => f.validation!)));
        expect(verdict.rival!.validation).toBeLessThan(verdict.start.validation);
        expect(describeStartVerdict(verdict)).toMatch(/^nothing beats the start: .*the run's best is its start/);
      } finally {
        store.close();
      }
    });
  }

  it('through the CLI: tune, show, export and the report say it in one line, and export writes the start', () => {
    const db = tempDb();
    const cfg = writeConfig(luckyConfig(GA));
    const tune = runCli(['tune', '-c', cfg, '--db', db, '--workers', '1']);
    expect(tune.code, tune.stderr).toBe(0);
    expect(tune.stdout).toMatch(/^the start, candidate \d+: fitness .* validation .*$/m);
    expect(tune.stdout).toMatch(/^nothing beats the start: .*$/m);
    const show = runCli(['show', '1', '--db', db]);
    expect(show.stdout).toMatch(/^nothing beats the start: /m);
    const showJson = JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout);
    expect(showJson.start.best.candidate).toBe(showJson.start.start.candidate);
    const out = join(dirname(db), 'best.json');
    const exported = runCli(['export', '1', '--db', db, '--out', out]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/^tune2048: run 1: nothing beats the start: /m);
    const weights = JSON.parse(readFileSync(out, 'utf8'));
    for (const k of ['empty', 'merges', 'monotonicity'] as const) expect(weights[k]).toBeCloseTo(nneonneo[k], 6);
    expect(weights.provenance.overStart).toMatchObject({ startIsBest: true, clear: false, games: 200 });
    const report = join(dirname(db), 'report.html');
    expect(runCli(['report', '1', '--db', db, '--out', report]).code).toBe(0);
    expect(readFileSync(report, 'utf8')).toContain('nothing beats the start');
  });
});
