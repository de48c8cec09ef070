/**
 * What the report, the dashboard (tune2048 serve) and `runs` show of a run, as
 * plain data read from the store: one place that turns rows into figures, so
 * the three never disagree.
 */
import type { Comparison, Sweep } from '../compare/compare';
import type { Weights } from '../heuristic/weights';
import { generationSeconds } from '../store/records';
import type { Candidate, Generation, Store } from '../store/store';
import type { Optimizer, StateSummary } from '../tuner/optimizers/optimizer';
import { runItem, type RunListItem } from './run-list';
import { describeStartVerdict, runStartVerdict } from '../tuner/selection/verdict';
import { loadRunProblem } from '../tuner/run/run-problem';
import { validatedFront, type FrontPoint } from '../tuner/selection/front';
import type { RunConfig } from '../tuner/config/config';
import { fitnessHalfWidth95, gameObjective } from '../tuner/objective/fitness';
import { splitSpread } from '../compare/noise';
import { ExternalSpace } from '../tuner/space/external-space';
import { NetworkSpace } from '../tuner/space/network-space';
import { networkPlayerOf } from '../tuner/config/config';
import type { BoundedSpace, ParameterSpace } from '../tuner/space/space';

export interface GenerationPoint {
  idx: number;
  best: number | null;
  mean: number | null;
  stdev: number | null;
  step: number | null;
  /** A model-based optimizer's account of the generation's point (null for the others). */
  model: StateSummary['model'] | null;
  games: number;
  seconds: number | null;
  /** Games each candidate played (differs with racing), in candidate order. */
  gamesPerCandidate: number[];
  /** The generation's best candidate, each tuned parameter in [0, 1] of its range. */
  bestGenome: number[];
}

export interface RunDetail {
  run: RunListItem;
  settings: {
    optimizer: string;
    /** The player tuned for: a built-in kind, or "external:NAME VERSION" (its depth is then its own). */
    player: string;
    depth: number | 'auto';
    games: number;
    objective: string;
    start: string;
    seed: number;
    configHash: string;
    racing: { rounds: number; keep: number } | null;
    /** The decision screen (fitness.screen): in-sample fitness and the model's predictions are then minus a mean regret. */
    screen: { depth: number; every: number } | null;
    validationGames: number;
  };
  params: { name: string; min: number; max: number; scale: string; best: number | null }[];
  generations: GenerationPoint[];
  /**
   * The run's best: validated once finished, else the best in-sample of the last generation done. Its
   * weights (tune2048's heuristic), or its external player and every parameter's value.
   */
  best: { candidate: number; validated: boolean; weights: Weights | null; player: { name: string; version: string; params: Record<string, number> } | null } | null;
  /** A two-objective run's validated front, cheapest first (null: one objective, or not validated yet). */
  front: FrontPoint[] | null;
  /** Beside a front: the validated fronts of the database's other runs of the same objective (another player's, another space's). */
  otherFronts: { run: number; name: string; player: string; points: FrontPoint[] }[];
  /** The validated candidates, the start among them (origin "start"). */
  /** The validated candidates: in-sample fitness, held-out value (and games: a race stops some early), the model's prediction and the second held-out set's value where there were. */
  finalists: { id: number; generation: number; origin: string; fitness: number | null; validation: number | null; games: number; predicted: { mean: number; sd: number } | null; confirmation: number | null }[];
  /** Whether the run beat its start, in one line (null: the start was not validated, e.g. a run from before this check). */
  startVerdict: string | null;
  comparisons: (Comparison & { id: number })[];
  sweeps: (Sweep & { id: number })[];
}

/** A generation's figures from its record: the same in show, the report and the dashboard. */
export function generationFigures(g: Generation, optimizer: Optimizer) {
  return {
    idx: g.idx,
    best: g.bestFitness,
    mean: g.meanFitness,
    stdev: g.stdevFitness,
    step: optimizer.summary(g.state).stepSize,
    model: optimizer.summary(g.state).model ?? null,
    games: g.games,
    seconds: generationSeconds(g),
  };
}

/** The candidate with the highest fitness (the first of equals), or undefined for none. */
function bestByFitness(cands: readonly Candidate[]): Candidate | undefined {
  return [...cands].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity))[0];
}

/**
 * How noisy a generation's ranking was, from its stored games: the 95% half-width of the best's fitness
 * (from its own games), and the share of the candidates' fitness spread that is real rather than chance
 * (src/compare/noise.ts). Candidates that inherited their fitness have no games here and are left out.
 */
export function generationNoise(store: Store, runId: number, generation: number, fitness: RunConfig['fitness']): { bestHalfWidth: number | null; signalShare: number | null } {
  const cands = store.getCandidates(runId, generation);
  const games = store.generationGames(runId, generation, 'fitness');
  const best = bestByFitness(cands);
  const gamesOf = (id: number) => games.get(id) ?? [];
  const split = splitSpread(cands.map((c) => gamesOf(c.id).map((g) => gameObjective(fitness, g))));
  return { bestHalfWidth: best ? fitnessHalfWidth95(fitness, gamesOf(best.id)) : null, signalShare: split?.signalShare ?? null };
}

