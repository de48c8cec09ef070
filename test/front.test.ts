/**
 * A two-objective run, strength against cost per move, through the real tuner on the synthetic player: a
 * landscape whose front is known (the cost weight from its low bound to its optimum, the others at theirs),
 * games as noisy as real ones. NSGA-II's validated front against the true front's hypervolume and against
 * random search at the same games; the validated front read back (show's table); export by budget on a stored
 * run built by hand; the refusals.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig, type RunConfig } from '../src/tuner/config/config';
import { hypervolume2d } from '../src/tuner/optimizers/evolutionary/pareto';
import { syntheticCost, syntheticMean, type SyntheticLandscape } from '../src/player/synthetic';
import { weightSpace } from '../src/tuner/space/space';
import { frontToValidate, validatedFront } from '../src/tuner/selection/front';
import { NetworkSpace } from '../src/tuner/space/network-space';
import { playerKey } from '../src/player/spec';
import { runStartVerdict } from '../src/tuner/selection/verdict';
import { Store } from '../src/store/store';
import { loadRunProblem, networkSpec } from '../src/tuner/run/run-problem';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from './helpers/cli';
import { runDetail } from '../src/report/run-data';
import { buildRunReport } from '../src/report/report';
import type { RunDetail } from '../src/report/run-data';
import { PUBLISHED_NETWORK_ROWS, publishedLabel } from '../src/report/published';
import { seriesStrokes } from '../src/web/client/colors';
import { frontChartSpec } from '../src/web/client/front-chart';
import type { ChartSpec } from '../src/web/client/charts';
import { tempDb, tuneToEnd, writeConfig } from './helpers/runs';
import { handBuiltRun, HIGH, LANDSCAPE, LOW } from './helpers/front-run';


function frontConfig(kind: 'nsga2' | 'random', budget: number, seed = 7): RunConfig {
  const generations = 1000;
  return parseConfig({
    name: `front-${kind}`,
    seed,
    space: { start: 'tuned-d1', params: { empty: { min: 0, max: 2000 }, merges: { min: 0, max: 3000 }, monotonicity: { min: 1, max: 1000, scale: 'log' }, smoothness: { min: 0, max: 200 }, sum: { min: 0.1, max: 1000, scale: 'log' }, sumPower: { min: LOW, max: HIGH } } },
    optimizer: kind === 'nsga2' ? { kind, population: 16, generations } : { kind, population: 16, generations, elitism: 0 },
    fitness: { games: 8, budget, player: 'synthetic', cost: 'nodes', synthetic: LANDSCAPE },
    validation: { front: 16, games: 200 },
    pool: { batchGames: 20 },
  });
}

/** Objectives as the chart reads them: the mean, and the cost per move on a log scale (each ply multiplies it). */
const REFERENCE: [number, number] = [0, -Math.log(syntheticCost({ sumPower: HIGH } as never, LANDSCAPE as SyntheticLandscape)!)];
const TRUE_HV = (() => {
  const l = LANDSCAPE as SyntheticLandscape;
  const points = Array.from({ length: 4001 }, (_, i) => {
    const w = { ...l.optimum, sumPower: LOW + ((l.optimum.sumPower - LOW) * i) / 4000 } as never;
    return [syntheticMean(w, l), -Math.log(syntheticCost(w, l)!)];
  });
  return hypervolume2d(points, REFERENCE);
})();

/** A finished run's validated front, its points at their true mean and cost: the hypervolume over the true front's. */
function trueShare(db: string, id: number): { share: number; points: number } {
  const store = Store.open(db, { readonly: true });
  try {
    const problem = loadRunProblem(store, id);
    const front = validatedFront(store, id, problem)!;
    const space = weightSpace(problem.space);
    const l = problem.config.fitness.synthetic as SyntheticLandscape;
    const points = front.points.map((p) => {
      const w = space.toWeights(store.getCandidate(p.candidate)!.genome);
      return [syntheticMean(w, l), -Math.log(syntheticCost(w, l)!)];
    });
    return { share: hypervolume2d(points, REFERENCE) / TRUE_HV, points: front.points.length };
  } finally {
    store.close();
  }
}

