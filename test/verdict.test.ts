/**
 * Every verdict true (issue 78): what the run hands back and what it says of it against its start, on the
 * synthetic player (its truth known) and on hand-made games. Each case is one the tuner got wrong before: the
 * second set played by the start alone (and "every finalist is the start itself" beside three finalists that
 * were not), the choice remade on the second set and reported on it, the start stopped by the held-out race, a
 * finalist stopped after a slice set against full means, a difference taken over two different seed sets.
 */
import { describe, expect, it } from 'vitest';
import { Store } from '../src/store/store';
import { parseConfig } from '../src/tuner/config/config';
import { loadRunProblem } from '../src/tuner/run/run-problem';
import { bestFinalist, decideFirstSet, describeStartVerdict, firstChoice, runStartVerdict, secondSetChoice, weighStart, type ValidatedPoint } from '../src/tuner/selection/verdict';
import { rankEvaluated } from '../src/tuner/optimizers/ranking';
import { createGa } from '../src/tuner/optimizers/evolutionary/ga';
import { raceSlices } from '../src/tuner/selection/racing';
import { validationSeeds } from '../src/tuner/run/seeds';
import { tempDb, tuneToEnd } from './helpers/runs';
import seedrandom from 'seedrandom';

const TUNED_D1 = { empty: 284.36767330545314, merges: 254.18884949316848, monotonicity: 23.690115093421667, sumPower: 2.7852642816825295 };
const FOUR = { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 }, monotonicity: { min: 1, max: 1000, scale: 'log' }, sumPower: { min: 1, max: 5 } };

/** The problem: four weights, the optimum at the start (tuned-d1) or away from it, the model, 3 finalists on 60 held-out games. */
function modelRun(seed: number, optimum: Record<string, number>, validation: Record<string, unknown>) {
  return parseConfig({
    name: 'verdict',
    seed,
    space: { start: 'tuned-d1', params: FOUR },
    optimizer: { kind: 'model', population: 7, games: 4 },
    fitness: { budget: 300, player: 'synthetic', synthetic: { optimum, width: 1.2, peak: 140_000, floor: 0.2, cv: 0.4 } },
    validation: { finalists: 3, games: 60, ...validation },
    pool: { batchGames: 4 },
  });
}

/** A finished run's validated candidates with both sets' values and game counts, its best and its verdict. */
async function finished(seed: number, optimum: Record<string, number>, validation: Record<string, unknown>) {
  const db = tempDb();
  const { id, outcome } = await tuneToEnd(db, modelRun(seed, optimum, validation), { workers: 1 });
  expect(outcome.status).toBe('finished');
  const store = Store.open(db, { readonly: true });
  try {
    const problem = loadRunProblem(store, id);
    const verdict = runStartVerdict(store, problem)!;
    const validated = store.validatedCandidates(id).map((c) => ({ id: c.id, validation: c.validation!, confirmation: c.confirmation, heldOut: store.getGames(c.id, 'validation'), second: store.getGames(c.id, 'confirmation') }));
    return { best: store.getRun(id)!.bestCandidate!, verdict, validated, start: validated.find((c) => c.id === verdict.start.candidate)! };
  } finally {
    store.close();
  }
}

describe('the second held-out set', () => {
  it('when the start wins the first set, the best other finalist plays the second beside it, and the verdict weighs it there', async () => {
    // Seed 7 (the issue's): the start validates above every finalist on the first set.
    const r = await finished(7, TUNED_D1, { confirm: 60 });
    const others = r.validated.filter((c) => c.id !== r.start.id);
    expect(others.length).toBe(3);
    expect(others.every((o) => o.validation < r.start.validation)).toBe(true); // the case
    const bestOther = others.reduce((a, b) => (b.validation > a.validation ? b : a));
    expect(r.validated.filter((c) => c.second.length > 0).map((c) => c.id).sort()).toEqual([bestOther.id, r.start.id].sort());
    expect(bestOther.second.length).toBe(60);
    expect(r.verdict.set).toBe('confirmation');
    expect(r.verdict.rival!.candidate).toBe(bestOther.id);
    expect(describeStartVerdict(r.verdict)).not.toMatch(/every finalist is the start itself/);
  });

  it('the first set chooses; the second does not choose again within its noise (the start reading higher there by less than it)', async () => {
    // Seed 9: a finalist wins the first set; on the second the start reads higher (by ~13,000), inside the interval (~19,000).
    const r = await finished(9, TUNED_D1, { confirm: 60 });
    const first = r.validated.reduce((a, b) => (b.validation > a.validation ? b : a));
    expect(first.id).not.toBe(r.start.id); // the case
    expect(r.start.confirmation!).toBeGreaterThan(first.confirmation!);
    expect(r.verdict.difference).toBeLessThan(0);
    expect(-r.verdict.difference).toBeLessThan(r.verdict.halfWidth);
    expect(r.best).toBe(first.id);
    expect(r.verdict.overturned).toBeUndefined();
    expect(describeStartVerdict(r.verdict)).toMatch(/^the run's best \(candidate \d+, the first held-out set's choice\) reads below the start by less than the noise: .* it is not shown better than the start, nor worse/);
  });
});

