/** A tuning run in the foreground: progress, events, and what Ctrl-C, SIGTERM or a closed pipe do to it. */
import { plannedValidationGames, validationControls } from '../tuner/selection/validation-plan';
import { describeModel } from '../tuner/optimizers/optimizer';
import { loadRunProblem } from '../tuner/run/run-problem';
import { hasFront } from '../tuner/objective/fitness';
import { FRONT_POINTS, lagOf, plannedGenerations } from '../tuner/config/config';
import { describeStartVerdict } from '../tuner/selection/verdict';
import { ceilingLines, describeFinalist } from '../tuner/selection/validation';
import { Tuner, type TuneEvent, type TuneOptions, type TuneProgress } from '../tuner/run/tuner';
import type { Store } from '../store/store';
import { freeOutputName, shellWord, suggest } from '../util/command-hint';
import { parseQueueUrl } from '../runner/queue-url';
import { EXIT_BUSY, EXIT_FAILURE, EXIT_INTERRUPTED } from './exit-codes';
import { fmt, formatDuration, generationLabel, halfWidth } from './format';
import { handleInterrupts } from './interrupt';
import { isStdoutClosed } from './process';
import { createProgress, Progress } from './progress';

/** Prints a line of data unless stdout's reader has gone (the run goes on stopping quietly). */
function out(line: string): void {
  if (!isStdoutClosed()) console.log(line);
}

/**
 * The pace of games played in this session (games stored before a stop or a resume count as no time): a
 * segment per phase, from its first progress report. The pace pools the current phase with the one before:
 * a phase's first games say little alone (a front's candidates cost up to a thousand times each other, and
 * whichever finish first set the pace: on a front run's trace the estimate of the whole run jumped 2–3× at
 * each generation's start), while the latest phases are the best guess of the next (a tuner's games grow
 * longer as its weights improve). The phase's ETA and the whole run's use the same pace, so the whole run's
 * is never below the phase's.
 */
export class GamePace {
  private previous: { seconds: number; games: number } | null = null;
  private segment: { key: string; startMs: number; startDone: number; done: number; nowMs: number } | null = null;

  observe(key: string, done: number, nowMs: number): void {
    if (this.segment?.key !== key) {
      const s = this.segment;
      if (s && s.done > s.startDone) this.previous = { seconds: (s.nowMs - s.startMs) / 1000, games: s.done - s.startDone };
      this.segment = { key, startMs: nowMs, startDone: done, done, nowMs };
    } else {
      this.segment.done = done;
      this.segment.nowMs = nowMs;
    }
  }

  /** Seconds per game over this phase and the one before, or null before the first game of this session. */
  secondsPerGame(): number | null {
    const s = this.segment;
    const games = (this.previous?.games ?? 0) + (s ? s.done - s.startDone : 0);
    const seconds = (this.previous?.seconds ?? 0) + (s && s.done > s.startDone ? (s.nowMs - s.startMs) / 1000 : 0);
    return games > 0 ? seconds / games : null;
  }
}

/** What the whole run's ETA is planned from: its generations, validation's games, a budget, and how much longer later games are likely to be. */
export interface EtaPlan {
  generations: number;
  validationGames: number;
  budget?: number;
  /**
   * The last finished generation's lengthening (TuneEvent's): later phases' games are counted this much longer
   * than this phase's pace (a tuner's games grow as its weights improve: on the quick run 4× from generation 1 to
   * 9). Absent before a generation has finished: the estimate is then a floor.
   */
  lengthening?: number;
}

/**
 * Seconds left in the whole run: the rest of this phase, the generations after it at this one's size (no
 * more than a fitness budget leaves, given `spent`, the games of the generations before this one), then
 * validation; later phases at the pace times plan.lengthening.
 */
export function runEtaSec(secondsPerGame: number | null, p: Pick<TuneProgress, 'phase' | 'generation' | 'done' | 'total'>, plan: EtaPlan, spent = 0): number | null {
  if (secondsPerGame === null) return null;
  let laterFitness = Math.max(0, plan.generations - p.generation - 1) * p.total;
  if (plan.budget !== undefined) laterFitness = Math.min(laterFitness, Math.max(0, plan.budget - spent - p.total));
  const later = p.phase === 'fitness' ? laterFitness + plan.validationGames : 0;
  return secondsPerGame * (p.total - p.done + later * Math.max(1, plan.lengthening ?? 1));
}

