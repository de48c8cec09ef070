/**
 * The best of a run, in the form its player reads, with its provenance: weights (the weights schema every
 * built-in player reads) for tune2048's own heuristic, a parameter file (tune2048/player-params) for an
 * external player.
 */
import { oldestVersion, parseWeights, Weights, WEIGHTS_FORMAT } from '../../heuristic/weights';
import { PARAMS_FORMAT, type PlayerParamsFile } from '../../player/external/params-file';
import { networkSettingsFile, stageWeightsThatAct, type NetworkSettings } from '../../player/network-settings';
import { externalPlayerOf, networkPlayerOf } from '../config/config';
import { NetworkSpace } from '../space/network-space';
import { Candidate, Store } from '../../store/store';
import { suggest } from '../../util/command-hint';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../util/canonical-json';
import { buildInfo } from '../../util/build-info';
import { InputError } from '../../util/errors';
import { fitnessPlayer, hasFront } from '../objective/fitness';
import { budgetGap, frontOfValidated, strongestWithin, validatedFront, type FrontPoint } from '../selection/front';
import { hasCostCeiling } from '../objective/cost-ceiling';
import { ExternalSpace } from '../space/external-space';
import { loadRunProblem, searchAt, type RunProblem } from '../run/run-problem';
import { ParameterSpace, searchCprobOf, searchDepthOf } from '../space/space';
import { runStartVerdict, type StartVerdict } from '../selection/verdict';

/** What to export instead of the run's best: a point of its front (or the strongest within a cost), or one validated candidate. */
export interface ExportChoice {
  /** A validated candidate by id (a finalist or the start), e.g. the race's winner where the second set handed back the start. */
  candidate?: number;
  point?: number;
  maxCost?: number;
  maxMsPerMove?: number;
}

/** The run's validated best candidate, or the front point or the validated candidate chosen (an InputError says what to do when there is none). */
function validatedBest(store: Store, runId: number, choice: ExportChoice = {}): { problem: RunProblem; best: Candidate; point: FrontPoint | null; gap: string | null } {
  const problem = loadRunProblem(store, runId);
  const { run } = problem;
  if (run.bestCandidate === null) {
    if (run.status === 'running') {
      throw new InputError(`run ${runId} is still running (held by pid ${run.ownerPid} on ${run.ownerHost}); export it once it has finished`);
    }
    throw new InputError(`run ${runId} has no validated best yet (status ${run.status}); finish it with: ${suggest(`resume ${runId}`, store.path)}`);
  }
  if (choice.candidate !== undefined) return { problem, ...validatedCandidate(store, problem, choice.candidate), gap: null };
  const chosen = choice.point !== undefined || choice.maxCost !== undefined || choice.maxMsPerMove !== undefined;
  if (!hasFront(problem.config)) {
    if (hasCostCeiling(problem.config) && choice.point === undefined && chosen) return { problem, ...withinBudgetChoice(store, problem, choice), gap: null };
    if (chosen) throw new InputError(`run ${runId} tuned one objective, so it has no front to choose a point from (a run with fitness.cost "nodes" and optimizer "nsga2" has one${hasCostCeiling(problem.config) ? '; this one kept within a budget: --max-cost or --max-ms-per-move choose among its validated points' : ''}): export its best without --point, --max-cost or --max-ms-per-move`);
    return { problem, best: store.getCandidate(run.bestCandidate)!, point: null, gap: null };
  }
  const front = validatedFront(store, problem.run.id, problem);
  if (!front || front.points.length === 0) throw new InputError(`run ${runId} has no validated front (it was validated by an older version of tune2048, before fronts were): export its best without --point, --max-cost or --max-ms-per-move`);
  const { points } = front;
  let point: FrontPoint;
  let gap: string | null = null;
  if (choice.point !== undefined) {
    if (choice.point < 1 || choice.point > points.length) throw new InputError(`--point ${choice.point}: run ${runId}'s front has points 1 to ${points.length} (${suggest(`show ${runId}`, store.path)} lists them)`);
    point = points[choice.point - 1];
  } else if (chosen) {
    const within = strongestWithin(points, choice);
    if (!within) {
      const cheapest = points[0];
      const budget = choice.maxCost !== undefined ? `--max-cost ${choice.maxCost}` : `--max-ms-per-move ${choice.maxMsPerMove}`;
      throw new InputError(`${budget}: every point of run ${runId}'s front costs more; the cheapest is point 1, ${cheapest.costPerMove.toFixed(1)} nodes a move, ${cheapest.msPerMove === null ? 'ms unknown' : `${cheapest.msPerMove.toFixed(3)} ms a move`} (measured when it was validated)`);
    }
    point = within;
    gap = budgetGap(points, within, choice);
  } else {
    point = points.reduce((a, b) => (b.validation > a.validation ? b : a));
  }
  return { problem, best: store.getCandidate(point.candidate)!, point, gap };
}

