/**
 * The best of a run, in the form its player reads, with its provenance: weights (the weights schema every
 * built-in player reads) for tune2048's own heuristic, a parameter file (tune2048/player-params) for an
 * external player.
 */
import { oldestVersion, parseWeights, Weights, WEIGHTS_FORMAT } from '../heuristic/weights';
import { PARAMS_FORMAT, type PlayerParamsFile } from '../player/external/params-file';
import { networkSettingsFile, type NetworkSettings } from '../player/network-settings';
import { networkPlayerOf } from './config';
import { NetworkSpace } from './network-space';
import { Candidate, Store } from '../store/store';
import { suggest } from '../util/command-hint';
import { InputError } from '../util/errors';
import { fitnessPlayer } from './fitness';
import { ExternalSpace } from './external-space';
import { loadRunProblem, type RunProblem } from './run-problem';
import { ParameterSpace } from './space';
import { runStartVerdict, type StartVerdict } from './start-verdict';

/** The run's validated best candidate (an InputError says what to do when there is none yet). */
function validatedBest(store: Store, runId: number): { problem: RunProblem; best: Candidate } {
  const problem = loadRunProblem(store, runId);
  const { run } = problem;
  if (run.bestCandidate === null) {
    if (run.status === 'running') {
      throw new InputError(`run ${runId} is still running (held by pid ${run.ownerPid} on ${run.ownerHost}); export it once it has finished`);
    }
    throw new InputError(`run ${runId} has no validated best yet (status ${run.status}); finish it with: ${suggest(`resume ${runId}`, store.path)}`);
  }
  return { problem, best: store.getCandidate(run.bestCandidate)! };
}

/** Where the best came from: the same record in weights and in parameter files. */
function provenance(store: Store, problem: RunProblem, best: Candidate) {
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
    validation: { games: validationGames.length, objective: best.validation, meanScore: validationGames.reduce((s, g) => s + g.score, 0) / Math.max(1, validationGames.length) },
    tuned: best.params,
    // Weighed against the start on the same held-out games (null: a run validated before the start was).
    overStart: overStart(runStartVerdict(store, problem)),
    start: config.space.start,
    seed: run.seed,
    configHash: run.configHash,
    exportedAt: new Date().toISOString(),
  };
}

function overStart(v: StartVerdict | null) {
  return v && { startIsBest: v.best.candidate === v.start.candidate, startValidation: v.start.validation, difference: v.difference, halfWidth95: v.halfWidth, clear: v.clear, games: v.games };
}

/**
 * What `export` writes: weights, a parameter file or a network player file, whichever the run's player
 * reads (a network player file names its network by absolute path: `out` makes it relative to where it goes).
 */
export function exportBest(store: Store, runId: number, out?: string): Weights | PlayerParamsFile | NetworkSettings {
  const { problem, best } = validatedBest(store, runId);
  if (problem.space instanceof NetworkSpace) {
    const { run, config } = problem;
    const settings = problem.space.toSettings(best.genome, true);
    return networkSettingsFile(out ?? null, {
      network: { file: networkPlayerOf(config)!.file, sha256: problem.network!.sha256 },
      cprob: settings.cprob,
      stageWeights: settings.stageWeights,
      ...(settings.depthRule ? { depthRule: settings.depthRule } : {}),
      ...(settings.downgradeAt ? { downgradeAt: settings.downgradeAt } : {}),
      ...(settings.heuristic ? { heuristic: settings.heuristic } : {}),
      name: `${run.name}-run${run.id}`,
      provenance: { ...provenance(store, problem, best), depth: config.fitness.depth },
    });
  }
  if (problem.space instanceof ExternalSpace) {
    const { announcement } = problem.space;
    return { format: PARAMS_FORMAT, player: announcement.name, version: announcement.version, params: problem.space.toParams(best.genome, true), provenance: provenance(store, problem, best) };
  }
  return bestWeights(store, problem, best);
}

export function exportBestWeights(store: Store, runId: number): Weights {
  const { problem, best } = validatedBest(store, runId);
  return bestWeights(store, problem, best);
}

/** The best candidate's weights with their provenance. */
function bestWeights(store: Store, problem: RunProblem, best: Candidate): Weights {
  const { run, config, space } = problem;
  if (space instanceof NetworkSpace) throw new InputError(`run ${run.id} tuned what sits on a network: it has settings, not weights (tune2048 export ${run.id} writes them)`);
  if (!(space instanceof ParameterSpace)) throw new InputError(`run ${run.id} tuned the external player ${(space as ExternalSpace).announcement.name}: it has parameters, not weights (tune2048 export ${run.id} writes them)`);
  // The start's values as given (the run's games used them through log and exp: a last-bit difference at most).
  const weights = space.toWeights(best.genome, true);
  return parseWeights(
    {
      ...weights,
      format: WEIGHTS_FORMAT,
      version: oldestVersion(weights),
      name: `${run.name}-run${run.id}`,
      description: `Tuned by tune2048 run ${run.id} ("${run.name}") from "${config.space.start}"; objective ${config.fitness.objective} at depth ${config.fitness.depth}.`,
      source: `tune2048 run ${run.id}`,
      provenance: { ...provenance(store, problem, best), search: fitnessPlayer(config.fitness, weights).search, player: config.fitness.player ?? 'expectimax' },
    },
    'exported weights',
  );
}
