/**
 * A run's problem: the validated config, the resolved start weights, the parameter space and the
 * optimizer. A run stores its config and start weights (the start preset may change later; the run must
 * not); everything else is rebuilt from them, here and only here.
 */
import { loadWeights, parseWeights, type Weights } from '../heuristic/weights';
import type { Run, Store } from '../store/store';
import { configHash, parseConfig, type RunConfig } from './config';
import type { Optimizer } from './optimizer';
import { createOptimizer } from './optimizers';
import { ParameterSpace } from './space';

/** What a run stores as its config: the validated config and the resolved start weights. */
export interface StoredConfig {
  config: RunConfig;
  startWeights: Weights;
}

export interface RunProblem extends StoredConfig {
  run: Run;
  space: ParameterSpace;
  optimizer: Optimizer;
}

/** Resolves the start weights and checks the space against them: everything a run needs, before any file is touched. */
export function prepareRun(config: RunConfig): StoredConfig {
  const startWeights = loadWeights(config.space.start);
  new ParameterSpace(startWeights, config.space.params, config.space.matrix, config.space.stages); // validates the space against the start point
  return { config, startWeights };
}

export function createRun(store: Store, config: RunConfig, name?: string): number {
  const stored = prepareRun(config);
  return store.createRun({ name: name ?? config.name ?? 'run', storedConfig: stored, configHash: configHash(config), seed: config.seed });
}

/** A run's stored config, checked as a config file is (a hand-edited or damaged one gets one line naming the field). */
export function decodeStoredConfig(stored: unknown): StoredConfig {
  const raw = (stored ?? {}) as Partial<StoredConfig>;
  return { config: parseConfig(raw.config, 'stored config'), startWeights: parseWeights(raw.startWeights, 'stored start weights') };
}

/** The problem of a run in the store (an InputError names a missing run). */
export function loadRunProblem(store: Store, runId: number): RunProblem {
  const run = store.requireRun(runId);
  const { config, startWeights } = decodeStoredConfig(run.storedConfig);
  return { run, config, startWeights, space: new ParameterSpace(startWeights, config.space.params, config.space.matrix, config.space.stages), optimizer: createOptimizer(config) };
}
