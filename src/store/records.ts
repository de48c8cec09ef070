/**
 * What the store hands out: decoded, typed records (as Optuna's storage hands out frozen trials), never
 * rows with JSON text or snake_case columns. Each table's row type and its decoder live here, beside the
 * record, so the SQL column names stay inside src/store.
 */
import type { Comparison, Sweep } from '../compare/compare';
import type { PlayedGame } from '../engine/game';

export type RunStatus = 'running' | 'stopped' | 'failed' | 'finished';
/** fitness: a generation's games; validation: the held-out games of the finalists; confirmation: a second held-out set for the race's winner and the start (validation.confirm). */
export type GamePurpose = 'fitness' | 'validation' | 'confirmation';

/** What every kind of run has: its status and the process holding it while it runs. */
export interface Holder {
  status: RunStatus;
  /** The process holding the run while it runs. */
  ownerPid: number | null;
  ownerHost: string | null;
  /** ms since epoch, while running. */
  heartbeatAt: number | null;
  createdAt: number;
  finishedAt: number | null;
  /** Why the run failed or stopped. */
  error: string | null;
}

/** A learning run (tune2048 learn): its config is checked by src/learn/config.ts. */
export interface LearnRun extends Holder {
  id: number;
  name: string;
  storedConfig: unknown;
}

/** A point of a learning run's curve; `tables` only on the latest one. */
export interface LearnCheckpoint {
  runId: number;
  games: number;
  meanScore: number;
  maxTile: number;
  tables: Uint8Array | null;
  /** N-tuple networks: the network file (relative to the database's folder) and its hash, latest checkpoint only. */
  tableFile?: string | null;
  tableSha256?: string | null;
  /** N-tuple networks: the curve's figures (src/learn/ntuple/network-run.ts CheckpointStats). */
  stats?: unknown;
  at: number;
}

/** The columns of a Holder, as SQLite returns them. */
interface HolderRow {
  status: RunStatus;
  owner_pid: number | null;
  owner_host: string | null;
  heartbeat_at: number | null;
  created_at: number;
  finished_at: number | null;
  error: string | null;
}

function decodeHolder(r: HolderRow): Holder {
  return { status: r.status, ownerPid: r.owner_pid, ownerHost: r.owner_host, heartbeatAt: r.heartbeat_at, createdAt: r.created_at, finishedAt: r.finished_at, error: r.error };
}

export interface LearnRunRow extends HolderRow {
  id: number;
  name: string;
  config: string;
}

export function decodeLearnRun(r: LearnRunRow): LearnRun {
  return { id: r.id, name: r.name, storedConfig: JSON.parse(r.config), ...decodeHolder(r) };
}

export interface LearnCheckpointRow {
  run_id: number;
  games: number;
  mean_score: number;
  max_tile: number;
  tables: Buffer | null;
  table_file?: string | null;
  table_sha256?: string | null;
  stats?: string | null;
  at: number;
}

export function decodeLearnCheckpoint(r: LearnCheckpointRow): LearnCheckpoint {
  return {
    runId: r.run_id,
    games: r.games,
    meanScore: r.mean_score,
    maxTile: r.max_tile,
    tables: r.tables && new Uint8Array(r.tables),
    tableFile: r.table_file ?? null,
    tableSha256: r.table_sha256 ?? null,
    stats: r.stats ? JSON.parse(r.stats) : null,
    at: r.at,
  };
}

export interface Run extends Holder {
  id: number;
  name: string;
  /** The problem the run was created with (config and start weights), JSON-decoded; tuner/run/run-problem.ts checks it. */
  storedConfig: unknown;
  configHash: string;
  seed: number;
  /** The validated best (once the run finished). */
  bestCandidate: number | null;
}

/** A run with the figures of a run list. */
export interface RunSummary extends Run {
  /** Generations done. */
  generations: number;
  /** The largest fitness of any candidate: in-sample (on the games that selected it), so optimistic. */
  bestFitness: number | null;
  /** The held-out validation of the run's best (once validated): the honest figure. */
  bestValidation: number | null;
  gamesPlayed: number;
  /** Of them, validation games (held-out seeds). */
  validationGames: number;
  /** The latest start or end of a generation (ms), for the elapsed time of unfinished runs. */
  lastActivity: number | null;
}

export interface Generation {
  runId: number;
  idx: number;
  /** The optimizer state that produced this generation (JSON-decoded). */
  state: unknown;
  status: 'open' | 'done';
  bestFitness: number | null;
  meanFitness: number | null;
  stdevFitness: number | null;
  /** Games played for its fitness (copies and inherited fitness not counted). */
  games: number;
  startedAt: number;
  finishedAt: number | null;
  /** Time between a stop inside it and the resume that went on with it (not play). */
  pausedMs: number;
}

export interface Candidate {
  id: number;
  runId: number;
  generation: number;
  /** Its place in the generation. */
  idx: number;
  /** The normalised parameter vector the optimizer proposed. */
  genome: number[];
  /** The tuned weights by name. */
  params: Record<string, number>;
  /** init | elite | offspring | mean | start | … */
  origin: string;
  /** Candidate ids it was made from. */
  parents: number[];
  fitness: number | null;
  /** The objective on the validation games (finalists only). */
  validation: number | null;
  /** A finalist's predicted mean as the model gave it when validation began (the model optimizer), else null. */
  prediction: FinalistPrediction | null;
  /** The objective on the confirmation games (a second held-out set: the race's winner and the start), else null. */
  confirmation: number | null;
}

