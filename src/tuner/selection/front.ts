/**
 * A two-objective run's front: strength (the fitness objective) against cost per move (the positions the
 * search expands a move, counted by the search: the same on every worker, machine and resume). ms per move is
 * measured beside it, never ranked by (it depends on the machine and its load).
 *
 * In the run: each candidate's objectives come from its fitness games (the optimizer ranks by them); at the
 * end the run's non-dominated candidates — at most validation.front, the most spread — and the start are
 * played on held-out seeds, and the validated front is the points none of which another beats on both
 * held-out strength and cost. One computation (frontOf) over the held-out games: the tuner gives it the games
 * it just stored, show, the report and export read them back, so they agree.
 */
import type { Candidate, Game, Store } from '../../store/store';
import type { RunConfig } from '../config/config';
import type { BoundedSpace } from '../space/space';
import { costPerMove as summaryCost, summarizeGames } from '../../compare/summary';
import { fitnessHalfWidth95, hasFront, objectiveValue } from '../objective/fitness';
import { selectSurvivors } from '../optimizers/evolutionary/nsga2';
import { nonDominatedSort } from '../optimizers/evolutionary/pareto';
import { findStart } from './verdict';

/** What a run's front needs of its problem: objectives, the space, and the point a genome is (to find its start). */
export interface FrontProblem {
  config: RunConfig;
  space: BoundedSpace;
  pointKey(genome: readonly number[]): string;
}


/** Positions searched per move over some games (compare/summary.ts's one definition); null when a game has no count (or there are none). */
export function costPerMove(games: readonly Pick<Game, 'moves' | 'nodes'>[]): number | null {
  return summaryCost(games) ?? null;
}

/**
 * A candidate's two objectives, both maximised: [strength, −ln(1 + cost per move)]. The log orders as the cost
 * does (the same fronts), but spreads the points as a chart of cost reads (each ply multiplies the cost):
 * crowding on the raw cost would crowd out every cheap point beside one deep one.
 */
export function frontObjectives(fitness: RunConfig['fitness'], candidate: number, games: readonly Game[]): [number, number] {
  return objectivesAt(fitness, games, knownCost(candidate, games));
}

/** A candidate's cost per move; its games must carry the count. */
function knownCost(candidate: number, games: readonly Game[]): number {
  const cost = costPerMove(games);
  if (cost === null) throw new Error(`candidate ${candidate}: its games carry no count of positions searched, so its cost per move is unknown`);
  return cost;
}

/** frontObjectives at a cost already computed from the same games. */
function objectivesAt(fitness: RunConfig['fitness'], games: readonly Game[], cost: number): [number, number] {
  // Over the budget (fitness.maxCost): a strength below any real one, lower the more it costs, so every candidate
  // within the budget dominates it, and of two over it the cheaper dominates (finite: the state is JSON).
  if (overBudget(fitness, cost)) return [OVER_BUDGET - cost, -Math.log1p(cost)];
  return [objectiveValue(fitness, games), -Math.log1p(cost)];
}

const OVER_BUDGET = -1e15;

function overBudget(fitness: RunConfig['fitness'], cost: number): boolean {
  return fitness.maxCost !== undefined && cost > fitness.maxCost;
}


/**
 * Which candidates to validate: the players of the run within its budget (fitness.maxCost) no other dominates
 * on their fitness games, at most `max`, the most spread (the two ends always). `playerKeyOf` names the player
 * a genome plays as (`gamesKey` of the run's spec for it: two genomes whose rule thresholds round to the same
 * cells, or whose cutoffs never prune, are one player); one met in several candidates (a kept member, or such a twin) is judged on all their
 * games and stands as the latest, so no player is validated twice.
 */
export function frontToValidate(
  fitness: RunConfig['fitness'],
  candidates: readonly Candidate[],
  games: ReadonlyMap<number, readonly Game[]>,
  max: number,
  playerKeyOf: (genome: readonly number[]) => string,
): Candidate[] {
  const bySet = new Map<string, { latest: Candidate; games: Game[] }>();
  for (const c of candidates) {
    const own = games.get(c.id) ?? [];
    if (own.length === 0) continue;
    const key = playerKeyOf(c.genome);
    const set = bySet.get(key);
    if (set) {
      set.latest = c; // candidates come in generation order
      set.games.push(...own);
    } else bySet.set(key, { latest: c, games: [...own] });
  }
  const pool = [...bySet.values()].flatMap(({ latest, games: all }) => {
    const cost = knownCost(latest.id, all);
    return overBudget(fitness, cost) ? [] : [{ id: latest.id, genome: latest.genome, objectives: objectivesAt(fitness, all, cost) }];
  });
  const first = nonDominatedSort(pool.map((p) => p.objectives))[0] ?? [];
  const kept = selectSurvivors(first.map((i) => pool[i]), max).members.map((m) => m.id);
  return candidates.filter((c) => kept.includes(c.id)).sort((a, b) => a.id - b.id);
}

export interface FrontPoint {
  /** Its number in `show` and for `export --point`: 1 is the cheapest. */
  point: number;
  candidate: number;
  generation: number;
  /** Its settings as the player uses them (a rule's thresholds in whole cells, or off). */
  params: Record<string, number>;
  start: boolean;
  /** The objective on held-out seeds, and the half-width of its 95 % interval. */
  validation: number;
  halfWidth: number | null;
  /** Mean score on the held-out games (the objective may be another figure). */
  meanScore: number;
  games: number;
  costPerMove: number;
  msPerMove: number | null;
  /** Its gain over the next cheaper point is inside the noise (the difference's 95 % interval covers 0). */
  withinNoiseOfCheaper: boolean;
}