/** One of the run's validated candidates (and its front point, in a run with a front), or an InputError naming them. */
function validatedCandidate(store: Store, problem: RunProblem, id: number): { best: Candidate; point: FrontPoint | null } {
  const { run } = problem;
  const validated = store.validatedCandidates(run.id);
  const candidate = validated.find((c) => c.id === id);
  if (!candidate) throw new InputError(`--candidate ${id}: not a validated candidate of run ${run.id} (those are ${validated.map((c) => c.id).sort((a, b) => a - b).join(', ')}: ${suggest(`show ${run.id}`, store.path)} lists them)`);
  if (!hasFront(problem.config)) return { best: candidate, point: null };
  const front = validatedFront(store, problem.run.id, problem);
  return { best: candidate, point: front?.points.find((p) => p.candidate === id) ?? null };
}

/**
 * A run within a budget, exported within another: its best when that keeps within it too (by its held-out
 * games), else the strongest of its validated points that does (the finalists raced beside it and the start).
 */
function withinBudgetChoice(store: Store, problem: RunProblem, choice: ExportChoice): { best: Candidate; point: FrontPoint } {
  const { run, config } = problem;
  const points = frontOfValidated(store, run.id, problem)?.points ?? [];
  const best = points.find((p) => p.candidate === run.bestCandidate);
  const within = best && strongestWithin([best], choice) ? best : strongestWithin(points, choice);
  if (!within) {
    const budget = choice.maxCost !== undefined ? `--max-cost ${choice.maxCost}` : `--max-ms-per-move ${choice.maxMsPerMove}`;
    const cheapest = points[0];
    throw new InputError(`${budget}: every validated point of run ${run.id} costs more; the cheapest searched ${cheapest.costPerMove.toFixed(1)} nodes a move, ${cheapest.msPerMove === null ? 'ms unknown' : `${cheapest.msPerMove.toFixed(3)} ms a move`} on its held-out games (the run kept within fitness.maxCost ${config.fitness.maxCost})`);
  }
  return { best: store.getCandidate(within.candidate)!, point: within };
}

