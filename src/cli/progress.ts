/**
 * Progress on stderr with an ETA (cli-progress). On a terminal it redraws one
 * line; otherwise (logs, CI) it prints a line every few seconds.
 */
import cliProgress from 'cli-progress';
import { formatDuration } from './format';

export interface Progress {
  update(done: number, extra?: Record<string, string | number>): void;
  /** Work found already done (stored games): shown in the bar, left out of the ETA's rate. Before any update. */
  already(done: number): void;
  setTotal(total: number): void;
  stop(): void;
}

/** Bars running now: a command that fails stops them (their redraw timer would keep the process alive). */
const running = new Set<cliProgress.SingleBar>();

export function stopAllProgress(): void {
  for (const bar of running) bar.stop();
  running.clear();
}

/**
 * cli-progress's ETA is 0 before anything is done and the strings INF/NULL
 * while its rate is still unknown (printed "ETA NFs"): both read "unknown". Durations read
 * as everywhere else in the CLI ("2m 05s", not "2m5s").
 */
const formatTime = (t: unknown): string => (typeof t === 'number' && Number.isFinite(t) ? formatDuration(t * 1000) : 'unknown');

export function etaTemplate(template: string): cliProgress.GenericFormatter {
  return (options, params, payload) =>
    cliProgress.Format.Formatter({ ...options, format: template, formatTime }, params.value === 0 ? { ...params, eta: Number.NaN } : params, payload);
}

export function createProgress(label: string, total: number, format?: string, payload: Record<string, string | number> = {}): Progress {
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: etaTemplate(format ?? `${label} [{bar}] {value}/{total} | {percentage}% | elapsed {duration_formatted} | ETA {eta_formatted}`),
      hideCursor: process.stderr.isTTY ? true : false,
      noTTYOutput: true,
      notTTYSchedule: 5000,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.legacy,
  );
  bar.start(total, 0, payload);
  running.add(bar);
  return {
    update: (done, extra) => bar.update(done, extra),
    // Restarting at `done` empties cli-progress's ETA buffer, which would otherwise count the jump as speed.
    already: (done) => bar.start(total, done, payload),
    setTotal: (total) => bar.setTotal(total),
    stop: () => {
      running.delete(bar);
      bar.stop();
    },
  };
}
