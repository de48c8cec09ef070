import { describe, expect, it } from 'vitest';
import { Store } from '../src/store/store';
import { gamesToStayWithin, parseContender, pickCheckpoints, runBenchmark, recommendation, summarizeBenchmark, holdoutSeeds } from '../src/tuner/benchmark/optimizer-benchmark';
import { raceCost, raceSlices, selectSurvivors } from '../src/tuner/selection/racing';
import { createRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
import { lineChart, niceTicks } from '../src/report/svg';
import { dumpRun, smokeConfig, tempDb, tuneToEnd } from './helpers/runs';

describe('a budget of games', () => {
  it('is a ceiling: a generation that would pass it is not played; validation uses the last generation played', async () => {
    const db = tempDb();
    // 6 candidates x 6 games = 36 games a generation: a budget of 80 allows generations 0 and 1 (72; a third would make 108).
    const { id, outcome } = await tuneToEnd(db, smokeConfig({ optimizer: { population: 6, generations: 50, elitism: 1, tournament: 2 }, fitness: { games: 6, depth: 0, budget: 80 } }));
    expect(outcome.status).toBe('finished');
    const dump = dumpRun(db, id);
    expect(dump.generations).toHaveLength(2);
    expect((dump.generations as any[]).reduce((s, g) => s + g.games, 0)).toBe(72);
    const validated = (dump.candidates as any[]).filter((c) => c.validation !== null);
    // The finalists of generation 1, and the start (of generation 0).
    expect(validated.filter((c) => c.generation !== 1).map((c) => c.idx)).toEqual([0]);
  });

  it('always plays generation 0, even when it alone is over the budget', async () => {
    const { id } = await tuneToEnd(tempDb(), smokeConfig({ fitness: { games: 6, depth: 0, budget: 10 } }));
    expect(id).toBe(1);
  });
});

describe('race checkpoints', () => {
  const gens = (n: number, games = 10) => Array.from({ length: n }, (_, idx) => ({ idx, games }));

  it('are as many distinct generations as asked, spread over the games, ending with the last', () => {
    for (const [n, k] of [[10, 3], [7, 6], [6, 6], [30, 4]]) {
      const picked = pickCheckpoints(gens(n), k);
      expect(picked).toHaveLength(k);
      expect(new Set(picked.map((p) => p.idx)).size).toBe(k);
      expect(picked.at(-1)!.idx).toBe(n - 1);
      expect(picked.map((p) => p.idx)).toEqual([...picked.map((p) => p.idx)].sort((a, b) => a - b));
    }
    expect(pickCheckpoints(gens(10), 2).map((p) => p.idx)).toEqual([4, 9]);
  });

  it('are one per generation when a run has fewer generations than checkpoints', () => {
    expect(pickCheckpoints(gens(3), 6).map((p) => p.games)).toEqual([10, 20, 30]);
  });
});

describe('what a synthetic race reports', () => {
  it('counts the games after which a run stayed within the band: a dip out of it starts the count again; never is null', () => {
    const curve = [130, 138, 136, 138, 139].map((truth, i) => ({ games: 100 * (i + 1), truth }));
    expect(gamesToStayWithin(curve, 137)).toBe(400);
    expect(gamesToStayWithin(curve.slice(0, 3), 137)).toBeNull();
    expect(gamesToStayWithin([], 137)).toBeNull();
  });
  it("recommends the optimizer's own point where it has one, else the best by fitness", () => {
    const c = (origin: string, fitness: number | null) => ({ origin, fitness });
    expect(recommendation([c('sample', 9), c('mean', 1), c('sample', 5)])).toEqual(c('mean', 1));
    expect(recommendation([c('mutation', 3), c('elite', null), c('crossover', 7)])).toEqual(c('crossover', 7));
  });
});

describe('the optimizer race', () => {
  it('runs every contender at the same budget and scores recommendations on shared held-out seeds', async () => {
    const store = Store.open(tempDb());
    const lines: string[] = [];
    const runs = await runBenchmark(store, {
      problem: smokeConfig(),
      kinds: ['ga', 'cmaes', 'random'],
      seeds: [1],
      budget: 60,
      checkpoints: 2,
      holdoutGames: 6,
      workers: 2,
      onLog: (l) => lines.push(l),
    });
    expect(runs.map((r) => r.kind)).toEqual(['ga', 'cmaes', 'random']);
    for (const r of runs) {
      expect(r.points.length).toBeGreaterThanOrEqual(1);
      const played = store.listGenerations(r.runId).reduce((s, g) => s + g.games, 0);
      expect(played).toBeLessThanOrEqual(60); // the budget is a ceiling...
      expect(played).toBeGreaterThan(60 / 2); // ...and most of it is used
      expect(r.points.map((p) => p.games)).toEqual([...r.points.map((p) => p.games)].sort((a, b) => a - b));
    }
    expect(lines).toHaveLength(3);
    // Running the race again reuses the finished runs and their stored checkpoints: no game is played again.
    // (Checkpoint holdouts are stored as rows of comparisons; played again, they would add rows.)
    const games = () => (store.connectionForTests().prepare('SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM comparisons) AS n').get() as { n: number }).n;
    const before = games();
    let progressed = 0;
    const again = await runBenchmark(store, { problem: smokeConfig(), kinds: ['ga', 'cmaes', 'random'], seeds: [1], budget: 60, checkpoints: 2, holdoutGames: 6, workers: 2, onProgress: () => progressed++ });
    expect(again.map((r) => r.points)).toEqual(runs.map((r) => r.points));
    expect(games()).toBe(before);
    expect(progressed).toBeGreaterThan(0);
    const summary = summarizeBenchmark(runs);
    expect(summary.map((s) => s.kind)).toEqual(['ga', 'cmaes', 'random']);
    store.close();
  });

  it('held-out seeds are odd (never a tuning seed) and fixed', () => {
    expect(holdoutSeeds(50).every((s) => s % 2 === 1)).toBe(true);
    expect(holdoutSeeds(10)).toEqual(holdoutSeeds(50).slice(0, 10));
  });
});

describe('svg line chart', () => {
  it('draws one polyline per series with its points, and round ticks', () => {
    const svg = lineChart(
      [
        { name: 'ga', points: [[0, 1], [10, 5]] },
        { name: 'cmaes', points: [[0, 2], [10, 3]], band: [[0, 1, 3], [10, 2, 4]] },
      ],
      { title: 'T', xLabel: 'x', yLabel: 'y' },
    );
    expect(svg.match(/<polyline class="series"/g)).toHaveLength(2);
    expect(svg).toContain('data-name="cmaes"');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(niceTicks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(3, 47, 4)).toEqual([0, 10, 20, 30, 40, 50]);
  });
});

describe('racing inside a generation', () => {
  it('cuts the seeds into slices and halves the field after each', () => {
    expect(raceSlices([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([[1, 2, 3], [4, 5], [6, 7]]);
    expect(raceCost(8, 24, { rounds: 3, keep: 0.5 })).toBe(8 * 8 + 4 * 8 + 2 * 8);
    expect(raceCost(6, 12, undefined)).toBe(72);
    expect(selectSurvivors([{ idx: 0, v: 1 }, { idx: 1, v: 5 }, { idx: 2, v: 5 }, { idx: 3, v: 2 }], (c) => c.v, 0.5).map((c) => c.idx)).toEqual([1, 2]);
    expect(selectSurvivors([{ idx: 0, v: 1 }, { idx: 1, v: 5 }, { idx: 2, v: 5 }], (c) => c.v, 1 / 3).map((c) => c.idx)).toEqual([1]);
  });

  const racingConfig = () => smokeConfig({ fitness: { games: 12, depth: 0, racing: { rounds: 3, keep: 0.5 } } });

  it('stores only the games each candidate raced; survivors are the best on the seeds played so far', async () => {
    const db = tempDb();
    const { id, outcome } = await tuneToEnd(db, racingConfig());
    expect(outcome.status).toBe('finished');
    const dump = dumpRun(db, id);
    const gamesOf = (c: { id: number }) => (dump.games as any[]).filter((g) => g.candidate_id === c.id && g.purpose === 'fitness');
    for (const gen of dump.generations as any[]) {
      const cands = (dump.candidates as any[]).filter((c) => c.generation === gen.idx);
      const counts = cands.map((c) => gamesOf(c).length).sort((a, b) => b - a);
      expect(counts).toEqual([12, 12, 8, 4, 4, 4]); // 6 race 4 seeds, 3 go on for 4 more, 2 finish the last 4
      expect(gen.games).toBe(44); // 6 × 4 + 3 × 4 + 2 × 4
      // Each candidate's fitness is the mean of the games it played.
      for (const c of cands) expect(c.fitness).toBeCloseTo(gamesOf(c).reduce((s: number, g: any) => s + g.score, 0) / gamesOf(c).length, 6);
      // Whoever stopped after the first slice scored no better there than every candidate that went on.
      const firstSlice = new Set(gamesOf(cands.find((c) => gamesOf(c).length === 4)!).map((g: any) => g.seed));
      const onFirst = (c: any) => gamesOf(c).filter((g: any) => firstSlice.has(g.seed)).reduce((s: number, g: any) => s + g.score, 0);
      const stopped = cands.filter((c) => gamesOf(c).length === 4).map(onFirst);
      const went = cands.filter((c) => gamesOf(c).length > 4).map(onFirst);
      expect(Math.max(...stopped)).toBeLessThanOrEqual(Math.min(...went));
    }
  });

  it('stopped at several points and resumed, races exactly as straight through, with 1 or 2 workers', async () => {
    const straight = tempDb();
    const ref = await tuneToEnd(straight, racingConfig(), { workers: 1 });
    const db = tempDb();
    const store = Store.open(db);
    const id = createRun(store, racingConfig(), 'test');
    for (const stopAfter of [5, 17, 40]) {
      const tuner = new Tuner(store, id, { workers: 2 });
      let batches = 0;
      const done = tuner.run(true);
      // Stop after a few stored batches (each stored batch is a progress event).
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          batches = (store.connectionForTests().prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n;
          if (batches >= stopAfter) {
            clearInterval(check);
            tuner.stop();
            resolve();
          }
        }, 5);
        done.then(() => {
          clearInterval(check);
          resolve();
        });
      });
      await done;
    }
    await new Tuner(store, id, { workers: 2 }).run(true);
    store.close();
    expect(dumpRun(db, id)).toEqual(dumpRun(straight, ref.id));
  });
});

describe('racing in the optimizer race', () => {
  it('names contenders as kind[+racing]', () => {
    expect(parseContender('ga')).toEqual({ kind: 'ga', racing: false });
    expect(parseContender('cmaes+racing')).toEqual({ kind: 'cmaes', racing: true });
    expect(parseContender('ga+fast')).toBeNull();
    expect(parseContender('sgd')).toBeNull();
  });

  it('ga against ga+racing at the same budget: only the +racing runs race', async () => {
    const store = Store.open(tempDb());
    const runs = await runBenchmark(store, { problem: smokeConfig({ fitness: { games: 12, depth: 0 } }), kinds: ['ga', 'ga+racing'], seeds: [1], budget: 200, checkpoints: 2, holdoutGames: 4, workers: 2 });
    const perCandidate = (runId: number) =>
      (store.connectionForTests().prepare("SELECT count(*) AS n FROM games g JOIN candidates c ON c.id = g.candidate_id WHERE c.run_id = ? AND g.purpose = 'fitness' GROUP BY g.candidate_id").all(runId) as { n: number }[]).map((r) => r.n);
    expect(new Set(perCandidate(runs[0].runId))).toEqual(new Set([12]));
    expect(new Set(perCandidate(runs[1].runId))).toEqual(new Set([4, 8, 12]));
    for (const r of runs) expect(store.listGenerations(r.runId).reduce((s, g) => s + g.games, 0)).toBeLessThanOrEqual(200);
    store.close();
  });
});
