/**
 * Tuning runs as stored: runs (their config, best and last queue), generations with their optimizer state and
 * figures, candidates with their fitness, held-out values, the model's predictions and the second set's values,
 * and the results kept beside a run (comparisons, sweeps, optimizer-benchmark checkpoints).
 */
import { InputError } from '../util/errors';
import { suggest } from '../util/command-hint';
import type { StoreContext } from './context';
import type { GameRecords } from './games';
import { decodeCandidate, decodeGeneration, decodeRun, decodeRunSummary, type Candidate, type CandidateRow, type FinalistPrediction, type Game, type Generation, type GenerationRow, type NewCandidate, type ResultKind, type Run, type RunRow, type RunSummary, type RunSummaryRow, type StoredResult, type StoredResultRecord } from './records';

export class TuningRecords {
  constructor(
    private readonly ctx: StoreContext,
    private readonly games: GameRecords,
    /** How many learning runs the file holds (a missing run's message points there when it holds only those). */
    private readonly learnRuns: () => number,
  ) {}

  /** A stored result's kind: its column from schema 5, else (a reader of an older file) the JSON's own field. */
  private kindSql(): string {
    return this.ctx.schemaVersion() >= 5 ? 'kind' : "coalesce(json_extract(result, '$.kind'), 'comparison')";
  }