/** Where the best came from: the same record in weights and in parameter files. */
function provenance(store: Store, problem: RunProblem, best: Candidate, point: FrontPoint | null) {
  const { run, config } = problem;
  const validationGames = store.getGames(best.id, 'validation');
  return {
    run: run.id,
    runName: run.name,
    generation: best.generation,
    candidate: best.id,
    origin: best.origin,
    objective: config.fitness.objective,
    fitness: best.fitness,
    // Screened, that fitness is minus the mean regret of its judged decisions (the held-out figures stay scores).
    ...(config.fitness.screen ? { screen: config.fitness.screen } : {}),
    // The seeds it was validated on, in order: `play --seeds` and `compare --seeds` take them (or run:N with the database).
    validation: { games: validationGames.length, objective: best.validation, meanScore: validationGames.reduce((s, g) => s + g.score, 0) / Math.max(1, validationGames.length), seeds: validationGames.map((g) => g.seed) },
    // The second held-out set (validation.confirm), the run's unselected value; and the model's prediction at a finalist.
    ...(best.confirmation !== null ? { confirmation: confirmationOf(store, best) } : {}),
    ...(best.prediction ? { prediction: best.prediction } : {}),
    tuned: best.params,
    // A front's point: its number, and its cost per move (positions searched) and ms per move on the held-out games.
    ...(point ? { front: { point: point.point, costPerMove: point.costPerMove, msPerMove: point.msPerMove } } : {}),
    // Weighed against the start on the same held-out games (null: a run validated before the start was).
    overStart: overStart(runStartVerdict(store, problem)),
    // Chosen by --candidate, not the run's best (overStart above is about that one).
    ...(run.bestCandidate !== best.id && point === null ? { runBest: run.bestCandidate } : {}),
    start: config.space.start,
    seed: run.seed,
    configHash: run.configHash,
    // The tune2048 that exported it (the run's games were played by the builds its version and hashes name, if unchanged since).
    tool: buildInfo(),
    exportedAt: new Date().toISOString(),
  };
}

function confirmationOf(store: Store, best: Candidate) {
  const games = store.getGames(best.id, 'confirmation');
  return { games: games.length, objective: best.confirmation, meanScore: games.reduce((s, g) => s + g.score, 0) / Math.max(1, games.length), seeds: games.map((g) => g.seed) };
}

function overStart(v: StartVerdict | null) {
  return v && { startIsBest: v.best.candidate === v.start.candidate, startValidation: v.start.validation, difference: v.difference, halfWidth95: v.halfWidth, clear: v.clear, games: v.games, ...(v.set ? { set: v.set } : {}) };
}

/**
 * What `export` writes: weights, a parameter file or a network player file, whichever the run's player
 * reads (a network player file names its network by absolute path: `out` makes it relative to where it goes).
 */
export function exportBest(store: Store, runId: number, out?: string, choice: ExportChoice = {}): Weights | PlayerParamsFile | NetworkSettings {
  return exportPoint(store, runId, out, choice).file;
}

/**
 * exportBest's file, and the search settings it plays with when the run tuned them (the depth; the heuristic's
 * cutoff, which a weights file does not carry): empty for a run that tuned neither. `gap`: a budget's choice
 * that uses little of it where the front has nothing dearer within it (budgetGap), for the user to hear.
 */
export function exportPoint(store: Store, runId: number, out?: string, choice: ExportChoice = {}): { file: Weights | PlayerParamsFile | NetworkSettings; search: { depth?: number; cprob?: number }; gap: string | null } {
  const { problem, best, point, gap } = validatedBest(store, runId, choice);
  const depth = searchDepthOf(problem.space, best.genome);
  const cprob = searchCprobOf(problem.space, best.genome);
  return { file: pointFile(store, problem, best, point, out), search: { ...(depth !== undefined ? { depth } : {}), ...(cprob !== undefined ? { cprob } : {}) }, gap };
}

