/**
 * Pareto fronts and NSGA-II: the sort, crowding distance and hypervolume against slow, obviously right
 * versions on random point sets; NSGA-II on a noisy two-objective landscape with a known front (ZDT1),
 * against random search at the same games; its state through JSON (a resume) changes nothing.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { crowdingDistance, dominates, hypervolume2d, nonDominatedSort, type Objectives } from '../src/tuner/optimizers/evolutionary/pareto';
import { createNsga2, NSGA2_DEFAULTS } from '../src/tuner/optimizers/evolutionary/nsga2';
import type { Evaluated, Generation } from '../src/tuner/optimizers/optimizer';
import { uniformGenome } from '../src/tuner/optimizers/operators';
import { rSquared } from '../src/bench/bench';

/** Fronts by peeling: the points no remaining point dominates, again and again. */
function peel(points: readonly Objectives[]): number[][] {
  let left = points.map((_, i) => i);
  const fronts: number[][] = [];
  while (left.length > 0) {
    const front = left.filter((p) => !left.some((q) => dominates(points[q], points[p])));
    fronts.push(front);
    left = left.filter((p) => !front.includes(p));
  }
  return fronts;
}

function randomPoints(rng: () => number, n: number, m: number, grid: number): number[][] {
  // On a coarse grid: ties and duplicates happen, as with rounded objectives.
  return Array.from({ length: n }, () => Array.from({ length: m }, () => Math.floor(rng() * grid)));
}

describe('Pareto fronts', () => {
  it('the fast non-dominated sort gives the fronts peeling gives, on random sets with ties (2 and 3 objectives)', () => {
    const rng = seedrandom.alea('fronts');
    for (let trial = 0; trial < 300; trial++) {
      const points = randomPoints(rng, 1 + Math.floor(rng() * 40), 2 + (trial % 2), trial % 3 === 0 ? 4 : 50);
      expect(nonDominatedSort(points)).toEqual(peel(points));
    }
    expect(nonDominatedSort([])).toEqual([]);
  });

  it('crowding distance: per objective the neighbours\' gap over the range, the ends infinite', () => {
    const rng = seedrandom.alea('crowding');
    for (let trial = 0; trial < 200; trial++) {
      // Distinct values, so each point's neighbours are unambiguous.
      const n = 3 + Math.floor(rng() * 12);
      const points = Array.from({ length: n }, () => [rng(), rng()]);
      const front = points.map((_, i) => i);
      const got = crowdingDistance(points, front);
      const want = front.map((p) => {
        let d = 0;
        for (let k = 0; k < 2; k++) {
          const values = points.map((q) => q[k]);
          const lo = Math.min(...values);
          const hi = Math.max(...values);
          const below = values.filter((v) => v < points[p][k]);
          const above = values.filter((v) => v > points[p][k]);
          if (below.length === 0 || above.length === 0) return Infinity;
          d += (Math.min(...above) - Math.max(...below)) / (hi - lo);
        }
        return d;
      });
      got.forEach((x, i) => (want[i] === Infinity ? expect(x).toBe(Infinity) : expect(x).toBeCloseTo(want[i], 12)));
    }
  });

  it('the hypervolume of two objectives counts the unit cells the points dominate above the reference', () => {
    const rng = seedrandom.alea('hypervolume');
    for (let trial = 0; trial < 200; trial++) {
      const points = randomPoints(rng, 1 + Math.floor(rng() * 15), 2, 12);
      let cells = 0;
      for (let x = 0; x < 12; x++) for (let y = 0; y < 12; y++) if (points.some((p) => p[0] >= x + 1 && p[1] >= y + 1)) cells++;
      expect(hypervolume2d(points, [0, 0])).toBe(cells);
    }
  });
});

/**
 * ZDT1 (Zitzler, Deb & Thiele 2000) as two objectives to maximise, -f1 and -f2, each a game's mean with
 * noise as the tuner sees: per game the true value plus a normal error of sd `noise`, a candidate the mean
 * of `games` games. The true front is f2 = 1 − √f1 (x2 … xn = 0).
 */
const N = 6;
const zdt1 = (x: readonly number[]): [number, number] => {
  const g = 1 + (9 * x.slice(1).reduce((s, v) => s + v, 0)) / (N - 1);
  return [-x[0], -g * (1 - Math.sqrt(x[0] / g))];
};
const REFERENCE: [number, number] = [-1.1, -1.1];
/** The true front's hypervolume above the reference (by a fine sum). */
const TRUE_HV = (() => {
  const points = Array.from({ length: 20001 }, (_, i) => zdt1([i / 20000, 0, 0, 0, 0, 0]));
  return hypervolume2d(points, REFERENCE);
})();

function noisy(rng: () => number, x: readonly number[], games: number, noise: number): number[] {
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  return zdt1(x).map((v) => v + (noise * Array.from({ length: games }, normal).reduce((s, e) => s + e, 0)) / games);
}

/** The front a run hands back, validated: its non-dominated points played again on fresh noise, then their true hypervolume. */
function validatedHypervolume(rng: () => number, genomes: number[][], games: number, noise: number): number {
  const measured = genomes.map((x) => noisy(rng, x, games, noise));
  const front = nonDominatedSort(measured)[0];
  return hypervolume2d(front.map((i) => zdt1(genomes[i])), REFERENCE);
}

