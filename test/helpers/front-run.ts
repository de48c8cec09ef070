/**
 * A stored two-objective run built by hand (a known front: no tuning, no games played), for the front's
 * tests and the pages that draw it; and the synthetic landscape with a known front they share.
 */
import { parseConfig } from '../../src/tuner/config/config';
import { Store } from '../../src/store/store';
import { createRun, loadRunProblem } from '../../src/tuner/run/run-problem';
import { tempDb } from './runs';

export const LANDSCAPE = { optimum: { empty: 450, merges: 600, monotonicity: 60, smoothness: 60, sum: 30, sumPower: 4 }, width: 1.2, peak: 140_000, floor: 0.2, cv: 0.4, gameMs: 0, cost: { weight: 'sumPower', nodes: 10, growth: 1 } };
export const LOW = 1;
export const HIGH = 5;

/** A stored two-objective run built by hand: five validated points (mean score, nodes a move, ms a move). */
export function handBuiltRun(withCost = true): { db: string; ids: number[] } {
  const db = tempDb();
  const config = parseConfig({
    name: 'by-hand',
    seed: 1,
    space: { start: 'tuned-d1', params: { empty: { min: 0, max: 2000 }, sumPower: { min: LOW, max: HIGH } } },
    optimizer: withCost ? { kind: 'nsga2', population: 4, generations: 1 } : { kind: 'random', population: 4, generations: 1 },
    fitness: withCost ? { player: 'synthetic', cost: 'nodes', synthetic: LANDSCAPE } : { player: 'synthetic', synthetic: LANDSCAPE },
  });
  const store = Store.open(db);
  try {
    const id = createRun(store, config, 'by-hand');
    const { space } = loadRunProblem(store, id);
    const points: [number, number, number][] = [
      [50_000, 10, 0.01],
      [80_000, 100, 0.1],
      [70_000, 200, 0.2], // behind the point before on both: not on the front
      [120_000, 1000, 1.0],
      [80_000, 100, 0.1], // the same games as the second (a setting the search never reached): one point with it
    ];
    const genomes = points.map((_, i) => [0.15 * (i + 1), 0.15 * (i + 1)]);
    store.insertGeneration(id, 0, {}, genomes.map((genome) => ({ genome, params: space.params(genome), origin: 'init', parents: [] })));
    const candidates = store.getCandidates(id, 0);
    const moves = 1000;
    store.insertGames(
      candidates.flatMap((c, i) =>
        [-1, 1].map((side, seed) => ({ candidateId: c.id, purpose: 'validation' as const, seed, score: points[i][0] + side * 1000, maxTile: 2048, moves, ms: points[i][2] * moves, nodes: points[i][1] * moves })),
      ),
    );
    for (const [i, c] of candidates.entries()) store.setValidation(c.id, points[i][0]);
    store.setBestCandidate(id, candidates[3].id);
    return { db, ids: candidates.map((c) => c.id) };
  } finally {
    store.close();
  }
}
