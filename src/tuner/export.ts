/** The best weights of a run, in the solver's weights schema, with their provenance. */
import { parseWeights, Weights, WEIGHTS_FORMAT, WEIGHTS_VERSION } from '../heuristic/weights';
import { Store } from '../store/store';
import { suggest } from '../util/command-hint';
import { InputError } from '../util/errors';
import { readStoredConfig } from './controller';
import { fitnessPlayer } from './fitness';
import { ParameterSpace } from './space';

export function exportBestWeights(store: Store, runId: number): Weights {
  const run = store.requireRun(runId);
  if (run.best_candidate === null) {
    if (run.status === 'running') {
      throw new InputError(`run ${runId} is still running (held by pid ${run.owner_pid} on ${run.owner_host}); export it once it has finished`);
    }
    throw new InputError(`run ${runId} has no validated best yet (status ${run.status}); finish it with: ${suggest(`resume ${runId}`, store.path)}`);
  }
  const { config, startWeights } = readStoredConfig(run.config);
  const best = store.getCandidate(run.best_candidate)!;
  const space = new ParameterSpace(startWeights, config.space.params, config.space.matrix);
  const weights = space.toWeights(JSON.parse(best.genome));
  const validationGames = store.getGames(best.id, 'validation');
  return parseWeights(
    {
      ...weights,
      format: WEIGHTS_FORMAT,
      version: WEIGHTS_VERSION,
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
        tuned: JSON.parse(best.params),
        start: config.space.start,
        seed: run.seed,
        configHash: run.config_hash,
        exportedAt: new Date().toISOString(),
      },
    },
    'exported weights',
  );
}
