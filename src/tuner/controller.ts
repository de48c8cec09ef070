/**
 * The tuning loop, written to be idempotent (Optuna's study/storage split):
 * every step reads what the store already holds and does only what is
 * missing, so "resume" is just running the loop again.
 *
 *   for each generation g:
 *     insert g's candidates if absent (proposed by the optimizer from g − 1)
 *     play the games of g not yet stored (candidates × g's seeds), one
 *       transaction per finished batch
 *     compute fitness, close the generation
 *   validate the best few of the last generation on held-out seeds; the
 *   winner is the run's best.
 *
 * Determinism: candidates come from seeded streams and stored fitness; a game
 * depends only on (weights, search settings, seed); fitness is computed from
 * stored games in seed order. So the worker count, the game runner (local
 * processes or a Redis queue) and interruptions change nothing but timing.
 */
import { mean, stdev } from '../util/stats';
import type { Weights } from '../heuristic/weights';
import { parseWeights, loadWeights } from '../heuristic/weights';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { RunnerStoppedError } from '../util/errors';
import { openRunner, type GameRunner } from '../runner/runner';
import { CandidateRow, GamePurpose, Store } from '../store/store';
import { RunLostError } from '../util/errors';
import { configHash, parseConfig, RunConfig } from './config';
import { fitnessHalfWidth95, fitnessPlayer, gameObjective, objectiveValue, toScored } from './fitness';
import { createOptimizer } from './optimizers';
import type { Evaluated, Optimizer } from './optimizer';
import { generationSeeds, stream, validationSeeds } from './seeds';
import { raceCost, raceSlices, selectSurvivors } from './successive-halving';
import { ParameterSpace } from './space';
import type { PlayerSpec } from '../player/spec';

/** What a run stores as its config: the validated config and the resolved start weights. */
export interface StoredConfig {
  config: RunConfig;
  startWeights: Weights;
}

/** Resolves the start weights and checks the space against them: everything a run needs, before any file is touched. */
export function prepareRun(config: RunConfig): StoredConfig {
  const startWeights = loadWeights(config.space.start);
  new ParameterSpace(startWeights, config.space.params, config.space.matrix); // validates the space against the start point
  return { config, startWeights };
}

export function createRun(store: Store, config: RunConfig, name?: string): number {
  const stored = prepareRun(config);
  return store.createRun({ name: name ?? config.name ?? 'run', config: JSON.stringify(stored), configHash: configHash(config), seed: config.seed });
}

export function readStoredConfig(json: string): StoredConfig {
  const raw = JSON.parse(json) as StoredConfig;
  return { config: parseConfig(raw.config, 'stored config'), startWeights: parseWeights(raw.startWeights, 'stored start weights') };
}

export type TuneEvent =
  | { event: 'run-started'; run: number; name: string; resumed: boolean; workers: number; generations: number }
  | {
      event: 'generation-finished';
      run: number;
      generation: number;
      best: number;
      /** Half-width of the 95% interval of the best's fitness (null: it inherited its fitness, or played one game). */
      bestHalfWidth: number | null;
      mean: number;
      stdev: number;
      /** The optimizer's step size (GA mutation σ, CMA-ES σ), in the normalised space. */
      stepSize: number | null;
      games: number;
      seconds: number;
    }
  | { event: 'validation-finished'; run: number; finalists: { candidate: number; fitness: number; validation: number }[] }
  | { event: 'run-finished'; run: number; status: TuneOutcome['status']; best: number | null; validation: number | null; error?: string };

export interface TuneProgress {
  phase: 'fitness' | 'validation';
  generation: number;
  done: number;
  total: number;
  bestSoFar: number | null;
}

export interface TuneOptions {
  /** Local worker processes (without a queue). */
  workers: number;
  /** redis://…: play through this Redis queue (overrides the config's pool.queue). */
  queue?: string;
  onEvent?: (e: TuneEvent) => void;
  onProgress?: (p: TuneProgress) => void;
  /** Overrides for tests: a fixture worker, a short timeout. */
  pool?: { workerPath?: string; callTimeoutMs?: number };
  /** Called once the game runner exists (tests kill workers through it). */
  onRunner?: (runner: GameRunner) => void;
}

/** The Redis queue of a run: the same for every session of the run, distinct for every run of every database. */
export function runQueueName(dbPath: string, runId: number): string {
  const db = createHash('sha1').update(resolve(dbPath)).digest('hex').slice(0, 10);
  return `run-${db}-${runId}`;
}

export interface TuneOutcome {
  /** lost: another process took the run over while this one was paused; this one wrote nothing more. */
  status: 'finished' | 'stopped' | 'failed' | 'lost';
  bestCandidate: number | null;
  error?: string;
}

