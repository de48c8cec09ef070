/**
 * Holding a run while it runs (Optuna's heartbeat): this process becomes the run's holder, renews its
 * heartbeat every few seconds, and finds out when another process took the run over (this one was paused
 * or silent too long) — then it must stop and write nothing more. Released with the run's final status.
 */
import type { RunStatus, Store } from '../../store/store';
import { RunLostError } from '../../util/errors';

const HEARTBEAT_EVERY_MS = 5000;

export class RunLease {
  private timer: NodeJS.Timeout | null = null;
  /** Set once another process holds the run. */
  lost: RunLostError | null = null;

  constructor(
    private readonly store: Store,
    private readonly runId: number,
    /** Called once when the run is found taken over (stop playing at once). */
    private readonly onLost: () => void,
  ) {}

  /** Takes the run (RunBusyError while another live process holds it) and starts the heartbeat. */
  acquire(): void {
    this.store.acquireRun(this.runId);
    this.timer = setInterval(() => {
      try {
        this.store.heartbeat(this.runId);
      } catch (e) {
        if (!(e instanceof RunLostError)) throw e;
        this.lost ??= e; // resumed after a long pause: another process holds the run now
        this.onLost();
      }
    }, HEARTBEAT_EVERY_MS);
    this.timer.unref();
  }

  /** Gives the run up with its final status (unless another process took it over meanwhile). */
  release(status: Exclude<RunStatus, 'running'>, error: string | null = null): void {
    this.stopHeartbeat();
    this.store.releaseRun(this.runId, status, error);
  }

  stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