function bestOf(config: RunConfig, space: BoundedSpace, genome: readonly number[]): { weights: Weights | null; player: { name: string; version: string; params: Record<string, number> } | null } {
  if (space instanceof ExternalSpace) return { weights: null, player: { name: space.announcement.name, version: space.announcement.version, params: space.toParams(genome) } };
  // A network's settings read as a player's parameters: the network named by its file and hash (a page replays its stored games).
  if (space instanceof NetworkSpace) {
    const s = space.toSettings(genome);
    return { weights: null, player: { name: `network:${networkPlayerOf(config)!.file.split('/').pop()}`, version: space.sha256.slice(0, 12), params: { cprob: s.cprob, ...Object.fromEntries(s.stageWeights.map((w, k) => [`stageWeight.${k}`, w])), ...space.params(genome), ...space.ruleParams(genome) } } };
  }
  return { weights: (space as ParameterSpace).toWeights(genome), player: null };
}

/** The player a run tunes, as the report names it: a built-in kind, "external:NAME VERSION" or "network:FILE". */
function playerName(config: RunConfig, space: BoundedSpace): string {
  return space instanceof ExternalSpace ? `external:${space.announcement.name} ${space.announcement.version}` : space instanceof NetworkSpace ? `network:${networkPlayerOf(config)!.file.split('/').pop()}` : ((config.fitness.player as string | undefined) ?? 'expectimax');
}

/** The other runs of this database with a validated front of the same objective (one chart can hold them all). */
function otherFronts(store: Store, runId: number, config: RunConfig): RunDetail['otherFronts'] {
  return store.listRuns().flatMap((r) => {
    if (r.id === runId || r.bestCandidate === null) return [];
    try {
      const other = loadRunProblem(store, r.id);
      if (other.config.fitness.objective !== config.fitness.objective) return [];
      const points = validatedFront(store, r.id, other)?.points;
      return points?.length ? [{ run: r.id, name: r.name, player: playerName(other.config, other.space), points }] : [];
    } catch {
      return []; // a run this version cannot read says so on its own page, not on this one's chart
    }
  });
}

export function runDetail(store: Store, runId: number): RunDetail {
  const problem = loadRunProblem(store, runId);
  const { config, space, optimizer } = problem;
  const verdict = runStartVerdict(store, problem);
  const run = runItem(store, runId);
  const done = store.listGenerations(runId).filter((g) => g.status === 'done');
  const generations = done.map((g): GenerationPoint => {
    const cands = store.getCandidates(runId, g.idx);
    const games = store.generationGames(runId, g.idx, 'fitness');
    return {
      ...generationFigures(g, optimizer),
      gamesPerCandidate: cands.map((c) => games.get(c.id)?.length ?? 0),
      bestGenome: bestByFitness(cands)!.genome,
    };
  });
  const validatedId = problem.run.bestCandidate;
  const lastBest = done.length ? bestByFitness(store.getCandidates(runId, done[done.length - 1].idx)) : undefined;
  const bestRow = validatedId !== null ? store.getCandidate(validatedId) : lastBest;
  const bestParams = bestRow?.params ?? {};
  const front = validatedFront(store, runId, problem)?.points ?? null;
  const finalists = store.validatedCandidates(runId).map(({ id, generation, origin, fitness, validation, prediction, confirmation }) => ({
    id,
    generation,
    origin: id === verdict?.start.candidate ? 'start' : origin,
    fitness,
    validation,
    games: store.getGames(id, 'validation').length,
    predicted: prediction ? { mean: prediction.mean, sd: prediction.sd } : null,
    confirmation,
  }));
  return {
    run,
    settings: {
      optimizer: config.optimizer.kind,
      player: playerName(config, space),
      depth: config.fitness.depth,
      games: config.fitness.games,
      objective: config.fitness.objective,
      start: config.space.start,
      seed: problem.run.seed,
      configHash: problem.run.configHash,
      racing: config.fitness.racing ?? null,
      screen: config.fitness.screen ? { depth: config.fitness.screen.depth, every: config.fitness.screen.every } : null,
      validationGames: config.validation.games,
    },
    params: space.names.map((name, i) => ({ name, min: space.specs[i].min, max: space.specs[i].max, scale: space.specs[i].scale, best: bestParams[name] ?? null })),
    generations,
    best: bestRow ? { candidate: bestRow.id, validated: bestRow.id === validatedId, ...bestOf(config, space, bestRow.genome) } : null,
    finalists,
    front,
    otherFronts: front ? otherFronts(store, runId, config) : [],
    startVerdict: verdict && describeStartVerdict(verdict),
    // Race checkpoints are the race's own bookkeeping, not shown.
    comparisons: store.listResults(runId, 'comparison').map((c) => ({ id: c.id, ...c.result })),
    sweeps: store.listResults(runId, 'sweep').map((c) => ({ id: c.id, ...c.result })),
  };
}