/** A running tune; `stop()` (Ctrl-C) ends it after committing what finished. */
export class Tuner {
  private stopping = false;
  private runner: GameRunner | null = null;

  constructor(
    private readonly store: Store,
    private readonly runId: number,
    private readonly options: TuneOptions,
  ) {}

  /** Ctrl-C: cancel queued batches; batches already running finish and are stored. */
  stop(): void {
    this.stopping = true;
    this.runner?.drain();
  }

  /** Stop now (a closed pipe): running batches are killed and lost, finished ones are stored. */
  abort(): void {
    this.stopping = true;
    this.runner?.terminate();
  }

  /** Leave at once (a second Ctrl-C): the run is given up as stopped, if this process still holds it; the caller exits. */
  abandon(): void {
    this.abort();
    this.store.releaseRun(this.runId, 'stopped', 'interrupted');
  }

  /** Batches still running (what a stop is waiting for). */
  inFlight(): number {
    return this.runner?.inFlight() ?? 0;
  }

  async run(resumed: boolean): Promise<TuneOutcome> {
    const { store, runId } = this;
    const run = store.requireRun(runId);
    const { config, startWeights } = readStoredConfig(run.config);
    store.acquireRun(runId);
    let lost: RunLostError | null = null;
    const heartbeat = setInterval(() => {
      try {
        store.heartbeat(runId);
      } catch (e) {
        if (!(e instanceof RunLostError)) throw e;
        lost = e; // resumed after a long pause: another process holds the run now
        this.abort();
      }
    }, 5000);
    heartbeat.unref();
    const emit = (e: TuneEvent) => this.options.onEvent?.(e);
    emit({ event: 'run-started', run: runId, name: run.name, resumed, workers: this.options.workers, generations: config.optimizer.generations });
    try {
      const best = await this.loop(config, startWeights);
      store.releaseRun(runId, 'finished');
      const row = store.getCandidate(best);
      emit({ event: 'run-finished', run: runId, status: 'finished', best, validation: row?.validation ?? null });
      return { status: 'finished', bestCandidate: best };
    } catch (e) {
      const runLost = lost ?? (e instanceof RunLostError ? e : null);
      if (runLost) {
        this.abort();
        emit({ event: 'run-finished', run: runId, status: 'lost', best: null, validation: null, error: runLost.message });
        return { status: 'lost', bestCandidate: null, error: runLost.message };
      }
      if (this.stopping && (e instanceof RunnerStoppedError || e instanceof StopRequested)) {
        store.releaseRun(runId, 'stopped', 'interrupted');
        emit({ event: 'run-finished', run: runId, status: 'stopped', best: null, validation: null });
        return { status: 'stopped', bestCandidate: null };
      }
      const message = e instanceof Error ? e.message : String(e);
      store.releaseRun(runId, 'failed', message);
      emit({ event: 'run-finished', run: runId, status: 'failed', best: null, validation: null, error: message });
      return { status: 'failed', bestCandidate: null, error: message };
    } finally {
      clearInterval(heartbeat);
      const runner = this.runner;
      this.runner = null;
      await runner?.end();
    }
  }

  /** The game runner, opened at the first batch: local processes, or the Redis queue of this run. */
  private async getRunner(config: RunConfig): Promise<GameRunner> {
    if (!this.runner) {
      this.runner = await openRunner({
        workers: this.options.workers,
        queue: this.options.queue ?? config.pool.queue,
        queueName: runQueueName(this.store.path, this.runId),
        callTimeoutMs: this.options.pool?.callTimeoutMs ?? config.pool.batchTimeoutSec * 1000,
        retries: config.pool.retries,
        workerPath: this.options.pool?.workerPath,
      });
      this.options.onRunner?.(this.runner);
      if (this.stopping) this.runner.drain(); // stopped while connecting
    }
    return this.runner;
  }

