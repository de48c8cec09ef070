/**
 * The tuning loop, written to be idempotent (Optuna's study/storage split):
 * every step reads what the store already holds and does only what is
 * missing, so "resume" is just running the loop again.
 *
 *   for each generation g:
 *     insert g's candidates if absent (proposed by the optimizer from g − 1)
 *     play the games of g not yet stored (candidates × g's seeds; with racing,
 *       slice by slice, only the survivors playing on)
 *     compute fitness, close the generation
 *   validate the best few of the last generation on held-out seeds; the
 *   winner is the run's best.
 *
 * Each generation's stored games are read once; the games played are added to
 * that in-memory copy as their batches are stored (game-batches.ts).
 *
 * Determinism: candidates come from seeded streams and stored fitness; a game
 * depends only on (weights, search settings, seed); fitness is computed from
 * stored games in seed order. So the worker count, the game runner (local
 * processes or a Redis queue) and interruptions change nothing but timing.
 */
import { openRunner, type GameRunner } from '../../runner/runner';
import { runQueueName } from '../../runner/queue-url';
import { generationSeconds } from '../../store/records';
import type { Candidate, GamePurpose, Generation, Store } from '../../store/store';
import { BatchTimeoutError, RunLostError, RunnerStoppedError, StopRequestedError } from '../../util/errors';
import { mean, stdev } from '../../util/stats';
import { FINALIST_MAX_CORRELATION, type RunConfig } from './config';
import { fitnessHalfWidth95, gameObjective, objectiveValue } from '../objective/fitness';
import { frontObjectives, frontOf, hasFront } from '../selection/front';
import { hasBudget, withinBudget } from '../objective/cost-ceiling';
import { playMissing, type BatchContext, type GamesByCandidate } from './game-batches';
import type { Evaluated, StateSummary } from '../optimizers/optimizer';
import { loadRunProblem, type RunProblem } from './run-problem';
import { RunLease } from './run-lease';
import { generationSeeds, stream } from './seeds';
import { raceCost, raceOver, raceSlices, selectSurvivors } from '../selection/racing';
import { weighStart, type StartVerdict, type ValidatedPoint } from '../selection/verdict';
import { gamesOf, validationSet, type FinalistResult, type ValidationSet } from '../selection/validation';

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
      /** A model-based optimizer's account of this generation's point (StateSummary.model), else null. */
      model: StateSummary['model'] | null;
      games: number;
      seconds: number;
    }
  | { event: 'validation-finished'; run: number; finalists: FinalistResult[]; verdict: StartVerdict }
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
  /** A line about the runner for the user (a queue no worker serves, a batch re-queued). */
  onNotice?: (line: string) => void;
  onEvent?: (e: TuneEvent) => void;
  onProgress?: (p: TuneProgress) => void;
  /** Overrides for tests: a fixture worker, a short timeout. */
  pool?: { workerPath?: string; callTimeoutMs?: number };
  /** Called once the game runner exists (tests kill workers through it). */
  onRunner?: (runner: GameRunner) => void;
  /** Held-out games a candidate's player already played elsewhere (tune --fitness-from), stored instead of played. */
  knownGames?: BatchContext['known'];
}

export interface TuneOutcome {
  /** lost: another process took the run over while this one was paused; this one wrote nothing more. */
  status: 'finished' | 'stopped' | 'failed' | 'lost';
  bestCandidate: number | null;
  error?: string;
  /** failed because a batch ran past this time limit on every try (a longer one would go on). */
  timedOutMs?: number;
}

/** A generation's candidates with their fitness games (read once, kept up to date as games are played). */
export interface GenerationState {
  generation: Generation;
  candidates: Candidate[];
  games: GamesByCandidate;
}

/** A running tune; `stop()` (Ctrl-C) ends it after committing what finished. */
export class Tuner {
  private stopping = false;
  private runner: GameRunner | null = null;
  private lease: RunLease;
  /** A pooled optimizer's history: each done generation's evaluated candidates, by generation. */
  private history: Evaluated[][] = [];

