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
import { FINALIST_MAX_CORRELATION, lagOf, plannedGenerations, type RunConfig } from '../config/config';
import { fitnessHalfWidth95, gameObjective, hasFront, objectiveValue } from '../objective/fitness';
import { frontObjectives, frontOf } from '../selection/front';
import { playMissing, type BatchContext, type GamesByCandidate } from './game-batches';
import type { Evaluated, StateSummary } from '../optimizers/optimizer';
import { loadRunProblem, type RunProblem } from './run-problem';
import { RunLease } from './run-lease';
import { generationSeeds, stream } from './seeds';
import { byRoundThenValue, generationRound, race, raceCost } from '../selection/racing';
import { bestFinalist, decideFirstSet, decideSecondSet, ownPoint, weighStart, type StartVerdict, type ValidatedPoint } from '../selection/verdict';
import { validationSet, type FinalistResult } from '../selection/validation';
import { keepsCeiling } from '../objective/cost-ceiling';
import { plannedValidationGames } from '../selection/validation-plan';

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
      /**
       * How much longer the games of the generation's best quarter took than all of its games (ms a game): the
       * population moves toward its best and validation plays the best, so later games are likely that long.
       * Null where no game was played or timed.
       */
      lengthening: number | null;
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
  /** Called once this process holds the run, before anything is played (a change recorded only by the run's holder). */
  onAcquired?: () => void;
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
  private opening: Promise<GameRunner> | null = null;
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
    let problem = loadRunProblem(store, runId);
    lease.acquire();
    // What a session records only once it holds the run (resume --accept-changed's change of program), then read anew.
    if (this.options.onAcquired) {
      this.options.onAcquired();
      problem = loadRunProblem(store, runId);
    }
    const emit = (e: TuneEvent) => this.options.onEvent?.(e);
    emit({ event: 'run-started', run: runId, name: problem.run.name, resumed, workers: this.options.workers, generations: plannedGenerations(problem.config) });
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
      this.opening = null;
      await runner?.end();
    }
  }

  /** The generations, then validation; returns the run's best candidate. */
  private async loop(problem: RunProblem): Promise<number> {
    const { store, runId } = this;
    const { config, optimizer } = problem;
    const lag = lagOf(config);
    if (lag !== undefined) return this.loopLagged(problem, lag);
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
    // The last generation's fitness games, when this process played it (else validation reads them).
    return this.validate(problem, last, bestSoFar, previous?.generation.idx === last ? previous.games : undefined);
  }

  /**
   * Lagged proposals (optimizer.lag = L): no generation barrier. Each point is a generation of one candidate;
   * point k is proposed, and starts playing, as soon as every point before k − L has finished, from the games of
   * those points only (and the genomes of the L points still playing, so none is proposed twice). Up to L + 1
   * points play at once, so L near the number of workers keeps them all busy; what is proposed depends on L and
   * the seed alone, never on how many workers played or how often the run was stopped: the same rows.
   */
  private async loopLagged(problem: RunProblem, lag: number): Promise<number> {
    const { store, runId } = this;
    const { config, optimizer } = problem;
    const points = plannedGenerations(config);
    const playing = new Map<number, Promise<void>>();
    // Set by a playing point's failure (a closure TypeScript does not follow: read through failed()).
    let failure: { error: unknown } | null = null;
    const failed = (): { error: unknown } | null => failure;
    let bestSoFar: number | null = null;
    // One bar for every point's games: the games already stored, and each playing point's as they come.
    const games = config.optimizer.kind === 'model' ? config.optimizer.games : config.fitness.games;
    const total = points * games;
    let stored = store.listGenerations(runId).filter((x) => x.status === 'done').reduce((n, x) => n + x.games, 0);
    const ownDone = new Map<number, number>();
    const report = () => this.options.onProgress?.({ phase: 'fitness', generation: points - 1, done: stored + [...ownDone.values()].reduce((a, b) => a + b, 0), total, bestSoFar });
    const settle = async () => {
      await Promise.allSettled(playing.values());
      const f = failed();
      if (f) throw f.error;
    };
    try {
      for (let k = 0; k < points; k++) {
        this.checkStop();
        // Point k stands on the points before k − lag: wait for those (never for later ones).
        for (const [j, running] of playing) {
          if (j >= k - lag) continue;
          await running;
          playing.delete(j);
        }
        this.checkStop(); // a stop or a lost lease while waiting: propose and write nothing more
        const f = failed();
        if (f) throw f.error;
        let generation = store.getGeneration(runId, k);
        if (!generation) {
          for (let j = 0; j < k - lag; j++) this.history[j] ??= evaluatedOf(config, this.readGeneration(j));
          const history = this.history.slice(0, Math.max(0, k - lag)).flat();
          const pending = Array.from({ length: Math.min(k, lag) }, (_, i) => store.getCandidates(runId, k - 1 - i).map((c) => c.genome)).flat();
          const previousState = k > 0 ? store.getGeneration(runId, k - 1)!.state : null;
          const proposal = optimizer.proposeAt!(k, history, pending, previousState, stream(config.seed, 'optimizer', k), problem.space.startGenome());
          store.insertGeneration(runId, k, proposal.state, proposal.candidates.map((c) => ({ ...c, params: problem.space.params(c.genome) })));
          generation = store.getGeneration(runId, k)!;
        }
        if (generation.status === 'done') {
          bestSoFar = Math.max(bestSoFar ?? -Infinity, generation.bestFitness ?? -Infinity);
          continue;
        }
        const current = this.readGeneration(k, generation);
        ownDone.set(k, 0);
        const point = k;
        playing.set(
          k,
          this.playGeneration(problem, current, null, (played) => {
            ownDone.set(point, played);
            report();
          }).then(
            (best) => {
              bestSoFar = Math.max(bestSoFar ?? -Infinity, best);
              stored += ownDone.get(point) ?? 0;
              ownDone.delete(point);
            },
            (error: unknown) => {
              // The first real failure ends the run once what is running has finished (stored). Its drain stops the
              // other points' queued batches: their "runner stopped" is no cause, and never hides the one that is.
              const stopped = (x: unknown) => x instanceof RunnerStoppedError || x instanceof StopRequestedError;
              if (!failure || (stopped(failure.error) && !stopped(error))) failure = { error };
              this.runner?.drain();
            },
          ),
        );
      }
    } catch (e) {
      // Whatever ended the loop (a stop, a failure, a proposal that threw): stop queuing, let what runs be stored.
      this.runner?.drain();
      await Promise.allSettled(playing.values());
      const f = failed();
      throw f && !(f.error instanceof RunnerStoppedError) ? f.error : e;
    }
    await settle();
    return this.validate(problem, points - 1, bestSoFar);
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
  private async playGeneration(problem: RunProblem, current: GenerationState, bestSoFar: number | null, report?: (played: number) => void): Promise<number> {
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
    await this.playFitness(problem, playing, games, seeds, { phase: 'fitness', generation: g, bestSoFar }, report);
    const gamesOf = (id: number) => games.get(id) ?? [];
    const fitness = candidates.map((c) => ({ id: c.id, fitness: inherited.get(c.id) ?? objectiveValue(config.fitness, gamesOf(c.id)) }));
    const values = fitness.map((f) => f.fitness);
    const played = playing.reduce((n, c) => n + gamesOf(c.id).length, 0);
    // The generation's best: with racing, of those that reached the furthest round (a candidate stopped early keeps a low-selected mean).
    const round = (c: Candidate) => generationRound(gamesOf(c.id).length, seeds.length, config.fitness.racing);
    const order = candidates.map((c, i) => ({ i, round: round(c), value: values[i] })).sort((a, b) => byRoundThenValue(a, b) || a.i - b.i);
    const best = candidates[order[0].i];
    const stats = { best: values[order[0].i], mean: mean(values), stdev: stdev(values), games: played };
    const bestHalfWidth = inherited.has(best.id) ? null : fitnessHalfWidth95(config.fitness, gamesOf(best.id));
    const msPerGame = (cs: readonly Candidate[]) => {
      const timed = cs.flatMap((c) => gamesOf(c.id)).filter((x) => x.ms > 0);
      return timed.length > 0 ? timed.reduce((s, x) => s + x.ms, 0) / timed.length : null;
    };
    const ranked = order.map((o) => candidates[o.i]).filter((c) => !inherited.has(c.id));
    const all = msPerGame(ranked);
    const top = msPerGame(ranked.slice(0, Math.max(1, Math.ceil(ranked.length / 4))));
    // A quarter of fewer than four is one candidate measured against itself (a lagged point): nothing said.
    const lengthening = all !== null && top !== null && ranked.length >= 4 ? top / all : null;
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
      lengthening,
    });
    return Math.max(bestSoFar ?? -Infinity, stats.best);
  }

  /**
   * A generation's fitness games: all of them, or with racing slice by slice, only the survivors of
   * each slice playing the next (selection/racing.ts: the ranking reads stored games only, so resuming races the same way).
   */
  private async playFitness(problem: RunProblem, candidates: readonly Candidate[], games: GamesByCandidate, seeds: readonly number[], progress: Omit<TuneProgress, 'done' | 'total'>, reportOwn?: (played: number) => void): Promise<void> {
    const { config } = problem;
    const total = raceCost(candidates.length, seeds.length, config.fitness.racing);
    let before = 0; // games of the earlier slices, for the progress bar
    // Lagged points play side by side: each reports its own games to the run's one bar (reportOwn) instead.
    const report = (done: number) => (reportOwn ? reportOwn(before + done) : this.options.onProgress?.({ ...progress, done: before + done, total }));
    const value = (c: Candidate, upTo: ReadonlySet<number>) => objectiveValue(config.fitness, (games.get(c.id) ?? []).filter((x) => upTo.has(x.seed)));
    await race(
      candidates,
      seeds,
      config.fitness.racing,
      async (alive, slice) => {
        await this.play(problem, alive, games, 'fitness', slice, report);
        before += alive.length * slice.length;
      },
      value,
    );
  }

  /**
   * The candidates to validate, and the run's start beside them, re-played on held-out seeds; the run's best and
   * its verdict against the start (selection/verdict.ts, one rule for the run and every view). One objective: the
   * best few distinct points of the last generation by fitness, plus any distribution mean (CMA-ES's
   * recommendation), or the model optimizer's finalists (the points it predicts best, stored with its
   * predictions first, so a resume validates the same set). With validation.race the held-out seeds are raced,
   * the start the control that plays every seed. With validation.confirm the first set's choice and its rival
   * (the start, or the best other finalist when the start won) play a second held-out set, where the verdict is
   * read. Within a cost ceiling, a finalist whose held-out games cost more than it is set aside.
   * Two objectives: the run's front (front.ts); the winner is the strongest point of the validated front, and
   * export picks another by its number or a budget.
   */
  private async validate(problem: RunProblem, lastGeneration: number, bestSoFar: number | null, lastFitnessGames?: GamesByCandidate): Promise<number> {
    const { store, runId } = this;
    const { config } = problem;
    if (problem.optimizer.finalists && store.predictedFinalists(runId).length === 0) this.chooseModelFinalists(problem, lastGeneration);
    const set = validationSet(store, problem, lastGeneration, lastFitnessGames);
    const { chosen, start, played, games, seeds, controls } = set;
    const progress = { phase: 'validation' as const, generation: lastGeneration + 1, bestSoFar };
    const total = plannedValidationGames(config.validation, played.length, hasFront(config), controls.length);
    let before = 0;
    const report = (done: number) => this.options.onProgress?.({ ...progress, done: before + done, total });
    // The held-out seeds: all of them for every one, or raced slice by slice (the ranking reads stored games only).
    const heldOutValue = (c: Candidate, upTo?: ReadonlySet<number>) => objectiveValue(config.fitness, (games.get(c.id) ?? []).filter((g) => !upTo || upTo.has(g.seed)));
    await race(
      played,
      seeds,
      set.race,
      async (racing, slice) => {
        await this.play(problem, racing, games, 'validation', slice, report);
        before += racing.length * slice.length;
      },
      heldOutValue,
      controls,
    );
    const scored = played.map((c): FinalistResult => {
      const validation = heldOutValue(c);
      store.setValidation(c.id, validation);
      return { candidate: c.id, fitness: c.fitness ?? NaN, validation, games: (games.get(c.id) ?? []).length, start: c === start, ...(c.prediction ? { prediction: c.prediction } : {}) };
    });
    const pointOf = (c: Candidate, on: GamesByCandidate = games): ValidatedPoint & { candidate: Candidate; origin: string } => {
      const own = on.get(c.id) ?? [];
      return { id: c.id, candidate: c, origin: c.origin, validation: objectiveValue(config.fitness, own), games: own };
    };
    let winner: number;
    let verdict: StartVerdict;
    if (hasFront(config)) {
      const front = frontOf(config.fitness, played.map((c) => ({ candidate: c, games: games.get(c.id) ?? [] })), start.id, problem.space);
      winner = front.points.reduce((a, b) => (b.validation > a.validation ? b : a)).candidate;
      const others = played.filter((c) => c !== start).map((c) => pointOf(c));
      const best = winner === start.id ? null : (others.find((o) => o.id === winner) ?? null);
      verdict = weighStart(config.fitness, pointOf(start), best ?? pointOf(start), best ?? bestFinalist(others));
    } else {
      // Within a cost ceiling, only what kept within it on its held-out games may be chosen, the start too.
      const eligible = (c: Candidate) => keepsCeiling(config, games.get(c.id) ?? []);
      const others = played.filter((c) => c !== start && chosen.includes(c)).map((c) => pointOf(c));
      // A pooled optimizer's own point is what may be chosen over the start (the others show what a pick by luck
      // would give; when its point is the start, nothing else is); otherwise the best finalist by the round of the
      // race it reached, then its held-out mean.
      const own = ownPoint(problem, chosen);
      const { first, rival, contender, overCeiling } = decideFirstSet(config, pointOf(start), others, own ? (own === start ? null : pointOf(own)) : undefined, (p) => eligible(p.candidate));
      winner = first.id;
      verdict = { ...weighStart(config.fitness, pointOf(start), first, rival), ...overCeiling };
      if (set.confirm) {
        // The second set: the choice and its rival (the start, or the best other finalist when the start won), read where no choice was made.
        const confirmSet = set.confirm;
        const confirmers = rival ? [rival.candidate, start] : [start];
        await this.play(problem, confirmers, confirmSet.games, 'confirmation', confirmSet.seeds, report);
        for (const c of confirmers) {
          const v = pointOf(c, confirmSet.games);
          store.setConfirmation(c.id, v.validation);
          scored.find((f) => f.candidate === c.id)!.confirmation = { value: v.validation, games: v.games.length };
        }
        const startSecond = pointOf(start, confirmSet.games);
        const rivalSecond = rival ? pointOf(rival.candidate, confirmSet.games) : null;
        const decided = decideSecondSet(config.fitness, first.id, startSecond, rivalSecond, eligible(start), contender !== null);
        winner = decided.choice;
        verdict = { ...decided.verdict, ...overCeiling };
      }
    }
    store.setBestCandidate(runId, winner);
    this.options.onEvent?.({ event: 'validation-finished', run: runId, finalists: scored, verdict });
    return winner;
  }

  /** The model's finalists: its best predicted points within the run's budget, stored with its predictions (the set is fixed from here on). */
  private chooseModelFinalists(problem: RunProblem, lastGeneration: number): void {
    const { store, runId } = this;
    const { config, optimizer } = problem;
    const history = Array.from({ length: lastGeneration + 1 }, (_, g) => (this.history[g] ??= evaluatedOf(config, this.readGeneration(g)))).flat();
    const lastState = store.getGeneration(runId, lastGeneration)!.state;
    const picked = optimizer.finalists!(history, lastState, config.validation.finalists, config.validation.maxCorrelation ?? FINALIST_MAX_CORRELATION);
    // Each point's latest candidate plays it (a point played by several candidates is one finalist).
    const byPoint = new Map(history.map((c) => [problem.pointKey(c.genome), c.id]));
    const predictions = picked.flatMap((p) => {
      const id = byPoint.get(problem.pointKey(p.genome));
      return id === undefined ? [] : [{ candidateId: id, prediction: p.prediction }];
    });
    if (predictions.length === 0) throw new Error(`run ${runId}: the model named no finalist within the cost ceiling (no point played keeps within fitness.maxCost at fitness.costConfidence by its model of cost)`);
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
    // One opening however many batches ask at once (lagged points start side by side): a second would be left running.
    this.opening ??= this.openRunner(config);
    return this.opening;
  }

  private async openRunner(config: RunConfig): Promise<GameRunner> {
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
  // With racing, the round each reached: a race's survivors always play every seed, so the most games played is the generation's seeds.
  const seeds = Math.max(0, ...state.candidates.map((c) => (state.games.get(c.id) ?? []).length));
  const racing = config.fitness.racing;
  return state.candidates.map((c) => {
    const games = state.games.get(c.id) ?? [];
    return {
      ...(racing ? { round: generationRound(games.length, seeds, racing) } : {}),
      id: c.id,
      genome: c.genome,
      origin: c.origin,
      parents: c.parents,
      fitness: c.fitness ?? NaN,
      scores: games.map((game) => gameObjective(config.fitness, game)),
      // A two-objective run: strength and cost per move, from the same stored games.
      ...(hasFront(config) ? { objectives: frontObjectives(config.fitness, c.id, games) } : {}),
      // A run that counts cost: each game's, for a model of it (the best within a cost ceiling); a game without a count keeps none.
      ...(config.fitness.cost !== undefined ? { costGames: games.map((g) => ({ nodes: g.nodes, moves: g.moves })) } : {}),
    };
  });
}