describe('a two-objective run on the synthetic player (a known front)', () => {
  // Seed 2 of six measured (docs/tuning.md): NSGA-II 0.91, 0.94, 0.92, 0.84, 0.94, 0.90 of the true
  // hypervolume at 32,000 fitness games; random search 0.72–0.83.
  it('NSGA-II at 32,000 games: the validated front holds ≥ 90 % of the true hypervolume, above random search at the same games', async () => {
    const nsga = tempDb();
    const a = await tuneToEnd(nsga, frontConfig('nsga2', 32_000, 2), { workers: 2 });
    const random = tempDb();
    const b = await tuneToEnd(random, frontConfig('random', 32_000, 2), { workers: 2 });
    const [ours, theirs] = [trueShare(nsga, a.id), trueShare(random, b.id)];
    expect(ours.share).toBeGreaterThanOrEqual(0.9);
    expect(ours.share).toBeGreaterThan(theirs.share);
    // The same games were spent (the budget is a ceiling both reached within one generation).
    const spent = (db: string, id: number) => {
      const store = Store.open(db, { readonly: true });
      try {
        return store.listGenerations(id).reduce((n, g) => n + g.games, 0);
      } finally {
        store.close();
      }
    };
    expect(spent(nsga, a.id)).toBeLessThanOrEqual(32_000);
    expect(spent(random, b.id)).toBeGreaterThan(32_000 - 16 * 2 * 8);
    expect(spent(nsga, a.id)).toBeGreaterThan(32_000 - 16 * 2 * 8);
  });
});

describe('a budget of cost per move (fitness.maxCost)', () => {
  /** The in-sample cost per move of each candidate the run validated, the start aside; and the validated front's costs. */
  async function validatedCosts(maxCost?: number): Promise<{ validated: number[]; front: number[]; db: string; id: number }> {
    const config = frontConfig('nsga2', 2_400, 3);
    const data = { ...config, optimizer: { ...config.optimizer, population: 8 }, fitness: { ...config.fitness, games: 6, ...(maxCost !== undefined ? { maxCost } : {}) }, validation: { front: 8, games: 12 } };
    const db = tempDb();
    const { id } = await tuneToEnd(db, parseConfig(JSON.parse(JSON.stringify(data))), { workers: 2 });
    const store = Store.open(db, { readonly: true });
    try {
      const problem = loadRunProblem(store, id);
      const start = runStartVerdict(store, problem)!.start.candidate;
      const cost = (games: { moves: number; nodes?: number | null }[]) => games.reduce((a, g) => a + (g.nodes ?? 0), 0) / games.reduce((a, g) => a + g.moves, 0);
      const validated = store.validatedCandidates(id).filter((c) => c.id !== start).map((c) => cost(store.getGames(c.id, 'fitness')));
      const points = validatedFront(store, id, problem)!.points;
      // The front finds the start itself: the point the verdict names, and no other.
      for (const p of points) expect(p.start).toBe(p.candidate === start);
      const front = points.filter((p) => !p.start).map((p) => p.costPerMove);
      return { validated, front, db, id };
    } finally {
      store.close();
    }
  }

  it('the front runs from the cheapest search to the budget: no candidate over it is validated, where the same run without it validates dearer ones', async () => {
    const free = await validatedCosts();
    const budget = Math.round((Math.min(...free.validated) + Math.max(...free.validated)) / 2);
    expect(free.validated.filter((c) => c > budget).length).toBeGreaterThan(0);
    const capped = await validatedCosts(budget);
    expect(capped.validated.length).toBeGreaterThan(1);
    for (const c of [...capped.validated, ...capped.front]) expect(c).toBeLessThanOrEqual(budget);
    expect(runCli(['show', String(capped.id), '--db', capped.db]).stdout).toContain(`within the run's budget of ${budget} positions a move, fitness.maxCost`);
  });

  it('a budget without a cost is refused in one line', () => {
    const base = frontConfig('nsga2', 1000) as unknown as Record<string, Record<string, unknown>>;
    expect(() => parseConfig(JSON.parse(JSON.stringify({ ...base, optimizer: { kind: 'ga' }, fitness: { ...base.fitness, cost: undefined, maxCost: 100 } })))).toThrow(/field "fitness\.maxCost": a cost ceiling needs a cost to measure/);
    expect(() => parseConfig(JSON.parse(JSON.stringify({ ...base, fitness: { ...base.fitness, maxCost: 0 } })))).toThrow(/fitness\.maxCost/);
  });
});