  constructor(
    private readonly store: Store,
    private readonly runId: number,
    private readonly options: TuneOptions,
  ) {
    this.lease = new RunLease(store, runId, () => this.abort());
  }

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
    this.lease.release('stopped', 'interrupted');
  }

  /** Batches still running (what a stop is waiting for). */
  inFlight(): number {
    return this.runner?.inFlight() ?? 0;
  }

  async run(resumed: boolean): Promise<TuneOutcome> {
    const { store, runId, lease } = this;
    const problem = loadRunProblem(store, runId);
    lease.acquire();
    const emit = (e: TuneEvent) => this.options.onEvent?.(e);
    emit({ event: 'run-started', run: runId, name: problem.run.name, resumed, workers: this.options.workers, generations: problem.config.optimizer.generations });
    try {
      const best = await this.loop(problem);
      lease.release('finished');
      emit({ event: 'run-finished', run: runId, status: 'finished', best, validation: store.getCandidate(best)?.validation ?? null });
      return { status: 'finished', bestCandidate: best };
    } catch (e) {
      const runLost = lease.lost ?? (e instanceof RunLostError ? e : null);
      if (runLost) {
        this.abort();
        emit({ event: 'run-finished', run: runId, status: 'lost', best: null, validation: null, error: runLost.message });
        return { status: 'lost', bestCandidate: null, error: runLost.message };
      }
      if (this.stopping && (e instanceof RunnerStoppedError || e instanceof StopRequestedError)) {
        lease.release('stopped', 'interrupted');
        emit({ event: 'run-finished', run: runId, status: 'stopped', best: null, validation: null });
        return { status: 'stopped', bestCandidate: null };
      }
      const message = e instanceof Error ? e.message : String(e);
      lease.release('failed', message);
      emit({ event: 'run-finished', run: runId, status: 'failed', best: null, validation: null, error: message });
      return { status: 'failed', bestCandidate: null, error: message, ...(e instanceof BatchTimeoutError ? { timedOutMs: e.limitMs } : {}) };
    } finally {
      lease.stopHeartbeat();
      const runner = this.runner;
      this.runner = null;
      await runner?.end();
    }
  }

  /** The generations, then validation; returns the run's best candidate. */
  private async loop(problem: RunProblem): Promise<number> {
    const { store, runId } = this;
    const { config, optimizer } = problem;
    let bestSoFar: number | null = null;
    let previous: GenerationState | null = null;
    let last = -1;
    for (let g = 0; g < config.optimizer.generations; g++) {
      this.checkStop();
      let generation = store.getGeneration(runId, g);
      if (!generation) {
        const proposal = g === 0 ? optimizer.initial(problem.space.startGenome(), stream(config.seed, 'optimizer', g)) : this.propose(problem, g, (previous ??= this.readGeneration(g - 1)));
        if (!proposal) break; // the budget is spent
        store.insertGeneration(runId, g, proposal.state, proposal.candidates.map((c) => ({ ...c, params: problem.space.params(c.genome) })));
        generation = store.getGeneration(runId, g)!;
      }
      last = g;
      if (generation.status === 'done') {
        bestSoFar = Math.max(bestSoFar ?? -Infinity, generation.bestFitness ?? -Infinity);
        previous = null; // read again if the next generation needs it
        continue;
      }
      const current = this.readGeneration(g, generation);
      bestSoFar = await this.playGeneration(problem, current, bestSoFar);
      previous = current;
    }
    return this.validate(problem, last, bestSoFar);
  }

  /** A generation with its candidates and their fitness games, in one read of the games. */
  private readGeneration(g: number, generation = this.store.getGeneration(this.runId, g)!): GenerationState {
    return generationState(this.store, this.runId, generation);
  }

  /** Generation g from the optimizer, or null when it would pass the budget (a ceiling: generation 0 always plays). */
  private propose({ config, optimizer }: RunProblem, g: number, previous: GenerationState) {
    const evaluated = evaluatedOf(config, previous);
    let history: Evaluated[] | undefined;
    if (optimizer.pooled) {
      // Earlier generations are read once per process (all of them at the first proposal after a resume).
      for (let k = 0; k < g - 1; k++) this.history[k] ??= evaluatedOf(config, this.readGeneration(k));
      this.history[g - 1] = evaluated;
      history = this.history.slice(0, g).flat();
    }
    const proposal = optimizer.next(evaluated, previous.generation.state, stream(config.seed, 'optimizer', g), history);
    const budget = config.fitness.budget;
    if (budget !== undefined) {
      const spent = this.store.listGenerations(this.runId).reduce((s, x) => s + x.games, 0);
      const playing = config.reevaluateElites ? proposal.candidates.length : proposal.candidates.filter((c) => c.origin !== 'elite').length;
      if (spent + raceCost(playing, optimizer.summary(proposal.state).games ?? config.fitness.games, config.fitness.racing) > budget) return null;
    }
    return proposal;
  }

  /** Plays a generation's fitness games, computes its fitness and closes it; returns the best fitness so far. */
  private async playGeneration(problem: RunProblem, current: GenerationState, bestSoFar: number | null): Promise<number> {
    const { store, runId } = this;
    const { config, optimizer } = problem;
    const { generation, candidates, games } = current;
    const g = generation.idx;
    // Without re-evaluation, elites keep their parent's fitness and play nothing.
    const inherited = new Map<number, number>();
    if (!config.reevaluateElites) {
      for (const c of candidates) {
        const parent = c.origin === 'elite' ? store.getCandidate(c.parents[0]) : undefined;
        if (parent?.fitness != null) inherited.set(c.id, parent.fitness);
      }
    }
    const summary = optimizer.summary(generation.state);
    const seeds = generationSeeds(config.seed, g, summary.games ?? config.fitness.games);
    const playing = candidates.filter((c) => !inherited.has(c.id));
    await this.playFitness(problem, playing, games, seeds, { phase: 'fitness', generation: g, bestSoFar });
    const gamesOf = (id: number) => games.get(id) ?? [];
    const fitness = candidates.map((c) => ({ id: c.id, fitness: inherited.get(c.id) ?? objectiveValue(config.fitness, gamesOf(c.id)) }));
    const values = fitness.map((f) => f.fitness);
    const played = playing.reduce((n, c) => n + gamesOf(c.id).length, 0);
    const stats = { best: Math.max(...values), mean: mean(values), stdev: stdev(values), games: played };
    const best = candidates[values.indexOf(stats.best)];
    const bestHalfWidth = inherited.has(best.id) ? null : fitnessHalfWidth95(config.fitness, gamesOf(best.id));
    store.finishGeneration(runId, g, fitness, stats);
    candidates.forEach((c, i) => (c.fitness = fitness[i].fitness));
    const done = store.getGeneration(runId, g)!;
    this.options.onEvent?.({
      event: 'generation-finished',
      run: runId,
      generation: g,
      ...stats,
      bestHalfWidth,
      stepSize: summary.stepSize,
      model: summary.model ?? null,
      seconds: generationSeconds(done) ?? 0,
    });
    return Math.max(bestSoFar ?? -Infinity, stats.best);
  }

  /**
   * A generation's fitness games: all of them, or with racing slice by slice, only the survivors of
   * each slice playing the next (the ranking reads stored games only, so resuming races the same way).
   */
  private async playFitness(problem: RunProblem, candidates: readonly Candidate[], games: GamesByCandidate, seeds: readonly number[], progress: Omit<TuneProgress, 'done' | 'total'>): Promise<void> {
    const { config } = problem;
    const racing = config.fitness.racing;
    const report = (before: number, total: number) => (done: number) => this.options.onProgress?.({ ...progress, done: before + done, total });
    if (!racing) return this.play(problem, candidates, games, 'fitness', seeds, report(0, candidates.length * seeds.length));
    const slices = raceSlices(seeds, racing.rounds);
    const total = raceCost(candidates.length, seeds.length, racing);
    let alive = [...candidates];
    let before = 0; // games of the earlier slices, for the progress bar
    for (let r = 0; r < slices.length; r++) {
      await this.play(problem, alive, games, 'fitness', slices[r], report(before, total));
      before += alive.length * slices[r].length;
      if (r === slices.length - 1) break;
      const upTo = new Set(slices.slice(0, r + 1).flat());
      const value = (c: Candidate) => objectiveValue(config.fitness, (games.get(c.id) ?? []).filter((x) => upTo.has(x.seed)));
      alive = selectSurvivors(alive, value, racing.keep);
    }
  }

  /**
   * The candidates to validate, and the run's start beside them, re-played on held-out seeds; the winner is the
   * run's best. One objective: the best few distinct weight sets of the last generation by fitness, plus any
   * distribution mean (CMA-ES's recommendation), or the model optimizer's finalists (the points it predicts
   * best, stored with its predictions first, so a resume validates the same set); the winner is a pooled
   * optimizer's point, else the best on held-out seeds, unless the start validates above it (a run never hands
   * back worse than it began). With validation.race the held-out seeds are raced (successive halving); with
   * validation.confirm the winner and the start play a second held-out set, whose value is the run's.
   * Two objectives: the run's front (front.ts); the winner is the strongest point of the validated front, and
   * export picks another by its number or a budget.
   */
  private async validate(problem: RunProblem, lastGeneration: number, bestSoFar: number | null): Promise<number> {
    const { store, runId } = this;
    const { config } = problem;
    if (problem.optimizer.finalists && store.predictedFinalists(runId).length === 0) this.chooseModelFinalists(problem, lastGeneration);
    const set = validationSet(store, problem, lastGeneration);
    const { chosen, start, played, games, seeds } = set;
    const progress = { phase: 'validation' as const, generation: lastGeneration + 1, bestSoFar };
    const confirmGames = set.confirm ? set.confirm.seeds.length * Math.min(2, played.length) : 0;
    const total = raceCost(played.length, seeds.length, set.race ?? undefined) + confirmGames;
    let before = 0;
    const report = (done: number) => this.options.onProgress?.({ ...progress, done: before + done, total });
    // The held-out seeds: all of them for every one, or raced slice by slice (the ranking reads stored games only).
    const heldOutValue = (c: Candidate, upTo?: ReadonlySet<number>) => objectiveValue(config.fitness, (games.get(c.id) ?? []).filter((g) => !upTo || upTo.has(g.seed)));
    const alive = await raceOver(
      played,
      seeds,
      set.race,
      async (racing, slice) => {
        await this.play(problem, racing, games, 'validation', slice, report);
        before += racing.length * slice.length;
      },
      heldOutValue,
    );
    const scored = played.map((c): FinalistResult => {
      const validation = heldOutValue(c);
      store.setValidation(c.id, validation);
      return { candidate: c.id, fitness: c.fitness ?? NaN, validation, games: (games.get(c.id) ?? []).length, start: c === start, ...(c.prediction ? { prediction: c.prediction } : {}) };
    });
    const scoreOf = (c: Candidate) => scored[played.indexOf(c)];
    let winner: number;
    if (hasFront(config)) {
      const front = frontOf(config.fitness, played.map((c) => ({ candidate: c, games: games.get(c.id) ?? [] })), start.id, problem.space);
      winner = front.points.reduce((a, b) => (b.validation > a.validation ? b : a)).candidate;
    } else {
      // A model-based optimizer with one point: its point, validated (the others are played to show what a pick by
      // in-sample luck would have given, never chosen by their own held-out noise). Otherwise the best of those that
      // played every held-out seed (all of them without a race), the start among them.
      const point = problem.optimizer.pooled && !problem.optimizer.finalists ? chosen.find((c) => c.origin === 'mean') : undefined;
      const contenders = point ? [point] : alive.filter((c) => c !== start && chosen.includes(c));
      const fromFinalists = contenders.length > 0 ? contenders.map(scoreOf).reduce((a, b) => (b.validation > a.validation ? b : a)) : scoreOf(start);
      const startScore = scoreOf(start);
      // The start wins if it validates above them, having played every held-out seed (and, with a budget, within it).
      const startEligible = alive.includes(start) && this.startWithinBudget(config, start);
      winner = (startEligible && startScore.validation > fromFinalists.validation ? startScore : fromFinalists).candidate;
    }
    // A second held-out set: the winner and the start (the start stands if it does better there).
    if (set.confirm) {
      const confirmSet = set.confirm;
      const confirmers = winner === start.id ? [start] : [played.find((c) => c.id === winner)!, start];
      await this.play(problem, confirmers, confirmSet.games, 'confirmation', confirmSet.seeds, report);
      const value = new Map(confirmers.map((c) => [c.id, objectiveValue(config.fitness, confirmSet.games.get(c.id) ?? [])]));
      for (const [id, v] of value) {
        store.setConfirmation(id, v);
        scored.find((f) => f.candidate === id)!.confirmation = { value: v, games: (confirmSet.games.get(id) ?? []).length };
      }
      if (winner !== start.id && this.startWithinBudget(config, start) && value.get(start.id)! > value.get(winner)!) winner = start.id;
    }
    store.setBestCandidate(runId, winner);
    const verdict = confirmedVerdict(config, set, winner) ?? weighStart(config.fitness, validatedPoint(start, scoreOf(start).validation, games), winner, played.map((c, i) => validatedPoint(c, scored[i].validation, games)));
    this.options.onEvent?.({ event: 'validation-finished', run: runId, finalists: scored, verdict });
    return winner;
  }

  /** Whether the start may be the run's best: always, but in a run within a budget only when its own games kept within it. */
  private startWithinBudget(config: RunConfig, start: Candidate): boolean {
    return !hasBudget(config) || withinBudget(config.fitness, gamesOf(this.store, this.runId, [start], 'fitness').get(start.id) ?? []);
  }

  /** The model's finalists: its best predicted points within the run's budget, stored with its predictions (the set is fixed from here on). */
  private chooseModelFinalists(problem: RunProblem, lastGeneration: number): void {
    const { store, runId } = this;
    const { config, optimizer } = problem;
    const history = Array.from({ length: lastGeneration + 1 }, (_, g) => (this.history[g] ??= evaluatedOf(config, this.readGeneration(g)))).flat();
    const lastState = store.getGeneration(runId, lastGeneration)!.state;
    const picked = optimizer.finalists!(history, lastState, config.validation.finalists, config.validation.maxCorrelation ?? FINALIST_MAX_CORRELATION);
    // Each point's latest candidate plays it (a point played by several candidates is one finalist).
    const byGenome = new Map(history.map((c) => [JSON.stringify(c.genome), c.id]));
    const predictions = picked.flatMap((p) => {
      const id = byGenome.get(JSON.stringify(p.genome));
      return id === undefined ? [] : [{ candidateId: id, prediction: p.prediction }];
    });
    if (predictions.length === 0) throw new Error(`run ${runId}: the model named no finalist within the run's budget (every point played costs more than fitness.maxCost)`);
    store.setPredictions(predictions);
  }

  private play(problem: RunProblem, candidates: readonly Candidate[], games: GamesByCandidate, purpose: GamePurpose, seeds: readonly number[], onProgress: (done: number) => void): Promise<void> {
    // Fitness games are screened when the run says so (each judged decision's regret kept with the game); held-out games never.
    const screen = purpose === 'fitness' ? problem.config.fitness.screen : undefined;
    const players = candidates.map((c) => {
      const spec = problem.playerOf(c.genome);
      return { id: c.id, spec: screen && spec.kind === 'network' ? { ...spec, screen: { depth: screen.depth, cprob: screen.cprob, every: screen.every } } : spec };
    });
    return playMissing(this.batchContext(problem.config), players, games, purpose, seeds, onProgress);
  }

  private batchContext(config: RunConfig): BatchContext {
    return {
      store: this.store,
      runner: () => this.getRunner(config),
      drain: () => this.runner?.drain(),
      checkStop: () => this.checkStop(),
      batchGames: config.pool.batchGames,
      known: this.options.knownGames,
    };
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
        onNotice: this.options.onNotice,
      });
      this.options.onRunner?.(this.runner);
      if (this.stopping) this.runner.drain(); // stopped while connecting
    }
    return this.runner;
  }

  private checkStop(): void {
    if (this.stopping) throw new StopRequestedError();
  }
}