/** The phase's seconds left and the whole run's, at one pace (so the run's is never below the phase's). */
export function etaSec(secondsPerGame: number | null, p: Pick<TuneProgress, 'phase' | 'generation' | 'done' | 'total'>, plan: EtaPlan, spent = 0): { phase: number | null; run: number | null } {
  return { phase: secondsPerGame === null ? null : secondsPerGame * (p.total - p.done), run: runEtaSec(secondsPerGame, p, plan, spent) };
}

/**
 * `where`: how this session plays, none of which changes a result: local workers or a queue, and a batch
 * time limit in place of the config's pool.batchTimeoutSec.
 */
export async function driveRun(store: Store, runId: number, resumed: boolean, where: { workers: number; queue?: string; batchTimeoutSec?: number; knownGames?: TuneOptions['knownGames']; onAcquired?: TuneOptions['onAcquired'] }, json: boolean): Promise<void> {
  const { config } = loadRunProblem(store, runId);
  // Where this session plays, and the resume hint that plays there again (a --queue given here is not in the config).
  const queue = where.queue ?? config.pool.queue;
  const shown = queue === undefined ? null : parseQueueUrl(queue).display;
  // Said and recorded once this process holds the run (its first batch), never by a process the run refuses.
  const recordWhere = () => {
    const before = store.lastQueue(runId);
    if (resumed && before && before !== shown) {
      process.stderr.write(`tune2048: run ${runId} played on the Redis queue ${before} before; this session plays ${shown ? `on ${shown}` : `on ${where.workers} local worker process(es)`} (results are the same either way; add --queue ${before} to go on there)\n`);
    }
    if (before !== shown) store.setLastQueue(runId, shown);
  };
  const resumeOn = `resume ${runId}${where.queue ? ` --queue ${shellWord(where.queue)}` : ''}`;
  const limitArgs = (sec: number | undefined) => (sec === undefined ? '' : ` --batch-timeout ${sec}`);
  const resumeArgs = resumeOn + limitArgs(where.batchTimeoutSec);
  const generations = plannedGenerations(config);
  // A lagged run's generations are its points, one candidate each, played side by side under one bar.
  const lagged = lagOf(config) !== undefined;
  const labelOf = (g: number) => (lagged ? `point ${g} (${g + 1} of ${generations})` : generationLabel(g, generations));
  const roundOf = config.optimizer.kind === 'model' ? config.optimizer.population + 1 : 1;
  // Validation plays the finalists (or the front's points) and the start, raced and confirmed as the config says.
  const plan: EtaPlan = { generations, validationGames: plannedValidationGames(config.validation, (hasFront(config) ? (config.validation.front ?? FRONT_POINTS) : config.validation.finalists) + 1, hasFront(config), validationControls(config.optimizer.kind)), budget: config.fitness.budget };
  // Fitness games of the generations done, for a budget's share of the ETA.
  let spent = store.listGenerations(runId).filter((g) => g.status === 'done').reduce((s, g) => s + g.games, 0);
  const pace = new GamePace();
  let progress: Progress | null = null;
  let progressKey = '';
  const endProgress = () => {
    progress?.stop();
    progress = null;
    progressKey = '';
  };
  const onEvent = (e: TuneEvent) => {
    if (json) return out(JSON.stringify(e));
    if (e.event === 'generation-finished') {
      spent += e.games;
      if (e.lengthening !== null) plan.lengthening = e.lengthening;
      // A lagged run's points finish under one bar: a line a round of (population + 1) points, and the last, not one a point.
      if (lagged && (e.generation + 1) % roundOf !== 0 && e.generation !== generations - 1) return;
      endProgress();
      out(
        lagged
          ? `${labelOf(e.generation)}: ${fmt(e.best)}${halfWidth(e.best, e.bestHalfWidth)}  games ${e.games}  ${e.seconds.toFixed(1)} s${e.model ? `  model ${describeModel(e.model)}` : ''}`
          : `${labelOf(e.generation)}: best ${fmt(e.best)}${halfWidth(e.best, e.bestHalfWidth)}  mean ${fmt(e.mean)}  stdev ${fmt(e.stdev)}  sigma ${fmt(e.stepSize, 3)}  games ${e.games}  ${e.seconds.toFixed(1)} s${e.model ? `  model ${describeModel(e.model)}` : ''}`,
      );
    } else if (e.event === 'validation-finished') {
      endProgress();
      for (const f of e.finalists) out(describeFinalist(f, fmt, !!config.fitness.screen));
      if (e.verdict) out(describeStartVerdict(e.verdict));
      for (const line of ceilingLines(store, loadRunProblem(store, runId))) out(line);
    }
  };
  const { batchTimeoutSec, ...runWhere } = where;
  const tuner = new Tuner(store, runId, {
    ...runWhere,
    ...(batchTimeoutSec === undefined ? {} : { pool: { callTimeoutMs: batchTimeoutSec * 1000 } }),
    onEvent,
    onNotice: (line) => process.stderr.write(`\ntune2048: ${line}\n`),
    onRunner: recordWhere,
    onProgress: (p) => {
      const key = `${p.phase}:${p.generation}`;
      pace.observe(key, p.done, Date.now());
      const eta = etaSec(pace.secondsPerGame(), p, plan, spent);
      const seconds = (x: number | null) => (x === null ? 'unknown' : formatDuration(x * 1000));
      // Before a generation has finished nobody knows how much longer the better players' games will be: a floor.
      const laterKnown = plan.lengthening !== undefined || p.phase === 'validation';
      const payload = { best: fmt(p.bestSoFar), phase: seconds(eta.phase), run: eta.run !== null && !laterKnown ? `${seconds(eta.run)} or more` : seconds(eta.run) };
      if (key !== progressKey) {
        progress?.stop();
        const label = p.phase === 'fitness' ? (lagged ? `${generations} points` : labelOf(p.generation)) : 'validation';
        // Validation plays held-out games: an in-sample best (a lucky candidate of some generation, never validated) is no figure of it.
        const shown = p.phase === 'fitness' ? 'best in-sample {best}' : 'held-out games of the finalists and the start';
        progress = createProgress(label, p.total, `${label} [{bar}] {value}/{total} games | ${shown} | ETA {phase} (whole run: {run} left)`, payload);
        progressKey = key;
      }
      progress?.update(p.done, payload);
    },
  });
  // A closed pipe: nobody reads the output any more: stop now (running batches are lost), keep what is stored, exit quietly.
  const interrupts = handleInterrupts(
    tuner,
    { stopping: 'stopping', stoppedAtOnce: () => `run ${runId} stopped at once; resume it with: ${suggest(resumeArgs, store.path)}` },
    () => tuner.abort(),
  );
  try {
    const outcome = await tuner.run(resumed);
    endProgress();
    const resume = suggest(resumeArgs, store.path);
    if (outcome.status === 'lost') {
      console.error(`tune2048: ${outcome.error}`);
      process.exitCode = EXIT_BUSY;
    } else if (outcome.status === 'stopped') {
      if (!interrupts.pipeClosed()) {
        console.error(`tune2048: run ${runId} stopped; resume it with: ${resume}`);
        process.exitCode = EXIT_INTERRUPTED;
      }
    } else if (outcome.status === 'failed') {
      if (outcome.timedOutMs !== undefined) {
        // Slower than the limit is not broken: the same batch goes on under a longer one.
        const longer = suggest(resumeOn + limitArgs(Math.ceil((outcome.timedOutMs * 4) / 1000)), store.path);
        console.error(`tune2048: run ${runId} failed: ${outcome.error}; finished games are stored; a slow player or a busy machine needs a longer batch time limit: ${longer}`);
      } else {
        console.error(`tune2048: run ${runId} failed: ${outcome.error}; finished games are stored, resume with: ${resume}`);
      }
      process.exitCode = EXIT_FAILURE;
    } else if (!json) {
      out(
        hasFront(config)
          ? `run ${runId} finished: its validated front is in ${suggest(`show ${runId}`, store.path)}; the strongest point is candidate ${outcome.bestCandidate}: ${suggest(['export', String(runId), '--out', freeOutputName('tuned', 'json')], store.path)} (or a cheaper one: --point K, --max-ms-per-move MS)`
          : `run ${runId} finished: best candidate ${outcome.bestCandidate}; export it with: ${suggest(['export', String(runId), '--out', freeOutputName('tuned', 'json')], store.path)}`,
      );
    }
  } finally {
    interrupts.uninstall();
  }
}
