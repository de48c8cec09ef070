/**
 * Who holds a run: one process at a time writes a tuning run or a learning run. One protocol for both tables
 * (runs, learn_runs): a holder is a pid on a host with a heartbeat; another live process is refused while the
 * heartbeat is fresh, a dead pid on this host or a stale heartbeat is taken over; every write of the holder
 * first checks it still holds the run (a process paused past the stale time finds it taken and writes nothing
 * more); a release leaves the heartbeat at the moment of release (a resume counts the time since as a pause).
 */
import type Database from 'better-sqlite3';
import { hostname } from 'node:os';
import { RunBusyError, RunLostError } from '../util/errors';
import { pidAlive } from '../util/proc';
import type { Holder, RunStatus } from './records';

/** A holder whose heartbeat is older than this is stale, even if its pid exists. */
export const STALE_HEARTBEAT_MS = 60_000;

/**
 * A run marked running whose process is gone (kill -9, a crash, the machine restarted): its holder was on
 * this host and its pid is dead. (On another host nothing tells; its heartbeat goes stale.)
 */
export function holderGone(run: Holder): boolean {
  return run.status === 'running' && run.ownerPid !== null && run.ownerHost === hostname() && !pidAlive(run.ownerPid);
}

/**
 * A run's status as every view says it: one marked running whose process is gone is stopped (it goes on
 * from what is stored). `processGone` says why, for the views that explain it.
 */
export function statusOf(run: Holder): { status: RunStatus; processGone: boolean } {
  const processGone = holderGone(run);
  return { status: processGone ? 'stopped' : run.status, processGone };
}

/** Refuses (RunBusyError) a run another live process holds; a dead pid on this host or an old heartbeat is stale. */
export function refuseIfHeld(what: string, run: Holder, pid: number, host: string, now: number): void {
  if (run.status !== 'running' || run.ownerPid === null || (run.ownerPid === pid && run.ownerHost === host)) return;
  const fresh = run.heartbeatAt !== null && now - run.heartbeatAt < STALE_HEARTBEAT_MS;
  const alive = run.ownerHost !== host || pidAlive(run.ownerPid);
  if (fresh && alive) {
    const age = ((now - (run.heartbeatAt ?? now)) / 1000).toFixed(0);
    throw new RunBusyError(`${what} is held by pid ${run.ownerPid} on ${run.ownerHost} (heartbeat ${age}s ago); stop it first or wait`);
  }
}

/** The holder protocol over one table of runs (`runs` or `learn_runs`, each with status, owner_pid, owner_host, heartbeat_at, error, finished_at). */
export class Holders {
  constructor(
    private readonly db: Database.Database,
    private readonly table: 'runs' | 'learn_runs',
    /** How messages name a run of this table ("run 3", "learning run 3"). */
    private readonly name: (id: number) => string,
  ) {}

  /**
   * Makes pid on host the holder of run `id` (`current` reads its holder record, or throws for a missing run),
   * in one immediate transaction; `alsoInside` runs in it first (a tuning run counts a pause). Refuses while
   * another live process holds it.
   */
  acquire(id: number, current: () => Holder, pid: number, host: string, now: number, alsoInside?: (run: Holder) => void): void {
    this.db
      .transaction(() => {
        const run = current();
        refuseIfHeld(this.name(id), run, pid, host, now);
        alsoInside?.(run);
        this.db.prepare(`UPDATE ${this.table} SET status = 'running', owner_pid = ?, owner_host = ?, heartbeat_at = ?, error = NULL WHERE id = ?`).run(pid, host, now, id);
      })
      .immediate();
  }

  /** Inside a write of the holder: throws RunLostError unless pid on host still holds run `id`. */
  check(id: number, pid: number, host: string): void {
    const row = this.db.prepare(`SELECT owner_pid, owner_host FROM ${this.table} WHERE id = ?`).get(id) as { owner_pid: number | null; owner_host: string | null } | undefined;
    if (row?.owner_pid === pid && row.owner_host === host) return;
    const who = row?.owner_pid != null ? `pid ${row.owner_pid} on ${row.owner_host}` : 'another process';
    throw new RunLostError(`${this.name(id)} was taken over by ${who} while this process was paused or silent; this process stops and writes nothing more`);
  }

  /** Renews the holder's heartbeat (inside the caller's transaction, after check). */
  beat(id: number, now: number): void {
    this.db.prepare(`UPDATE ${this.table} SET heartbeat_at = ? WHERE id = ?`).run(now, id);
  }

  /** Gives run `id` up with its final status, unless another process has taken it over meanwhile. */
  release(id: number, pid: number, host: string, status: Exclude<RunStatus, 'running'>, error: string | null, now = Date.now()): void {
    this.db
      .prepare(`UPDATE ${this.table} SET status = ?, owner_pid = NULL, owner_host = NULL, heartbeat_at = ?, error = ?, finished_at = ? WHERE id = ? AND owner_pid = ? AND owner_host = ?`)
      .run(status, now, error, status === 'finished' ? now : null, id, pid, host);
  }
}