/** A stored generation with its candidates and their fitness games. */
export function generationState(store: Store, runId: number, generation: Generation): GenerationState {
  return { generation, candidates: store.getCandidates(runId, generation.idx), games: store.generationGames(runId, generation.idx, 'fitness') };
}

/** A generation's candidates with their fitness games' objective values, as optimizers see them. */
export function evaluatedOf(config: RunConfig, state: GenerationState): Evaluated[] {
  return state.candidates.map((c) => {
    const games = state.games.get(c.id) ?? [];
    return {
      id: c.id,
      genome: c.genome,
      origin: c.origin,
      parents: c.parents,
      fitness: c.fitness ?? NaN,
      scores: games.map((game) => gameObjective(config.fitness, game)),
      // A two-objective run: strength and cost per move, from the same stored games.
      ...(hasFront(config) ? { objectives: frontObjectives(config.fitness, c.id, games) } : {}),
      // A run that counts cost: each game's, for a model of it (the best within a budget).
      ...(config.fitness.cost !== undefined ? { costGames: games.map((g) => ({ nodes: g.nodes ?? 0, moves: g.moves })) } : {}),
    };
  });
}

/** A validated candidate as the start's verdict weighs it. */
function validatedPoint(c: Candidate, validation: number, games: GamesByCandidate): ValidatedPoint {
  return { id: c.id, params: c.params, validation, games: games.get(c.id) ?? [] };
}

/** With a second held-out set, the verdict is weighed on it: the winner (or, if the start won, the race's best other) against the start; null without one. */
function confirmedVerdict(config: RunConfig, set: ValidationSet, winner: number): StartVerdict | null {
  if (!set.confirm) return null;
  const confirmed = set.played.filter((c) => (set.confirm!.games.get(c.id) ?? []).length > 0);
  const points = confirmed.map((c) => validatedPoint(c, objectiveValue(config.fitness, set.confirm!.games.get(c.id)!), set.confirm!.games));
  const start = points.find((p) => p.id === set.start.id);
  if (!start) return null;
  return { ...weighStart(config.fitness, start, winner, points), set: 'confirmation' };
}