  createRun(run: { name: string; storedConfig: unknown; configHash: string; seed: number }): number {
    const info = this.ctx.db
      .prepare('INSERT INTO runs (name, config, config_hash, seed, status, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(run.name, JSON.stringify(run.storedConfig), run.configHash, run.seed, 'stopped', Date.now());
    return Number(info.lastInsertRowid);
  }

  /** Replaces one part of a run's stored config (JSON): the run's external program after an accepted change. */
  setStoredConfigPart(id: number, key: string, value: unknown): void {
    const row = this.ctx.db.prepare('SELECT config FROM runs WHERE id = ?').get(id) as { config: string } | undefined;
    if (!row) throw new InputError(`no run ${id} in "${this.ctx.path}"`);
    this.ctx.db.prepare('UPDATE runs SET config = ? WHERE id = ?').run(JSON.stringify({ ...JSON.parse(row.config), [key]: value }), id);
  }

  getRun(id: number): Run | undefined {
    if (this.ctx.empty) return undefined;
    const row = this.ctx.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    return row && decodeRun(row);
  }

  requireRun(id: number): Run {
    const run = this.getRun(id);
    if (!run) {
      // A database of learning runs only: point there rather than at an empty list.
      const learning = this.listRuns().length === 0 ? this.learnRuns() : 0;
      throw new InputError(`no run ${id} in "${this.ctx.path}" (${learning > 0 ? `it holds ${learning} learning run${learning === 1 ? '' : 's'}: see "${suggest('learn show', this.ctx.path)}"` : `see "${suggest('runs', this.ctx.path)}"`})`);
    }
    return run;
  }

  listRuns(): RunSummary[] {
    if (this.ctx.empty) return [];
    return (
      this.ctx.db
        .prepare(
          `SELECT r.*,
             (SELECT count(*) FROM generations g WHERE g.run_id = r.id AND g.status = 'done') AS generations,
             (SELECT max(c.fitness) FROM candidates c WHERE c.run_id = r.id) AS best_fitness,
             (SELECT c.validation FROM candidates c WHERE c.id = r.best_candidate) AS best_validation,
             -- the last generation's start or end, or the holder's last sign of life (a release keeps its moment: a run stopped in its first generation lasted until then)
             nullif(max(coalesce(r.heartbeat_at, 0), coalesce((SELECT max(max(g.started_at), coalesce(max(g.finished_at), 0)) FROM generations g WHERE g.run_id = r.id), 0)), 0) AS last_activity,
             (SELECT count(*) FROM games x JOIN candidates c ON c.id = x.candidate_id WHERE c.run_id = r.id) AS games_played,
             (SELECT count(*) FROM games x JOIN candidates c ON c.id = x.candidate_id WHERE c.run_id = r.id AND x.purpose = 'validation') AS validation_games
           FROM runs r ORDER BY r.id`,
        )
        .all() as RunSummaryRow[]
    ).map(decodeRunSummary);
  }

  /** The run's summary (listRuns's figures for one run). */
  requireRunSummary(id: number): RunSummary {
    this.requireRun(id);
    return this.listRuns().find((r) => r.id === id)!;
  }

  /** The runs of a name, oldest first (a race finds its runs again by name). */
  findRunsByName(name: string): Run[] {
    if (this.ctx.empty) return [];
    return (this.ctx.db.prepare('SELECT * FROM runs WHERE name = ? ORDER BY id').all(name) as RunRow[]).map(decodeRun);
  }

  /** Where the run's last session played (a queue as displayed, null: local workers); undefined: never recorded. */
  lastQueue(runId: number): string | null | undefined {
    const row = this.ctx.db.prepare('SELECT last_queue FROM runs WHERE id = ?').get(runId) as { last_queue?: string | null } | undefined;
    return row && 'last_queue' in row ? row.last_queue : undefined;
  }

  setLastQueue(runId: number, queue: string | null): void {
    this.ctx.write(() => this.ctx.db.prepare('UPDATE runs SET last_queue = ? WHERE id = ?').run(queue, runId));
  }

  setBestCandidate(runId: number, candidateId: number): void {
    this.ctx.write(() => this.ctx.db.prepare('UPDATE runs SET best_candidate = ? WHERE id = ?').run(candidateId, runId));
  }

  getGeneration(runId: number, idx: number): Generation | undefined {
    const row = this.ctx.db.prepare('SELECT * FROM generations WHERE run_id = ? AND idx = ?').get(runId, idx) as GenerationRow | undefined;
    return row && decodeGeneration(row);
  }

  listGenerations(runId: number): Generation[] {
    return (this.ctx.db.prepare('SELECT * FROM generations WHERE run_id = ? ORDER BY idx').all(runId) as GenerationRow[]).map(decodeGeneration);
  }

  /** Inserts a generation and its candidates atomically, unless it already exists. */
  insertGeneration(runId: number, idx: number, state: unknown, candidates: readonly NewCandidate[]): void {
    this.ctx.write(() => {
      if (this.ctx.db.prepare('SELECT 1 FROM generations WHERE run_id = ? AND idx = ?').get(runId, idx)) return;
      this.ctx.db
        .prepare("INSERT INTO generations (run_id, idx, state, status, started_at) VALUES (?, ?, ?, 'open', ?)")
        .run(runId, idx, JSON.stringify(state), Date.now());
      const insert = this.ctx.db.prepare(
        'INSERT INTO candidates (run_id, generation, idx, genome, params, origin, parents) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      candidates.forEach((c, i) => insert.run(runId, idx, i, JSON.stringify(c.genome), JSON.stringify(c.params), c.origin, JSON.stringify(c.parents)));
    });
  }

  finishGeneration(
    runId: number,
    idx: number,
    fitness: readonly { id: number; fitness: number }[],
    stats: { best: number; mean: number; stdev: number; games: number },
  ): void {
    this.ctx.write(() => {
      const set = this.ctx.db.prepare('UPDATE candidates SET fitness = ? WHERE id = ?');
      for (const f of fitness) set.run(f.fitness, f.id);
      this.ctx.db
        .prepare(
          "UPDATE generations SET status = 'done', best_fitness = ?, mean_fitness = ?, stdev_fitness = ?, games = ?, finished_at = ? WHERE run_id = ? AND idx = ?",
        )
        .run(stats.best, stats.mean, stats.stdev, stats.games, Date.now(), runId, idx);
    });
  }

  /**
   * Another run's generation copied into run `runId` as it stood (tune --fitness-from): its state, figures and
   * times, its candidates under their own ids (states and parents name them) with their fitness, and their
   * fitness games; in one transaction.
   */
  copyGeneration(runId: number, g: Generation, candidates: readonly Candidate[], games: readonly Game[]): void {
    this.ctx.write(() => {
      this.ctx.db
        .prepare('INSERT INTO generations (run_id, idx, state, status, best_fitness, mean_fitness, stdev_fitness, games, started_at, finished_at, paused_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(runId, g.idx, JSON.stringify(g.state), g.status, g.bestFitness, g.meanFitness, g.stdevFitness, g.games, g.startedAt, g.finishedAt, g.pausedMs);
      const candidate = this.ctx.db.prepare('INSERT INTO candidates (id, run_id, generation, idx, genome, params, origin, parents, fitness) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      for (const c of candidates) candidate.run(c.id, runId, c.generation, c.idx, JSON.stringify(c.genome), JSON.stringify(c.params), c.origin, JSON.stringify(c.parents), c.fitness);
      this.games.putGames(games);
    });
  }

  /** Whether any candidate of any run has an id from `lo` to `hi`. */
  candidateIdsTaken(lo: number, hi: number): boolean {
    return this.ctx.db.prepare('SELECT 1 FROM candidates WHERE id BETWEEN ? AND ? LIMIT 1').get(lo, hi) !== undefined;
  }

  /** A generation's candidates, in their order. */
  getCandidates(runId: number, generation: number): Candidate[] {
    return (this.ctx.db.prepare('SELECT * FROM candidates WHERE run_id = ? AND generation = ? ORDER BY idx').all(runId, generation) as CandidateRow[]).map(decodeCandidate);
  }

  getCandidate(id: number): Candidate | undefined {
    const row = this.ctx.db.prepare('SELECT * FROM candidates WHERE id = ?').get(id) as CandidateRow | undefined;
    return row && decodeCandidate(row);
  }

  /** The candidates validated on held-out games (the finalists), best validation first. */
  validatedCandidates(runId: number): Candidate[] {
    return (this.ctx.db.prepare('SELECT * FROM candidates WHERE run_id = ? AND validation IS NOT NULL ORDER BY validation DESC').all(runId) as CandidateRow[]).map(decodeCandidate);
  }

  setValidation(candidateId: number, value: number): void {
    this.ctx.write(() => this.ctx.db.prepare('UPDATE candidates SET validation = ? WHERE id = ?').run(value, candidateId));
  }

  /** The model's finalists with its predictions, in one transaction (validation begins: the set is fixed from here, on every resume). */
  setPredictions(predictions: readonly { candidateId: number; prediction: FinalistPrediction }[]): void {
    this.ctx.write(() => {
      const set = this.ctx.db.prepare('UPDATE candidates SET prediction = ? WHERE id = ?');
      for (const p of predictions) set.run(JSON.stringify(p.prediction), p.candidateId);
    });
  }

  /** A run's finalists as the model chose them (with its predictions), in their order; empty before validation began or for other optimizers. */
  predictedFinalists(runId: number): Candidate[] {
    if (this.ctx.empty || this.ctx.schemaVersion() < 11) return [];
    const rows = this.ctx.db.prepare('SELECT * FROM candidates WHERE run_id = ? AND prediction IS NOT NULL ORDER BY id').all(runId) as CandidateRow[];
    return rows.map(decodeCandidate).sort((a, b) => b.prediction!.mean - a.prediction!.mean || a.id - b.id);
  }

  setConfirmation(candidateId: number, value: number): void {
    this.ctx.write(() => this.ctx.db.prepare('UPDATE candidates SET confirmation = ? WHERE id = ?').run(value, candidateId));
  }

  /** Keeps a result (a comparison, a sweep, a race checkpoint), tied to a run or not; its id. */
  insertResult(runId: number | null, stored: StoredResult): number {
    if (runId !== null) this.requireRun(runId);
    const info = this.ctx.db.prepare('INSERT INTO comparisons (run_id, created_at, kind, result) VALUES (?, ?, ?, ?)').run(runId, Date.now(), stored.kind, JSON.stringify(stored.result));
    return Number(info.lastInsertRowid);
  }

  /** A run's stored results of one kind, oldest first. */
  listResults<K extends ResultKind>(runId: number, kind: K): StoredResultRecord<K>[] {
    if (this.ctx.empty) return [];
    const kindOf = this.kindSql();
    const rows = this.ctx.db
      .prepare(`SELECT id, run_id AS runId, created_at AS createdAt, ${kindOf} AS kind, result FROM comparisons WHERE run_id = ? AND ${kindOf} = ? ORDER BY id`)
      .all(runId, kind) as { id: number; runId: number | null; createdAt: number; kind: K; result: string }[];
    return rows.map((r) => ({ ...r, result: JSON.parse(r.result) }) as StoredResultRecord<K>);
  }
}