/** The file of a chosen candidate, in the form its player reads. */
function pointFile(store: Store, problem: RunProblem, best: Candidate, point: FrontPoint | null, out: string | undefined): Weights | PlayerParamsFile | NetworkSettings {
  if (problem.space instanceof NetworkSpace) {
    const { config } = problem;
    const settings = problem.space.toSettings(best.genome, true);
    const stageWeights = stageWeightsThatAct(settings.stageWeights);
    return networkSettingsFile(out ?? null, {
      network: { file: networkPlayerOf(config)!.file, sha256: problem.network!.sha256 },
      cprob: settings.cprob,
      // Weights of 1 everywhere are the training's values: left out, as a hand-written file would.
      ...(stageWeights ? { stageWeights } : {}),
      ...(settings.depthRule ? { depthRule: settings.depthRule } : {}),
      ...(settings.downgradeAt ? { downgradeAt: settings.downgradeAt } : {}),
      ...(settings.heuristic ? { heuristic: settings.heuristic } : {}),
      name: pointName(problem, best, point),
      depth: networkDepth(searchDepthOf(problem.space, best.genome) ?? config.fitness.depth),
      provenance: { ...provenance(store, problem, best, point), depth: searchDepthOf(problem.space, best.genome) ?? config.fitness.depth },
    });
  }
  if (problem.space instanceof ExternalSpace) {
    const { announcement } = problem.space;
    const player = externalPlayerOf(problem.config)!;
    const definition = { command: player.command, cwd: player.cwd ?? '.', timeoutSec: player.timeoutSec, ...(player.build ? { build: player.build } : {}) };
    // A run that went on with a changed program (resume --accept-changed) says so where its values travel.
    const changes = problem.external?.changes ? { programChanges: problem.external.changes } : {};
    return { format: PARAMS_FORMAT, player: announcement.name, version: announcement.version, params: problem.space.toParams(best.genome, true), definition, provenance: { ...provenance(store, problem, best, point), ...changes } };
  }
  return bestWeights(store, problem, best, point);
}

/**
 * A run's export is named after it; a point of its front after the point too (two points of one run, two
 * names); and after what it plays, a short hash of its tuned values (two databases' run 1, two names; the
 * same weights, one name).
 */
function pointName({ run, space }: RunProblem, best: Candidate, point: FrontPoint | null): string {
  const played = createHash('sha256').update(canonicalJson(space.playedParams(best.genome))).digest('hex').slice(0, 6);
  return `${run.name}-run${run.id}${point ? `-p${point.point}` : ''}-${played}`;
}

/** The validated depth a network player file carries (an integer depth; "auto" is the command's to give). */
function networkDepth(depth: number | 'auto'): number {
  if (depth === 'auto') throw new InputError('a network run validated at depth "auto" has no depth for its player file');
  return depth;
}

export function exportBestWeights(store: Store, runId: number): Weights {
  const { problem, best, point } = validatedBest(store, runId);
  return bestWeights(store, problem, best, point);
}

/** The best candidate's weights with their provenance. */
function bestWeights(store: Store, problem: RunProblem, best: Candidate, point: FrontPoint | null): Weights {
  const { run, config, space } = problem;
  if (space instanceof NetworkSpace) throw new InputError(`run ${run.id} tuned what sits on a network: it has settings, not weights (${suggest(`export ${run.id}`, store.path)} writes them)`);
  if (!(space instanceof ParameterSpace)) throw new InputError(`run ${run.id} tuned the external player ${(space as ExternalSpace).announcement.name}: it has parameters, not weights (${suggest(`export ${run.id}`, store.path)} writes them)`);
  // The start's values as given (the run's games used them through log and exp: a last-bit difference at most).
  const weights = space.toWeights(best.genome, true);
  const fitness = searchAt(config.fitness, space, best.genome);
  // A run that tuned its search (a front over depth and cutoff) hands the weights over with the search they were
  // validated at, which play, hint and compare then use: what was validated is what plays.
  const tunedSearch = searchDepthOf(space, best.genome) !== undefined || searchCprobOf(space, best.genome) !== undefined;
  const search = tunedSearch && typeof fitness.depth === 'number' ? { search: { depth: fitness.depth, cprob: fitness.cprob } } : {};
  return parseWeights(
    {
      ...weights,
      ...search,
      format: WEIGHTS_FORMAT,
      version: oldestVersion({ ...weights, ...search }),
      name: pointName(problem, best, point),
      description: `Tuned by tune2048 run ${run.id} ("${run.name}") from "${config.space.start}"; objective ${config.fitness.objective} at depth ${fitness.depth}.`,
      source: `tune2048 run ${run.id}`,
      provenance: { ...provenance(store, problem, best, point), search: fitnessPlayer(fitness, weights).search, player: config.fitness.player ?? 'expectimax' },
    },
    'exported weights',
  );
}
