/**
 * What scripts/finalists-apart.ts and scripts/model-curve.ts read of a model run: its finished generations'
 * candidates as the optimizer saw them, the last generation's state, and each genome's parameters by name.
 * Nothing is played; the database is opened read-only.
 */
import { Store } from '../src/store/store';
import type { Evaluated } from '../src/tuner/optimizers/optimizer';
import { loadRunProblem, type RunProblem } from '../src/tuner/run/run-problem';
import { evaluatedOf, generationState } from '../src/tuner/run/tuner';
import { figure } from '../src/util/figure';

export interface StoredModelRun {
  problem: RunProblem;
  history: Evaluated[];
  lastState: unknown;
  /** A genome's parameters as the run stored them, in words ("depth 3, cprob 0.0188, …"). */
  describe(genome: readonly number[]): string;
}

/** Runs `use` over a model run of the database at `path`; an error (not a model run, nothing finished) is one line on stderr, exit 1. */
export function withModelRun(path: string, runId: number, use: (run: StoredModelRun) => void): void {
  const store = Store.open(path, { readonly: true });
  try {
    const problem = loadRunProblem(store, runId);
    const { config } = problem;
    if (config.optimizer.kind !== 'model') throw new Error(`run ${runId} in ${path} is not a model run (optimizer ${config.optimizer.kind}): its finalists are its last generation's best`);
    const generations = store.listGenerations(runId).filter((g) => g.status === 'done');
    if (generations.length === 0) throw new Error(`run ${runId} in ${path} has no finished generation`);
    const history = generations.flatMap((g) => evaluatedOf(config, generationState(store, runId, g)));
    const paramsOf = new Map(history.map((c) => [JSON.stringify(c.genome), store.getCandidate(c.id)!.params]));
    const describe = (genome: readonly number[]) =>
      Object.entries(paramsOf.get(JSON.stringify(genome)) ?? {})
        .map(([k, v]) => `${k} ${figure(v)}`)
        .join(', ');
    use({ problem, history, lastState: generations[generations.length - 1].state, describe });
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  } finally {
    store.close();
  }
}