  private async loop(config: RunConfig, startWeights: Weights): Promise<number> {
    const { store, runId } = this;
    const space = new ParameterSpace(startWeights, config.space.params, config.space.matrix);
    const optimizer: Optimizer = createOptimizer(config);
    let bestSoFar: number | null = null;
    let last = -1;
    for (let g = 0; g < config.optimizer.generations; g++) {
      this.checkStop();
      if (!store.getGeneration(runId, g)) {
        const rng = stream(config.seed, 'optimizer', g);
        const proposal =
          g === 0 ? optimizer.initial(space.startGenome(), rng) : optimizer.next(this.evaluated(config, g - 1), JSON.parse(store.getGeneration(runId, g - 1)!.state), rng);
        // A budget is a ceiling: a generation that would pass it is not played (generation 0 always is).
        const budget = config.fitness.budget;
        if (budget !== undefined && g > 0) {
          const spent = store.listGenerations(runId).reduce((s, x) => s + x.games, 0);
          const playing = config.reevaluateElites ? proposal.candidates.length : proposal.candidates.filter((c) => c.origin !== 'elite').length;
          if (spent + raceCost(playing, optimizer.summary(proposal.state).games ?? config.fitness.games, config.fitness.racing) > budget) break;
        }
        store.insertGeneration(
          runId,
          g,
          proposal.state,
          proposal.candidates.map((c) => ({ ...c, params: space.params(c.genome) })),
        );
      }
      last = g;
      const gen = store.getGeneration(runId, g)!;
      const candidates = store.getCandidates(runId, g);
      if (gen.status === 'done') {
        bestSoFar = Math.max(bestSoFar ?? -Infinity, gen.best_fitness ?? -Infinity);
        continue;
      }
      const inherited = new Map<number, number>(); // elites that keep their parent's fitness
      if (!config.reevaluateElites) {
        for (const c of candidates) {
          const parent = c.origin === 'elite' ? store.getCandidate(JSON.parse(c.parents)[0]) : undefined;
          if (parent?.fitness != null) inherited.set(c.id, parent.fitness);
        }
      }
      const summary = optimizer.summary(JSON.parse(gen.state));
      const seeds = generationSeeds(config.seed, g, summary.games ?? config.fitness.games);
      const toPlay = candidates.filter((c) => !inherited.has(c.id));
      await this.playGeneration(config, space, toPlay, seeds, { phase: 'fitness', generation: g, bestSoFar });
      const fitness = candidates.map((c) => ({
        id: c.id,
        fitness: inherited.get(c.id) ?? objectiveValue(config.fitness, store.getGames(c.id, 'fitness').map(toScored)),
      }));
      const values = fitness.map((f) => f.fitness);
      const played = toPlay.reduce((n, c) => n + store.getGames(c.id, 'fitness').length, 0);
      const stats = { best: Math.max(...values), mean: mean(values), stdev: stdev(values), games: played };
      const best = candidates[values.indexOf(stats.best)];
      const bestHalfWidth = inherited.has(best.id) ? null : fitnessHalfWidth95(config.fitness, store.getGames(best.id, 'fitness').map(toScored));
      store.finishGeneration(runId, g, fitness, stats);
      bestSoFar = Math.max(bestSoFar ?? -Infinity, stats.best);
      const done = store.getGeneration(runId, g)!;
      this.options.onEvent?.({
        event: 'generation-finished',
        run: runId,
        generation: g,
        ...stats,
        bestHalfWidth,
        stepSize: summary.stepSize,
        seconds: ((done.finished_at ?? 0) - done.started_at) / 1000,
      });
    }
    return this.validate(config, space, last, bestSoFar);
  }

  /**
   * A generation's fitness games: all of them, or with racing slice by slice, only the survivors of
   * each slice playing the next (the ranking reads stored games only, so resuming races the same way).
   */
  private async playGeneration(
    config: RunConfig,
    space: ParameterSpace,
    candidates: readonly CandidateRow[],
    seeds: readonly number[],
    progress: Omit<TuneProgress, 'done' | 'total'>,
  ): Promise<void> {
    const racing = config.fitness.racing;
    if (!racing) return this.playMissing(config, space, candidates, 'fitness', seeds, progress);
    const slices = raceSlices(seeds, racing.rounds);
    const total = raceCost(candidates.length, seeds.length, racing);
    let alive = [...candidates];
    let before = 0; // games of the earlier slices, for the progress bar
    for (let r = 0; r < slices.length; r++) {
      const upTo = new Set(slices.slice(0, r + 1).flat());
      await this.playMissing(config, space, alive, 'fitness', slices[r], progress, { before, total });
      before += alive.length * slices[r].length;
      if (r === slices.length - 1) break;
      const value = (c: CandidateRow) => objectiveValue(config.fitness, this.store.getGames(c.id, 'fitness').filter((x) => upTo.has(x.seed)).map(toScored));
      alive = selectSurvivors(alive, value, racing.keep);
    }
  }