describe('the held-out race', () => {
  it('never stops the start (the control plays every held-out seed), and the verdict pairs the rival with it seed by seed', async () => {
    // The optimum away from the start: the start is the worst of the four on the first slice, and would be stopped.
    const r = await finished(3, { empty: 450, merges: 600, monotonicity: 60, sumPower: 4 }, { race: { rounds: 3, keep: 0.5 } });
    const seeds = validationSeeds(3, 60);
    const firstSlice = new Set(raceSlices(seeds, 3)[0]);
    const onFirst = (c: (typeof r.validated)[number]) => c.heldOut.filter((g) => firstSlice.has(g.seed)).reduce((s, g) => s + g.score, 0) / 20;
    const others = r.validated.filter((c) => c.id !== r.start.id);
    expect(others.every((o) => onFirst(o) > onFirst(r.start))).toBe(true); // the case: last of four after the first slice
    expect(r.start.heldOut.length).toBe(60);
    expect(others.map((o) => o.heldOut.length).sort()).toEqual([20, 40, 60]);
    const rival = r.validated.find((c) => c.id === r.verdict.rival!.candidate)!;
    expect(rival.heldOut.length).toBe(60); // the best by the round it reached
    const theirs = new Map(rival.heldOut.map((g) => [g.seed, g.score]));
    const diffs = r.start.heldOut.map((g) => theirs.get(g.seed)! - g.score);
    expect(r.verdict.games).toBe(60);
    expect(r.verdict.difference).toBeCloseTo(diffs.reduce((a, b) => a + b, 0) / 60, 6);
  });
});

/** Hand-made held-out games: `n` seeds from `from`, each scoring `score(seed)`. */
function point(id: number, n: number, score: (seed: number) => number, from = 0): ValidatedPoint {
  const games = Array.from({ length: n }, (_, i) => ({ seed: from + i, score: score(from + i), maxTile: 2048 }));
  return { id, validation: games.reduce((s, g) => s + g.score, 0) / n, games };
}
const fitness = parseConfig({ space: { start: 'nneonneo', params: { empty: { min: 0, max: 1 } } } }).fitness;

describe('the rules, on hand-made games', () => {
  it('a finalist stopped after a slice never ranks above one that played every seed, however high its slice read', () => {
    const stopped = point(2, 20, () => 150_000);
    const finisher = point(3, 60, () => 140_000);
    expect(bestFinalist([stopped, finisher])!.id).toBe(3);
    expect(bestFinalist([finisher, point(4, 60, () => 141_000)])!.id).toBe(4);
  });

  it('the difference is paired on the seeds both played, and the start is said over those seeds', () => {
    // The start played 60 seeds (the first 20 read high), the rival the first 20 only.
    const start = point(1, 60, (s) => (s < 20 ? 200_000 : 100_000));
    const rival = point(2, 20, () => 190_000);
    const v = weighStart(fitness, start, rival, rival);
    expect(v.games).toBe(20);
    expect(v.difference).toBeCloseTo(-10_000, 6);
    expect(v.start.validation).toBeCloseTo(200_000, 6);
  });

  it('the first set chooses the start only when it validates above the best finalist and may be chosen', () => {
    const start = point(1, 60, (s) => 100_000 + s);
    const above = point(2, 60, (s) => 100_010 + s);
    const below = point(3, 60, (s) => 99_990 + s);
    expect(firstChoice(fitness, start, above, true).id).toBe(2);
    expect(firstChoice(fitness, start, below, true).id).toBe(1);
    expect(firstChoice(fitness, start, below, false).id).toBe(3); // the start over a cost ceiling cannot be chosen
    expect(firstChoice(fitness, start, null, true).id).toBe(1);
  });

  it('the second set turns the choice over only past its 95 % interval, either way', () => {
    const start = point(1, 100, (s) => 140_000 + ((s * 7919) % 20_000), 1000);
    // Each other point: the start's game on the seed, plus a difference of this mean, ±30,000 or ±5,000 seed by seed.
    const beside = (id: number, mean: number, spread: number) => point(id, 100, (s) => start.games[s - 1000].score + mean + (s % 2 ? spread : -spread), 1000);
    const near = beside(2, -1_000, 30_000);
    const far = beside(3, -30_000, 5_000);
    const better = beside(4, 30_000, 5_000);
    expect(secondSetChoice(2, weighStart(fitness, start, near, near, 'confirmation'), true)).toBe(2); // within the noise: stands
    expect(secondSetChoice(3, weighStart(fitness, start, far, far, 'confirmation'), true)).toBe(1); // clearly worse than the start
    expect(secondSetChoice(3, weighStart(fitness, start, far, far, 'confirmation'), false)).toBe(3); // … unless the start may not be chosen
    expect(secondSetChoice(1, weighStart(fitness, start, better, better, 'confirmation'), true)).toBe(4); // clearly better than the start
    expect(secondSetChoice(1, weighStart(fitness, start, near, near, 'confirmation'), true)).toBe(1);
    expect(secondSetChoice(1, weighStart(fitness, start, better, better, 'confirmation'), true, false)).toBe(1); // a rival that may not be chosen (over the ceiling) never is
  });
});