describe('which points are validated', () => {
  it('two genomes that play alike (rule thresholds rounding to the same cells) are one player: judged on all their games, validated once', () => {
    // A network's space over the rule's thresholds (its start needs no network file: only the settings are read).
    const space = new NetworkSpace(1, { cprob: 1e-4, stageWeights: [1] }, { 'depthRule.deeperAtEmpty': { min: -1, max: 6 }, 'depthRule.shallowerAtEmpty': { min: 2, max: 17 } }, 'x');
    const config = parseConfig(JSON.parse(JSON.stringify({ ...frontConfig('nsga2', 1000), fitness: { ...frontConfig('nsga2', 1000).fitness, games: 2, synthetic: undefined, player: { kind: 'network', file: 'n.bin' } } })));
    const fitness = config.fitness;
    // The key the tuner uses: playerKey of the spec the run plays a genome with.
    const network = { sha256: 'x', stages: 1, start: space.start };
    const keyOf = (g: readonly number[]) => playerKey(networkSpec(config, network, space.toSettings(g)));
    const genome = (deeper: number, shallower: number) => [(deeper + 1) / 7, (shallower - 2) / 15];
    const candidate = (id: number, g: number[]) => ({ id, runId: 1, generation: 0, idx: id, genome: g, params: space.params(g), origin: 'init', parents: [], fitness: null, validation: null, prediction: null, confirmation: null });
    const cands = [candidate(1, genome(2.2, 16.4)), candidate(2, genome(2.4, 16.3)), candidate(3, genome(4, 14))];
    expect(space.playedParams(cands[0].genome)).toEqual(space.playedParams(cands[1].genome));
    expect(keyOf(cands[0].genome)).toBe(keyOf(cands[1].genome));
    expect(keyOf(cands[0].genome)).not.toBe(keyOf(cands[2].genome));
    expect(cands[0].params).not.toEqual(cands[1].params);
    const game = (candidateId: number, seed: number, score: number, nodes: number) => ({ candidateId, purpose: 'fitness' as const, seed, score, maxTile: 2048, moves: 100, ms: 1, nodes });
    // Twins level on their games: both on the front as settings, one player to validate, standing as the latest.
    const games = new Map([
      [1, [game(1, 1, 20_000, 1_000), game(1, 2, 20_000, 1_000)]],
      [2, [game(2, 3, 20_000, 1_000), game(2, 4, 20_000, 1_000)]],
      [3, [game(3, 5, 40_000, 40_000), game(3, 6, 40_000, 40_000)]],
    ]);
    expect(frontToValidate(fitness, cands, games, 5, keyOf).map((c) => c.id)).toEqual([2, 3]);
    // Twins apart (10,000 and 30,000: one player averaging 20,000 at 10 positions a move): a rival at that cost
    // and 25,000 beats the pair, though not the stronger twin's own games.
    games.set(1, [game(1, 1, 10_000, 1_000), game(1, 2, 10_000, 1_000)]);
    games.set(2, [game(2, 3, 30_000, 1_000), game(2, 4, 30_000, 1_000)]);
    const rival = candidate(4, genome(0, 5));
    games.set(4, [game(4, 7, 25_000, 1_000), game(4, 8, 25_000, 1_000)]);
    expect(frontToValidate(fitness, [...cands, rival], games, 5, keyOf).map((c) => c.id)).toEqual([3, 4]);
  });
});

