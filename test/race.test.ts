import { describe, expect, it } from 'vitest';
import { Store } from '../src/store/store';
import { pickCheckpoints, race, summarizeRace, holdoutSeeds } from '../src/tuner/race';
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
    expect(validated.every((c) => c.generation === 1)).toBe(true);
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

describe('the optimizer race', () => {
  it('runs every contender at the same budget and scores recommendations on shared held-out seeds', async () => {
    const store = Store.open(tempDb());
    const lines: string[] = [];
    const runs = await race(store, {
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
    const games = () => (store.raw.prepare('SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM comparisons) AS n').get() as { n: number }).n;
    const before = games();
    let progressed = 0;
    const again = await race(store, { problem: smokeConfig(), kinds: ['ga', 'cmaes', 'random'], seeds: [1], budget: 60, checkpoints: 2, holdoutGames: 6, workers: 2, onProgress: () => progressed++ });
    expect(again.map((r) => r.points)).toEqual(runs.map((r) => r.points));
    expect(games()).toBe(before);
    expect(progressed).toBeGreaterThan(0);
    const summary = summarizeRace(runs);
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
