/** The best weights of a run, in the weights schema every player reads, with their provenance. */
import { oldestVersion, parseWeights, Weights, WEIGHTS_FORMAT } from '../heuristic/weights';
import { Store } from '../store/store';
import { suggest } from '../util/command-hint';
import { InputError } from '../util/errors';
import { fitnessPlayer } from './fitness';
import { loadRunProblem } from './run-problem';

export function exportBestWeights(store: Store, runId: number): Weights {
  const { run, config, space } = loadRunProblem(store, runId);
  if (run.bestCandidate === null) {
    if (run.status === 'running') {
      throw new InputError(`run ${runId} is still running (held by pid ${run.ownerPid} on ${run.ownerHost}); export it once it has finished`);
    }
    throw new InputError(`run ${runId} has no validated best yet (status ${run.status}); finish it with: ${suggest(`resume ${runId}`, store.path)}`);
  }
  const best = store.getCandidate(run.bestCandidate)!;
  const weights = space.toWeights(best.genome);
  const validationGames = store.getGames(best.id, 'validation');
  return parseWeights(
    {
      ...weights,
      format: WEIGHTS_FORMAT,
      version: oldestVersion(weights),
      name: `${run.name}-run${run.id}`,
      description: `Tuned by tune2048 run ${run.id} ("${run.name}") from "${config.space.start}"; objective ${config.fitness.objective} at depth ${config.fitness.depth}.`,
      source: `tune2048 run ${run.id}`,
      provenance: {
        run: run.id,
        runName: run.name,
        generation: best.generation,
        candidate: best.id,
        origin: best.origin,
        objective: config.fitness.objective,
        fitness: best.fitness,
        validation: { games: validationGames.length, objective: best.validation, meanScore: validationGames.reduce((s, g) => s + g.score, 0) / Math.max(1, validationGames.length) },
        search: fitnessPlayer(config.fitness, weights).search,
        player: config.fitness.player ?? 'expectimax',
        tuned: best.params,
        start: config.space.start,
        seed: run.seed,
        configHash: run.configHash,
        exportedAt: new Date().toISOString(),
      },
    },
    'exported weights',
  );
}