describe('the validated front and export by budget (a stored run built by hand)', () => {
  const exported = (db: string, ...args: string[]) => {
    const r = runCli(['export', '1', '--db', db, '--json', ...args]);
    return { code: r.code, stderr: r.stderr, front: r.code === 0 ? (JSON.parse(r.stdout) as { weights: { provenance: { candidate: number; front?: { point: number; costPerMove: number; msPerMove: number } } } }).weights.provenance : null };
  };

  it('the front is the points no other beats on both, cheapest first; export picks by number, by nodes a move and by ms a move', () => {
    const { db, ids } = handBuiltRun();
    const store = Store.open(db, { readonly: true });
    try {
      const front = validatedFront(store, 1, loadRunProblem(store, 1))!;
      expect(front.points.map((p) => [p.point, p.candidate, p.costPerMove])).toEqual([[1, ids[0], 10], [2, ids[1], 100], [3, ids[3], 1000]]);
      expect(front.dominated).toBe(1);
      expect(front.points[1].msPerMove).toBeCloseTo(0.1, 12);
    } finally {
      store.close();
    }
    expect(exported(db).front!.candidate).toBe(ids[3]); // no choice: the strongest
    expect(exported(db, '--point', '1').front!.front).toEqual({ point: 1, costPerMove: 10, msPerMove: 0.01 });
    expect(exported(db, '--max-cost', '150').front!.candidate).toBe(ids[1]);
    expect(exported(db, '--max-cost', '99').front!.candidate).toBe(ids[0]);
    expect(exported(db, '--max-cost', '1000').front!.candidate).toBe(ids[3]);
    expect(exported(db, '--max-ms-per-move', '0.5').front!.candidate).toBe(ids[1]);
    // A budget the front leaves mostly unused (nothing between 10 and 100 nodes a move): said, with the next point's cost.
    const gap = runCli(['export', '1', '--db', db, '--max-cost', '99']);
    expect(gap.stderr).toContain('tune2048: run 1: the strongest point within 99 nodes a move is point 1 at 10 nodes a move (10 % of the budget); the next, point 2, needs 100: the front has nothing between them');
    expect(runCli(['export', '1', '--db', db, '--max-cost', '150']).stderr).not.toContain('the front has nothing between');
    // show, the report and the dashboard's data number the same points.
    const show = runCli(['show', '1', '--db', db]);
    expect(show.stdout).toMatch(/validated front: 3 points/);
    expect(show.stdout).toMatch(new RegExp(`\\n2 +${ids[1]} +80,000\\.0 +±\\d`));
    const json = JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout) as { front: { point: number; candidate: number }[] };
    expect(json.front.map((p) => [p.point, p.candidate])).toEqual([[1, ids[0]], [2, ids[1]], [3, ids[3]]]);
    const read = Store.open(db, { readonly: true });
    try {
      expect(runDetail(read, 1).front!.map((p) => p.candidate)).toEqual([ids[0], ids[1], ids[3]]);
      const html = buildRunReport(read, 1);
      expect(html).toContain('<div id="chart-front" class="chart">');
      expect(html).toMatch(new RegExp(`<td>2</td><td>${ids[1]}</td><td>80,000\\.0</td>`));
    } finally {
      read.close();
    }
  });

  it("the chart's data: the front with its band; beside a network's front (its own or another's in the database) the published networks' means as levels, named with their ply", () => {
    const { db } = handBuiltRun();
    const read = Store.open(db, { readonly: true });
    let detail: RunDetail;
    try {
      detail = runDetail(read, 1);
    } finally {
      read.close();
    }
    const heuristic = frontChartSpec(detail);
    expect(heuristic.series.map((s) => s.name)).toEqual(['the validated front (held-out)']);
    expect(heuristic.x).toEqual([10, 100, 1000]);
    expect(heuristic.series[0].values).toEqual(detail.front!.map((p) => p.validation));
    expect(heuristic.band!.high.map((h, i) => h! - heuristic.series[0].values[i]!)).toEqual(detail.front!.map((p) => p.halfWidth));
    const published = (spec: ChartSpec) => spec.series.filter((s) => s.dashed);
    // The y axis is the front's own (its band with a margin): the published levels, all above 200,000, do not stretch
    // a front of 50,000–120,000 into a flat line; they are named under the chart instead. The points are marked.
    const low = frontChartSpec({ ...detail, settings: { ...detail.settings, player: 'network:D.bin' } });
    expect(published(low)).toEqual([]);
    expect(low.notes).toEqual(PUBLISHED_NETWORK_ROWS.map((row) => `${publishedLabel(row)} (above this chart)`));
    const bandLow = Math.min(...low.band!.low.filter((v): v is number => v !== null));
    const bandHigh = Math.max(...low.band!.high.filter((v): v is number => v !== null));
    expect(low.yRange![0]).toBeLessThan(bandLow);
    expect(low.yRange![1]).toBeGreaterThan(bandHigh);
    expect(low.yRange![1] - low.yRange![0]).toBeLessThan(1.25 * (bandHigh - bandLow));
    expect(low.series[0].markers).toBe(true);
    // A front that reaches them draws them as levels, each at its mean.
    const strong = { ...detail, front: detail.front!.map((p) => ({ ...p, validation: 4.3 * p.validation })), settings: { ...detail.settings, player: 'network:D.bin' } };
    const network = frontChartSpec(strong);
    expect(published(network).map((s) => s.name)).toEqual(PUBLISHED_NETWORK_ROWS.map(publishedLabel));
    for (const [k, s] of published(network).entries()) expect(s.values).toEqual([10, 100, 1000].map(() => PUBLISHED_NETWORK_ROWS[k].mean));
    expect(published(network).map((s) => s.name)).toContain('published: ziap/2048-tdl 4×6, TD(λ) + TC + restarts, 1 M games, 3-ply (depth 2): 419,479, 32768 in 35.7 %');
    expect(network.notes).toBeUndefined();
    const beside = frontChartSpec({ ...strong, settings: detail.settings, otherFronts: [{ run: 2, name: 'net', player: 'network:D.bin', points: strong.front }] });
    expect(published(beside)).toHaveLength(PUBLISHED_NETWORK_ROWS.length);
    expect(published(frontChartSpec({ ...strong, settings: { ...strong.settings, objective: 'reach-rate' } }))).toHaveLength(0);
    // Colours: with 13 series, a level still never shares a data series' colour (levels come last; data wrap the palette).
    const many: { dashed?: boolean }[] = [...Array.from({ length: 12 }, () => ({})), ...published(network), { dashed: false }];
    const strokes = seriesStrokes(many);
    const dataStrokes = new Set(strokes.filter((_, i) => !many[i].dashed));
    expect(strokes.filter((_, i) => many[i].dashed && dataStrokes.has(strokes[i]))).toEqual([]);
    expect(new Set(strokes.filter((_, i) => many[i].dashed)).size).toBe(published(network).length);
  });

  it('a budget below every point, a point out of range, two choices at once, a one-objective run: one line, exit 2, nothing written', () => {
    const { db } = handBuiltRun();
    const out = join(mkdtempSync(join(tmpdir(), 'tune2048-front-')), 'w.json');
    const refused = (args: string[], message: RegExp, at = db) => {
      const r = runCli(['export', '1', '--db', at, '--out', out, ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    };
    refused(['--max-cost', '5'], /--max-cost 5: every point of run 1's front costs more; the cheapest is point 1, 10\.0 nodes a move, 0\.010 ms a move/);
    refused(['--max-ms-per-move', '0.001'], /the cheapest is point 1/);
    refused(['--point', '4'], /--point 4: run 1's front has points 1 to 3/);
    refused(['--point', '0'], /--point must be from 1/);
    refused(['--point', '1', '--max-cost', '100'], /^tune2048: --point and --max-cost exclude each other: give one of them$/m);
    refused(['--point', '1'], /run 1 tuned one objective, so it has no front/, handBuiltRun(false).db);
  });
});

describe('two objectives in a run config: the refusals', () => {
  const base = frontConfig('nsga2', 1000) as unknown as Record<string, Record<string, unknown>>;
  const with_ = (section: string, change: Record<string, unknown>) => ({ ...base, [section]: { ...base[section], ...change } });
  it.each([
    ['a one-objective optimizer with a cost', { ...base, optimizer: { kind: 'ga' } }, /field "fitness\.cost": a second objective needs an optimizer that ranks by two/],
    ['NSGA-II without a cost', with_('fitness', { cost: undefined }), /field "optimizer\.kind": NSGA-II ranks by strength and cost/],
    ['racing in a two-objective run', with_('fitness', { racing: { rounds: 2, keep: 0.5 } }), /field "fitness\.racing": racing drops candidates by strength alone/],
    ['a player that counts no positions', with_('fitness', { player: 'mcts', synthetic: undefined }), /field "fitness\.cost": the mcts player does not count/],
    ['the synthetic player without a cost', with_('fitness', { synthetic: { ...LANDSCAPE, cost: undefined } }), /add fitness\.synthetic\.cost/],
    ['an unknown cost', with_('fitness', { cost: 'ms' }), /field "fitness\.cost"/],
    ['elites that keep their fitness (and so have no games, no cost)', { ...base, reevaluateElites: false, optimizer: { kind: 'random', population: 8, generations: 2, elitism: 2 } }, /field "optimizer\.elitism": a two-objective run measures its elites again/],
  ])('%s', (_what, data, message) => {
    expect(() => parseConfig(JSON.parse(JSON.stringify(data)))).toThrow(message);
  });

  it('an external player: one that announces its cost is tuned against it (the C example); one that does not is refused before anything is created', () => {
    const external = (name: string) => ({
      name: `front-${name}`,
      seed: 2,
      space: { start: 'defaults', params: { empty: {}, merges: {} } },
      optimizer: { kind: 'nsga2', population: 4, generations: 2 },
      fitness: { games: 2, cost: 'nodes', player: `external:${name}` },
      validation: { front: 3, games: 2 },
    });
    const refusedDb = tempDb();
    const refused = runCli(['tune', '-c', writeConfig(external('greedy-py')), '--db', refusedDb]);
    expect([refused.code, refused.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(refused.stderr).toMatch(/the external player greedy-py reports no cost per move: a two-objective run \(fitness\.cost\) needs a "cost nodes" line/);
    expect(existsSync(refusedDb)).toBe(false);
    const db = tempDb();
    expect(runCli(['tune', '-c', writeConfig(external('expectimax-c')), '--db', db, '--workers', '2']).code).toBe(0);
    const json = JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout) as { front: { costPerMove: number; games: number }[] };
    expect(json.front.length).toBeGreaterThan(0);
    for (const p of json.front) expect([p.costPerMove > 0, p.games]).toEqual([true, 2]);
  });

  it('race weighs NSGA-II and random search by their validated fronts\' hypervolume (and, on the synthetic player, the true one); the refusals come before anything is created', () => {
    const config = writeConfig({ ...base, optimizer: { kind: 'nsga2', population: 8, generations: 1000 }, validation: { front: 6, games: 40 } });
    const db = tempDb();
    const r = runCli(['benchmark', '-c', config, '--db', db, '--budget', '800', '--seeds', '1,2', '--workers', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { summary: { kind: string; runs: number; hypervolume: { median: number }; trueShare: { median: number; min: number; max: number } }[]; runs: { front: { points: unknown[] } }[] };
    expect(out.summary.map((x) => [x.kind, x.runs])).toEqual([['nsga2', 2], ['random', 2]]);
    for (const x of out.summary) {
      expect(x.hypervolume.median).toBeGreaterThan(0);
      expect(x.trueShare.min).toBeGreaterThan(0);
      expect(x.trueShare.max).toBeLessThanOrEqual(1);
    }
    expect(out.runs.every((run) => run.front.points.length > 0)).toBe(true);
    // One chart holds them all: each run's page carries the database's other fronts of its objective.
    const read = Store.open(db, { readonly: true });
    try {
      const others = runDetail(read, 1).otherFronts;
      expect(others.map((o) => o.run)).toEqual([2, 3, 4]);
      expect(others.every((o) => o.points.length > 0 && o.player === 'synthetic')).toBe(true);
    } finally {
      read.close();
    }
    const refused = (args: string[], message: RegExp) => {
      const at = tempDb();
      const x = runCli(['benchmark', '-c', config, '--db', at, '--budget', '500', ...args]);
      expect([x.code, x.stderr.trim().split('\n').length]).toEqual([2, 1]);
      expect(x.stderr).toMatch(message);
      expect(existsSync(at)).toBe(false);
    };
    refused(['--optimizers', 'ga,random'], /a second objective needs an optimizer that ranks by two/);
    refused(['--optimizers', 'nsga2+racing'], /race contender "nsga2\+racing": racing drops candidates by strength alone/);
    refused(['--svg', join(tmpdir(), 'x.svg')], /--svg draws the held-out curve of one objective; this problem has two/);
  });
});

describe('the search depth as a tuned parameter', () => {
  const data = {
    name: 'depth-front',
    seed: 3,
    space: { start: 'nneonneo', params: { depth: { min: 0, max: 2 }, cprob: { min: 0.0001, max: 0.01, scale: 'log' }, empty: { min: 0, max: 2000 }, monotonicity: { min: 1, max: 500, scale: 'log' } } },
    optimizer: { kind: 'nsga2', population: 4, generations: 2 },
    fitness: { games: 2, depth: 1, cost: 'nodes', cprob: 0.001 },
    validation: { front: 3, games: 2 },
    pool: { batchGames: 1 },
  };

  it('each candidate plays at its own whole depth and cutoff: its stored games are `play`\'s at those; export says how to play it', async () => {
    const db = tempDb();
    const { id } = await tuneToEnd(db, parseConfig(data), { workers: 2 });
    const store = Store.open(db, { readonly: true });
    let best;
    let games;
    try {
      best = store.getCandidate(store.requireRun(id).bestCandidate!)!;
      games = store.getGames(best.id, 'validation');
      const depths = new Set(store.runGames(id).map((g) => store.getCandidate(g.candidateId)!.params.depth));
      expect([...depths].every((d) => Number.isInteger(d) && d >= 0 && d <= 2)).toBe(true);
    } finally {
      store.close();
    }
    const out = join(mkdtempSync(join(tmpdir(), 'tune2048-depth-')), 'best.json');
    const exported = runCli(['export', String(id), '--db', db, '--out', out]);
    expect(exported.code).toBe(0);
    const { depth, cprob } = best.params;
    // The file carries the search it was validated at, and plays at it with no flag: its validation's first games again.
    expect(JSON.parse(readFileSync(out, 'utf8')).search).toEqual({ depth, cprob });
    expect(exported.stderr).toContain(`the file carries it (depth ${depth} and cprob ${cprob}) and plays at it unless -d or --cprob says otherwise: tune2048 play -w ${out}`);
    for (const game of games.slice(0, 2)) {
      const replayed = JSON.parse(runCli(['play', '-w', out, '-n', '1', '-s', String(game.seed), '--json']).stdout);
      expect([replayed.games[0].score, replayed.games[0].moves, replayed.depth, replayed.cprob]).toEqual([game.score, game.moves, depth, cprob]);
    }
    // A flag still says otherwise; compare plays the file at its own search and says so in its label (the tuned
    // cutoff to 3 significant digits there: the file plays it exactly).
    expect(JSON.parse(runCli(['play', '-w', out, '-d', '0', '-n', '1', '--json']).stdout).depth).toBe(0);
    const compared = JSON.parse(runCli(['compare', out, 'nneonneo', '-n', '2', '-s', String(games[0].seed), '-d', '0', '--json']).stdout) as { contenders: { label: string; games: { score: number }[] }[] };
    expect(compared.contenders.map((c) => c.label)).toEqual([`${JSON.parse(readFileSync(out, 'utf8')).name}@d${depth}@c${Number(cprob.toPrecision(3))}`, 'nneonneo']);
    // Each point of the front is a file of its own name.
    const points = (JSON.parse(runCli(['show', String(id), '--db', db, '--json']).stdout) as { front: { point: number }[] }).front.map((p) => p.point);
    const names = points.map((k) => {
      const file = join(dirname(out), `point-${k}.json`);
      const r = runCli(['export', String(id), '--db', db, '--point', String(k), '--out', file]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(readFileSync(file, 'utf8')).name as string;
    });
    expect(names.map((n) => n.replace(/-[0-9a-f]{6}$/, ''))).toEqual(points.map((k) => `test-run${id}-p${k}`));
    // For nneonneo's 2048.cpp, the block carries the search too: its cutoff as the constant it reads, its depth as the line to set.
    const block = runCli(['export', String(id), '--db', db, '--format', 'nneonneo']).stdout;
    expect(Number(block.match(/^static const float CPROB_THRESH_BASE = ([\d.e+-]+)f;/m)![1])).toBe(Math.fround(cprob as number));
    expect(block).toContain(`// tuned at depth ${depth}: in score_toplevel_move, set state.depth_limit = ${depth};`);
  });

  it('each point of a front exports under a name of its own', () => {
    const { db } = handBuiltRun();
    const where = mkdtempSync(join(tmpdir(), 'tune2048-points-'));
    const names = [1, 2, 3].map((k) => {
      const file = join(where, `p${k}.json`);
      const r = runCli(['export', '1', '--db', db, '--point', String(k), '--out', file]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(readFileSync(file, 'utf8')).name as string;
    });
    expect(names.map((n) => n.replace(/-[0-9a-f]{6}$/, ''))).toEqual(['by-hand-run1-p1', 'by-hand-run1-p2', 'by-hand-run1-p3']);
  });

  it.each([
    ['"auto" as fitness.depth', { fitness: { ...data.fitness, depth: 'auto' } }, /"space\.params\.depth": .*"auto" gives none to start from/],
    ['a depth past the deepest', { space: { ...data.space, params: { ...data.space.params, depth: { min: 0, max: 99 } } } }, /"space\.params\.depth": min and max are whole depths from 0 to/],
    ['half a depth', { space: { ...data.space, params: { ...data.space.params, depth: { min: 0.5, max: 2 } } } }, /"space\.params\.depth": min and max are whole depths/],
    ['a log scale', { space: { ...data.space, params: { ...data.space.params, depth: { min: 1, max: 3, scale: 'log' } } } }, /"space\.params\.depth": a depth is tuned on a linear scale/],
    ['a start outside', { space: { ...data.space, params: { ...data.space.params, depth: { min: 2, max: 3 } } } }, /"space\.params\.depth": the start depth 1 is outside \[2, 3\]/],
    ['a cutoff of 1', { space: { ...data.space, params: { ...data.space.params, cprob: { min: 0.001, max: 1 } } } }, /"space\.params\.cprob": \[0\.001, 1\] must lie in \[0, 1\)/],
  ])('refuses %s in one line', (_what, change, message) => {
    expect(() => parseConfig({ ...data, ...change })).toThrow(message);
  });
});