  /**
   * The best few distinct weight sets of the last generation by fitness, plus any distribution mean (CMA-ES's recommendation),
   * re-played on held-out seeds; the winner is the run's best.
   */
  private async validate(config: RunConfig, space: ParameterSpace, lastGeneration: number, bestSoFar: number | null): Promise<number> {
    const { store, runId } = this;
    const last = store.getCandidates(runId, lastGeneration);
    const ranked = [...last].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity));
    // Distinct weight sets only: a copy of a finalist would validate to the same number.
    const seen = new Set<string>();
    const distinct = ranked.filter((c) => !seen.has(c.params) && seen.add(c.params));
    const finalists = distinct.filter((c, i) => i < config.validation.finalists || c.origin === 'mean');
    const seeds = validationSeeds(config.seed, config.validation.games);
    await this.playMissing(config, space, finalists, 'validation', seeds, { phase: 'validation', generation: lastGeneration + 1, bestSoFar });
    const scored = finalists.map((c) => {
      const validation = objectiveValue(config.fitness, store.getGames(c.id, 'validation').map(toScored));
      store.setValidation(c.id, validation);
      return { candidate: c.id, fitness: c.fitness ?? NaN, validation };
    });
    this.options.onEvent?.({ event: 'validation-finished', run: runId, finalists: scored });
    const winner = scored.reduce((a, b) => (b.validation > a.validation ? b : a));
    store.setBestCandidate(runId, winner.candidate);
    return winner.candidate;
  }

  private evaluated(config: RunConfig, generation: number): Evaluated[] {
    return this.store.getCandidates(this.runId, generation).map((c) => ({
      id: c.id,
      genome: JSON.parse(c.genome) as number[],
      origin: c.origin,
      fitness: c.fitness ?? NaN,
      scores: this.store.getGames(c.id, 'fitness').map((g) => gameObjective(config.fitness, toScored(g))),
    }));
  }

  /** Plays every (candidate, seed) game not yet stored. */
  private async playMissing(
    config: RunConfig,
    space: ParameterSpace,
    candidates: readonly CandidateRow[],
    purpose: GamePurpose,
    seeds: readonly number[],
    progress: Omit<TuneProgress, 'done' | 'total'>,
    /** With racing: games of earlier slices and of the whole generation, so progress covers the generation. */
    span?: { before: number; total: number },
  ): Promise<void> {
    const tasks: { candidate: number; spec: PlayerSpec; seeds: number[] }[] = [];
    // A candidate with the same player as an earlier one (a GA offspring that no gene mutated, an elite's
    // copy) would play the very same games on the same seeds: it gets copies of that one's games instead.
    const playedBy = new Map<string, number>();
    const clones: { candidate: number; of: number; seeds: Set<number> }[] = [];
    let done = span?.before ?? 0;
    for (const c of candidates) {
      const stored = new Set(this.store.getGames(c.id, purpose).map((g) => g.seed));
      done += seeds.filter((s) => stored.has(s)).length;
      const missing = seeds.filter((s) => !stored.has(s));
      const spec = fitnessPlayer(config.fitness, space.toWeights(JSON.parse(c.genome)));
      const key = JSON.stringify(spec);
      const of = playedBy.get(key);
      if (of !== undefined) {
        if (missing.length > 0) clones.push({ candidate: c.id, of, seeds: new Set(missing) });
        continue;
      }
      playedBy.set(key, c.id);
      for (let i = 0; i < missing.length; i += config.pool.batchGames) {
        tasks.push({ candidate: c.id, spec, seeds: missing.slice(i, i + config.pool.batchGames) });
      }
    }
    const total = span?.total ?? candidates.length * seeds.length;
    this.options.onProgress?.({ ...progress, done, total });
    if (tasks.length > 0) {
      await this.playTasks(config, purpose, tasks, (n) => {
        done += n;
        this.options.onProgress?.({ ...progress, done, total });
      });
    }
    for (const clone of clones) {
      const games = this.store.getGames(clone.of, purpose).filter((g) => clone.seeds.has(g.seed));
      this.store.insertGames(games.map((g) => ({ ...g, candidate_id: clone.candidate })));
      done += games.length;
      this.options.onProgress?.({ ...progress, done, total });
    }
  }

  /** Plays the batches over the runner; each finished batch is one transaction. */
  private async playTasks(
    config: RunConfig,
    purpose: GamePurpose,
    tasks: readonly { candidate: number; spec: PlayerSpec; seeds: number[] }[],
    onStored: (games: number) => void,
  ): Promise<void> {
    const runner = await this.getRunner(config);
    this.checkStop();
    const results = tasks.map(({ candidate, spec, seeds: batch }) =>
      runner.playBatch(spec, batch).then((games) => {
        this.store.insertGames(games.map((g) => ({ candidate_id: candidate, purpose, seed: g.seed, score: g.score, max_tile: g.maxTile, moves: g.moves, ms: g.ms })));
        onStored(games.length);
      }),
    );
    // Wait for all; on the first failure cancel what has not started (what runs finishes and is stored).
    const settled = await Promise.allSettled(
      results.map((p) =>
        p.catch((e) => {
          this.runner?.drain();
          throw e;
        }),
      ),
    );
    const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as Error);
    if (failures.length > 0) {
      throw failures.find((f) => !(f instanceof RunnerStoppedError)) ?? failures[0];
    }
  }

  private checkStop(): void {
    if (this.stopping) throw new StopRequested();
  }
}

class StopRequested extends Error {
  constructor() {
    super('stop requested');
  }
}