describe('within a cost ceiling: what went over it is weighed, never passed over in silence', () => {
  const ceiling = parseConfig({
    space: { start: 'tuned-d1', params: FOUR },
    optimizer: { kind: 'model', population: 7, games: 4 },
    fitness: { budget: 300, player: 'synthetic', cost: 'nodes', maxCost: 150, synthetic: { optimum: TUNED_D1, cost: { weight: 'sumPower', nodes: 10, growth: 1 } } },
  });
  const start = point(1, 60, (s) => 100_000 + s);
  const a = point(2, 60, (s) => 110_000 + s);
  const b = point(3, 60, (s) => 105_000 + s);

  it('every finalist over the ceiling: the start is the choice, weighed against the best of them, and said so (not "every finalist is the start")', () => {
    const d = decideFirstSet(ceiling, start, [a, b], undefined, (p) => p === start);
    expect(d.first.id).toBe(1);
    expect(d.contender).toBeNull();
    expect(d.rival!.id).toBe(2);
    expect(d.overCeiling).toEqual({ overCeiling: { start: false, rival: true } });
    const said = describeStartVerdict({ ...weighStart(fitness, start, d.first, d.rival), ...d.overCeiling });
    expect(said).toMatch(/^nothing within the cost ceiling beats the start: the best finalist \(candidate 2\) validated .* but its held-out games cost more than fitness\.maxCost; the run's best is its start \(candidate 1\)$/);
    expect(said).not.toMatch(/every finalist is the start/);
  });

  it('the start over the ceiling too: no validated point kept within it, said so', () => {
    const d = decideFirstSet(ceiling, start, [a, b], undefined, () => false);
    const said = describeStartVerdict({ ...weighStart(fitness, start, d.first, d.rival), ...d.overCeiling });
    expect(said).toMatch(/^no validated point kept within the cost ceiling on its held-out games, the start neither: the best finalist \(candidate 2\)/);
  });

  it('the choice clearly below a start that went over the ceiling reads so, not "by less than the noise"', () => {
    const weak = point(4, 60, (s) => 90_000 + s);
    const d = decideFirstSet(ceiling, start, [weak], undefined, (p) => p !== start);
    expect(d.first.id).toBe(4);
    const v = { ...weighStart(fitness, start, d.first, d.rival), ...d.overCeiling };
    expect(-v.difference).toBeGreaterThan(v.halfWidth);
    const said = describeStartVerdict(v);
    expect(said).toMatch(/reads below the start, which did not keep within the cost ceiling on its held-out games \(so it may not be chosen\)/);
    expect(said).not.toMatch(/less than the noise/);
  });

  it('"every finalist is the start itself" only when no finalist is another point; without a ceiling nothing is said of one', () => {
    const plainConfig = parseConfig({ space: { start: 'nneonneo', params: { empty: { min: 0, max: 1 } } } });
    const alone = decideFirstSet(plainConfig, start, [], undefined, () => true);
    expect(alone.rival).toBeNull();
    expect(describeStartVerdict(weighStart(fitness, start, alone.first, alone.rival))).toMatch(/^nothing beats the start: every finalist is the start itself/);
    const plain = decideFirstSet(plainConfig, start, [a, b], undefined, () => true);
    expect(plain.first.id).toBe(2);
    expect(plain.overCeiling).toEqual({});
  });
});

describe('rankings across unequal games (fitness.racing)', () => {
  const evaluated = (id: number, fitness: number, round: number) => ({ id, genome: [id / 10], origin: 'offspring', fitness, scores: [fitness], round });

  it('ranks by the round reached, then by fitness', () => {
    const ranked = rankEvaluated([evaluated(1, 150_000, 1), evaluated(2, 120_000, 3), evaluated(3, 130_000, 3), evaluated(4, 160_000, 2)]);
    expect(ranked.map((c) => c.id)).toEqual([3, 2, 4, 1]);
  });

  it("the GA's elites are the candidates that went furthest, not the luckiest slices", () => {
    const ga = createGa(parseConfig({ space: { start: 'nneonneo', params: { empty: { min: 0, max: 1 } } }, optimizer: { population: 4, elitism: 2, tournament: 2 } }).optimizer as never);
    const previous = [evaluated(1, 150_000, 1), evaluated(2, 120_000, 3), evaluated(3, 130_000, 3), evaluated(4, 160_000, 2)];
    const next = ga.next(previous, { mutationScale: 0.1, successRate: null }, seedrandom.alea('ga'));
    expect(next.candidates.filter((c) => c.origin === 'elite').map((c) => c.parents[0])).toEqual([3, 2]);
  });
});