/** The model's word on a finalist: its latent mean and sd, the fitness games played there, its cost per move (budget runs). */
export interface FinalistPrediction {
  mean: number;
  sd: number;
  games: number;
  cost?: number;
  /** Its model of cost's probability that it keeps within the ceiling (a run within one). */
  withinCeiling?: number;
}

export interface NewCandidate {
  genome: number[];
  params: Record<string, number>;
  origin: string;
  parents: number[];
}

export type { PlayedGame };

/** A game of a run's candidate. */
export interface Game extends PlayedGame {
  candidateId: number;
  purpose: GamePurpose;
}

/** A game of a run with where its candidate stands (every game of a run in one read). */
export interface RunGame extends Game {
  generation: number;
  /** The candidate's place in its generation. */
  candidateIdx: number;
}

/** A race checkpoint: the held-out value of a run's recommendation after a generation (tune2048 race). */
export interface BenchmarkCheckpoint {
  kind: 'race-checkpoint';
  generation: number;
  holdoutGames: number;
  holdout: number;
}

/** What the comparisons table keeps, told apart by its kind column. */
export type StoredResult =
  | { kind: 'comparison'; result: Comparison }
  | { kind: 'sweep'; result: Sweep }
  | { kind: 'race-checkpoint'; result: BenchmarkCheckpoint };
export type ResultKind = StoredResult['kind'];
export const RESULT_KINDS: readonly ResultKind[] = ['comparison', 'sweep', 'race-checkpoint'];

export type StoredResultRecord<K extends ResultKind = ResultKind> = Extract<StoredResult, { kind: K }> & { id: number; runId: number | null; createdAt: number };

// ---- rows as SQLite returns them, and their decoders ----

export interface RunRow extends HolderRow {
  id: number;
  name: string;
  config: string;
  config_hash: string;
  seed: number;
  best_candidate: number | null;
}

export function decodeRun(r: RunRow): Run {
  return { id: r.id, name: r.name, storedConfig: JSON.parse(r.config), configHash: r.config_hash, seed: r.seed, bestCandidate: r.best_candidate, ...decodeHolder(r) };
}

export interface RunSummaryRow extends RunRow {
  generations: number;
  best_fitness: number | null;
  best_validation: number | null;
  games_played: number;
  validation_games: number;
  last_activity: number | null;
}

export function decodeRunSummary(r: RunSummaryRow): RunSummary {
  return { ...decodeRun(r), generations: r.generations, bestFitness: r.best_fitness, bestValidation: r.best_validation, gamesPlayed: r.games_played, validationGames: r.validation_games, lastActivity: r.last_activity };
}

export interface GenerationRow {
  run_id: number;
  idx: number;
  state: string;
  status: 'open' | 'done';
  best_fitness: number | null;
  mean_fitness: number | null;
  stdev_fitness: number | null;
  games: number;
  started_at: number;
  finished_at: number | null;
  paused_ms: number;
}

export function decodeGeneration(g: GenerationRow): Generation {
  return {
    runId: g.run_id,
    idx: g.idx,
    state: JSON.parse(g.state),
    status: g.status,
    bestFitness: g.best_fitness,
    meanFitness: g.mean_fitness,
    stdevFitness: g.stdev_fitness,
    games: g.games,
    startedAt: g.started_at,
    finishedAt: g.finished_at,
    pausedMs: g.paused_ms ?? 0,
  };
}

/** A finished generation's seconds of play: its wall time without the stops in it; null while open. */
export function generationSeconds(g: Pick<Generation, 'startedAt' | 'finishedAt' | 'pausedMs'>): number | null {
  return g.finishedAt === null ? null : (g.finishedAt - g.startedAt - g.pausedMs) / 1000;
}

export interface CandidateRow {
  id: number;
  run_id: number;
  generation: number;
  idx: number;
  genome: string;
  params: string;
  origin: string;
  parents: string;
  fitness: number | null;
  validation: number | null;
  /** From schema 11 (absent in older databases a reader reads as they are). */
  prediction?: string | null;
  confirmation?: number | null;
}

export function decodeCandidate(c: CandidateRow): Candidate {
  return {
    id: c.id,
    runId: c.run_id,
    generation: c.generation,
    idx: c.idx,
    genome: JSON.parse(c.genome) as number[],
    params: JSON.parse(c.params) as Record<string, number>,
    origin: c.origin,
    parents: JSON.parse(c.parents) as number[],
    fitness: c.fitness,
    validation: c.validation,
    prediction: c.prediction ? (JSON.parse(c.prediction) as FinalistPrediction) : null,
    confirmation: c.confirmation ?? null,
  };
}

/** The games table's columns (of table alias `t`, if given), renamed to the record's fields in every SELECT. */
export function gameColumns(t = '', withNodes = false, withRegret = false): string {
  const p = t ? `${t}.` : '';
  return `${p}candidate_id AS candidateId, ${p}purpose AS purpose, ${p}seed AS seed, ${p}score AS score, ${p}max_tile AS maxTile, ${p}moves AS moves, ${p}ms AS ms${withNodes ? `, ${p}nodes AS nodes` : ''}${withRegret ? `, ${p}regret AS regret` : ''}`;
}

/** A stored game as read: a cost not counted or a game not screened (NULL, or a database from before schema 10 or 12) has the field absent, not null. */
export function decodeStoredGame<T extends { nodes?: number | null; regret?: number | null }>(row: T): T {
  if (row.nodes === null || row.nodes === undefined) delete row.nodes;
  if (row.regret === null || row.regret === undefined) delete row.regret;
  return row;
}
