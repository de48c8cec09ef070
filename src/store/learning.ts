/**
 * Learning runs as stored (tune2048 learn): their config, their holder (holders.ts, the same protocol as a
 * tuning run's), their checkpoints (the latest with its tables, or the network file beside the database it
 * names) and their late-start boards.
 */
import { hostname } from 'node:os';
import { InputError } from '../util/errors';
import { suggest } from '../util/command-hint';
import type { StoreContext } from './context';
import { refuseIfHeld, type Holders } from './holders';
import { decodeLearnCheckpoint, decodeLearnRun, type LearnCheckpoint, type LearnCheckpointRow, type LearnRun, type LearnRunRow, type RunStatus } from './records';

export class LearningRecords {
  constructor(
    private readonly ctx: StoreContext,
    private readonly holders: Holders,
  ) {}

  /** Whether the file has learning runs' tables (a reader of a schema older than 6 sees none). */
  private hasLearnRuns(): boolean {
    return !this.ctx.empty && this.ctx.schemaVersion() >= 6;
  }

  createLearnRun(run: { name: string; storedConfig: unknown }): number {
    const info = this.ctx.db.prepare('INSERT INTO learn_runs (name, config, status, created_at) VALUES (?, ?, ?, ?)').run(run.name, JSON.stringify(run.storedConfig), 'stopped', Date.now());
    return Number(info.lastInsertRowid);
  }

  requireLearnRun(id: number): LearnRun {
    const row = this.hasLearnRuns() ? (this.ctx.db.prepare('SELECT * FROM learn_runs WHERE id = ?').get(id) as LearnRunRow | undefined) : undefined;
    if (!row) throw new InputError(`no learning run ${id} in "${this.ctx.path}" (see "${suggest('learn show', this.ctx.path)}")`);
    return decodeLearnRun(row);
  }

  listLearnRuns(): LearnRun[] {
    if (!this.hasLearnRuns()) return [];
    return (this.ctx.db.prepare('SELECT * FROM learn_runs ORDER BY id').all() as LearnRunRow[]).map(decodeLearnRun);
  }

  /** Rewrites a learning run's stored config (`learn resume --games/--learning-rate`); a finished run becomes stopped again. */
  updateLearnConfig(id: number, change: (config: Record<string, unknown>) => Record<string, unknown>): void {
    this.ctx.db
      .transaction(() => {
        const run = this.requireLearnRun(id);
        refuseIfHeld(`learning run ${id}`, run, process.pid, hostname(), Date.now()); // never under a process training it
        const config = change({ ...(run.storedConfig as Record<string, unknown>) });
        this.ctx.db.prepare("UPDATE learn_runs SET config = ?, status = CASE status WHEN 'finished' THEN 'stopped' ELSE status END, finished_at = NULL WHERE id = ?").run(JSON.stringify(config), id);
      })
      .immediate();
  }

  /** Makes this process the learning run's holder (the rules of acquireRun). */
  acquireLearnRun(id: number, pid = process.pid, host = hostname(), now = Date.now()): void {
    this.holders.acquire(id, () => this.requireLearnRun(id), pid, host, now);
  }

  /**
   * Stores a checkpoint (the tables of the previous one dropped: only the latest is resumed from), if this
   * process still holds the run. A line network's tables go in the row; an n-tuple network's file was
   * written beside the database first (outside this transaction: writing 268 MB holds no lock) and is named.
   * Returns the network file the previous checkpoint named, now unreferenced (the caller deletes it).
   */
  saveLearnCheckpoint(c: Omit<LearnCheckpoint, 'tables'> & { tables: Uint8Array | null }, pid = process.pid, host = hostname()): string | null {
    return this.ctx.db
      .transaction(() => {
        this.holders.check(c.runId, pid, host);
        const previous = this.ctx.db.prepare('SELECT table_file FROM learn_checkpoints WHERE run_id = ? AND table_file IS NOT NULL').get(c.runId) as { table_file: string } | undefined;
        this.ctx.db.prepare('UPDATE learn_checkpoints SET tables = NULL, table_file = NULL WHERE run_id = ? AND (tables IS NOT NULL OR table_file IS NOT NULL)').run(c.runId);
        this.ctx.db
          .prepare('INSERT INTO learn_checkpoints (run_id, games, mean_score, max_tile, tables, table_file, table_sha256, stats, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(
            c.runId,
            c.games,
            c.meanScore,
            c.maxTile,
            c.tables && Buffer.from(c.tables.buffer, c.tables.byteOffset, c.tables.byteLength),
            c.tableFile ?? null,
            c.tableSha256 ?? null,
            c.stats === undefined || c.stats === null ? null : JSON.stringify(c.stats),
            c.at,
          );
        this.holders.beat(c.runId, Date.now());
        return previous && previous.table_file !== c.tableFile ? previous.table_file : null;
      })
      .immediate();
  }

  /** The run's curve, oldest first (tables left out). */
  learnCurve(id: number): LearnCheckpoint[] {
    if (!this.hasLearnRuns()) return [];
    const extra = this.ctx.schemaVersion() >= 8 ? ', table_file, table_sha256, stats' : '';
    return (this.ctx.db.prepare(`SELECT run_id, games, mean_score, max_tile, NULL AS tables${extra}, at FROM learn_checkpoints WHERE run_id = ? ORDER BY games`).all(id) as LearnCheckpointRow[]).map(decodeLearnCheckpoint);
  }

  /** The checkpoint a run goes on from (the latest, with its tables), or undefined before the first. */
  lastLearnCheckpoint(id: number): LearnCheckpoint | undefined {
    if (!this.hasLearnRuns()) return undefined;
    const held = this.ctx.schemaVersion() >= 8 ? 'tables IS NOT NULL OR table_file IS NOT NULL' : 'tables IS NOT NULL';
    const row = this.ctx.db.prepare(`SELECT * FROM learn_checkpoints WHERE run_id = ? AND (${held}) ORDER BY games DESC LIMIT 1`).get(id) as LearnCheckpointRow | undefined;
    return row && decodeLearnCheckpoint(row);
  }

  /** A learning run's stored late-start boards (learn/late-starts.ts encodes them), or null before their first collection. */
  learnStarts(id: number): Buffer | null {
    if (this.ctx.schemaVersion() < 9) return null;
    const row = this.ctx.db.prepare('SELECT boards FROM learn_starts WHERE run_id = ?').get(id) as { boards: Buffer } | undefined;
    return row?.boards ?? null;
  }

  /** Stores a learning run's late-start boards, if this process holds the run. */
  saveLearnStarts(id: number, boards: Uint8Array, pid = process.pid, host = hostname()): void {
    this.ctx.db
      .transaction(() => {
        this.holders.check(id, pid, host);
        this.ctx.db.prepare('INSERT OR REPLACE INTO learn_starts (run_id, boards) VALUES (?, ?)').run(id, Buffer.from(boards.buffer, boards.byteOffset, boards.byteLength));
      })
      .immediate();
  }

  /** Gives the learning run up with its final status (if this process still holds it). */
  releaseLearnRun(id: number, status: Exclude<RunStatus, 'running'>, error: string | null = null, pid = process.pid, host = hostname()): void {
    this.holders.release(id, pid, host, status, error);
  }
}