export interface ValidatedFront {
  points: FrontPoint[];
  /** Validated candidates that the held-out games put behind another on both objectives. */
  dominated: number;
  /** The run's budget of cost per move (fitness.maxCost): nothing dearer in its fitness games was validated. */
  maxCost: number | null;
}

/**
 * The run's validated front from its stored games, cheapest first, its start marked; null for a run without
 * one (one objective, or not validated yet).
 */
export function validatedFront(store: Store, runId: number, problem: FrontProblem): ValidatedFront | null {
  return hasFront(problem.config) ? frontOfValidated(store, runId, problem) : null;
}

/**
 * The front of every validated candidate of a run, whatever its objectives (export within a budget reads a
 * one-objective run's so), its start marked: the validated candidate with the start's parameters (validation
 * plays the start beside the finalists). Null before validation.
 */
export function frontOfValidated(store: Store, runId: number, problem: FrontProblem): ValidatedFront | null {
  const { config, space } = problem;
  const validated = store.validatedCandidates(runId);
  if (validated.length === 0) return null;
  const start = findStart(validated, problem)?.id ?? null;
  return frontOf(config.fitness, validated.map((c) => ({ candidate: c, games: store.getGames(c.id, 'validation') })), start, space);
}

/** The validated front of candidates with their held-out games (validatedFront reads them; the tuner has them). */
export function frontOf(fitness: RunConfig['fitness'], validated: readonly { candidate: Candidate; games: readonly Game[] }[], startCandidate: number | null, space: Pick<BoundedSpace, 'playedParams'>): ValidatedFront {
  const scored = validated.flatMap(({ candidate: c, games }) => {
    const cost = costPerMove(games);
    return cost === null || games.length === 0 ? [] : [{ c, games, cost, value: objectiveValue(fitness, games) }];
  });
  const first = new Set(nonDominatedSort(scored.map((s) => [s.value, -s.cost]))[0] ?? []);
  // Weight sets that played the very same held-out games (a setting the search never reached, as a cutoff at
  // depth 1) are one point: the start stands for them, else the earliest.
  const seen = new Set<string>();
  const onFront = scored
    .filter((_, i) => first.has(i))
    .sort((a, b) => a.cost - b.cost || a.value - b.value || Number(b.c.id === startCandidate) - Number(a.c.id === startCandidate) || a.c.id - b.c.id)
    .filter((s) => {
      const key = `${s.value}|${s.cost}`;
      return !seen.has(key) && seen.add(key);
    });
  const points = onFront.map((s, i): FrontPoint => {
    const halfWidth = fitnessHalfWidth95(fitness, s.games);
    const cheaper = i > 0 ? onFront[i - 1] : null;
    const cheaperHalf = cheaper ? fitnessHalfWidth95(fitness, cheaper.games) : null;
    const summary = summarizeGames(s.games);
    const withinNoise = cheaper !== null && halfWidth !== null && cheaperHalf !== null && s.value - cheaper.value <= Math.hypot(halfWidth, cheaperHalf);
    return {
      point: i + 1,
      candidate: s.c.id,
      generation: s.c.generation,
      params: space.playedParams(s.c.genome),
      start: s.c.id === startCandidate,
      validation: s.value,
      halfWidth,
      meanScore: summary.meanScore,
      games: s.games.length,
      costPerMove: s.cost,
      msPerMove: Number.isNaN(summary.msPerMove) ? null : summary.msPerMove,
      withinNoiseOfCheaper: withinNoise,
    };
  });
  return { points, dominated: scored.length - first.size, maxCost: fitness.maxCost ?? null };
}

/**
 * When the strongest point within a budget uses under a quarter of it and the front's next point costs more
 * than the budget allows, the front has a gap there: a player in it would likely be stronger. Says so (which
 * point, what it uses, what the next one needs), or null.
 */
export function budgetGap(front: readonly FrontPoint[], chosen: FrontPoint, budget: { maxCost?: number; maxMsPerMove?: number }): string | null {
  const next = front.find((p) => p.costPerMove > chosen.costPerMove && p.validation > chosen.validation);
  if (!next) return null;
  const byMs = budget.maxMsPerMove !== undefined;
  const used = byMs ? chosen.msPerMove : chosen.costPerMove;
  const limit = byMs ? budget.maxMsPerMove! : budget.maxCost!;
  if (used === null || used >= limit / 4) return null;
  const unit = byMs ? 'ms a move' : 'nodes a move';
  const figure = (x: number | null) => (x === null ? 'unknown' : byMs ? x.toPrecision(2) : Math.round(x).toLocaleString('en-US'));
  return `the strongest point within ${limit} ${unit} is point ${chosen.point} at ${figure(used)} ${unit} (${Math.round((100 * used) / limit)} % of the budget); the next, point ${next.point}, needs ${figure(byMs ? next.msPerMove : next.costPerMove)}: the front has nothing between them, and a player there would likely be stronger (fill the gap: docs/tuning.md, "A gap in the front")`;
}

/** The strongest point of a front within a budget (cost per move, or ms per move), or null when every point costs more. */
export function strongestWithin(front: readonly FrontPoint[], budget: { maxCost?: number; maxMsPerMove?: number }): FrontPoint | null {
  const within = front.filter((p) => (budget.maxCost === undefined || p.costPerMove <= budget.maxCost) && (budget.maxMsPerMove === undefined || (p.msPerMove !== null && p.msPerMove <= budget.maxMsPerMove)));
  return within.reduce<FrontPoint | null>((best, p) => (best === null || p.validation > best.validation ? p : best), null);
}