describe('NSGA-II', () => {
  const population = 40;
  const generations = 60;
  const games = 8;
  const noise = 0.05;

  function run(seed: string, through?: (state: unknown) => unknown, reevaluate = false): { generations: Generation[]; last: Evaluated[] } {
    const nsga = createNsga2({ population, ...NSGA2_DEFAULTS, reevaluate });
    const rng = seedrandom.alea(seed);
    const evalRng = seedrandom.alea(`${seed}:games`);
    let id = 0;
    const evaluate = (g: Generation): Evaluated[] => g.candidates.map((c) => ({ id: id++, genome: c.genome, origin: c.origin, parents: c.parents, fitness: 0, scores: new Array<number>(games).fill(0), objectives: noisy(evalRng, c.genome, games, noise) }));
    const gens: Generation[] = [nsga.initial(uniformGenome(N, rng), rng)];
    let last = evaluate(gens[0]);
    for (let k = 1; k < generations; k++) {
      const state = through ? through(gens[k - 1].state) : gens[k - 1].state;
      gens.push(nsga.next(last, state, rng));
      last = evaluate(gens[k]);
    }
    return { generations: gens, last };
  }

  it(`on noisy ZDT1 (${N} genes), ${population} × ${generations} candidates × ${games} games: the validated front holds ≥ 90 % of the true hypervolume, above random search at the same games`, () => {
    const { generations: gens, last } = run('zdt1');
    // What the run hands back: its last population and the last offspring, validated on 10 × the games.
    const kept = [...(gens.at(-1)!.state as { population: { genome: number[] }[] }).population.map((m) => m.genome), ...last.map((c) => c.genome)];
    const hv = validatedHypervolume(seedrandom.alea('validation'), kept, 10 * games, noise);
    const rng = seedrandom.alea('random');
    const random = Array.from({ length: population * generations }, () => uniformGenome(N, rng));
    // Random search: its measured front, validated the same way (all its points were measured once).
    const measured = random.map((x) => noisy(rng, x, games, noise));
    const randomFront = nonDominatedSort(measured)[0].map((i) => random[i]);
    const randomHv = validatedHypervolume(seedrandom.alea('validation'), randomFront, 10 * games, noise);
    expect(hv / TRUE_HV).toBeGreaterThanOrEqual(0.9);
    expect(hv).toBeGreaterThan(randomHv);
  });

  it('its state through JSON (a stop and resume each generation) gives the same generations, with and without measuring the kept again', () => {
    for (const reevaluate of [false, true]) {
      const straight = run('resume', undefined, reevaluate);
      const resumed = run('resume', (state) => JSON.parse(JSON.stringify(state)), reevaluate);
      expect(resumed.generations).toEqual(straight.generations);
    }
  });

  it('measuring the kept again: each generation proposes the kept population as elites, then N offspring; a kept member\'s objectives become the mean over its games', () => {
    const nsga = createNsga2({ population: 4, ...NSGA2_DEFAULTS, reevaluate: true });
    const rng = seedrandom.alea('kept');
    const g0 = nsga.initial([0.5, 0.5], rng);
    const first: Evaluated[] = g0.candidates.map((c, i) => ({ id: i, genome: c.genome, origin: c.origin, fitness: 0, scores: [0, 0], objectives: [i, -i] }));
    const g1 = nsga.next(first, g0.state, rng);
    expect(g1.candidates.map((c) => c.origin)).toEqual(['elite', 'elite', 'elite', 'elite', 'offspring', 'offspring', 'offspring', 'offspring']);
    // Measured again at 6 games: (i·2 + 10·6) / 8 for the first objective.
    const second: Evaluated[] = g1.candidates.map((c, k) => ({ id: 10 + k, genome: c.genome, origin: c.origin, parents: c.parents, fitness: 0, scores: new Array<number>(6).fill(0), objectives: c.origin === 'elite' ? [10, -10] : [-100, -100] }));
    const g2 = nsga.next(second, g1.state, rng);
    const kept = (g2.state as { population: { id: number; objectives: number[]; games: number }[] }).population;
    expect(kept.map((m) => m.id).sort((a, b) => a - b)).toEqual([10, 11, 12, 13]);
    for (const m of kept) {
      const i = second.find((c) => c.id === m.id)!.parents![0];
      expect(m.objectives[0]).toBeCloseTo((i * 2 + 10 * 6) / 8, 12);
      expect(m.games).toBe(8);
    }
  });

  it('refuses candidates without objectives (a single-objective run)', () => {
    const nsga = createNsga2({ population: 4, ...NSGA2_DEFAULTS });
    const rng = seedrandom.alea('x');
    const g = nsga.initial([0.5, 0.5], rng);
    expect(() => nsga.next(g.candidates.map((c, i) => ({ id: i, genome: c.genome, origin: c.origin, fitness: 1, scores: [] })), g.state, rng)).toThrow(/has no objectives/);
  });
});

describe('R² of a line (the cost model bench fits)', () => {
  it('1 on a line, 0 on no relation, the textbook value on a small set', () => {
    expect(rSquared([1, 2, 3, 4], [3, 5, 7, 9])).toBeCloseTo(1, 12);
    expect(rSquared([1, 2, 3, 4], [5, 5, 5, 5])).toBe(0);
    // x 1..5, y 2 4 5 4 5: r = 0.7746, r² = 0.6
    expect(rSquared([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])).toBeCloseTo(0.6, 12);
  });
});
