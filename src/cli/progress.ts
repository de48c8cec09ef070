/**
 * Progress on stderr with an ETA (cli-progress). On a terminal it redraws one
 * line; otherwise (logs, CI) it prints a line every few seconds.
 */
import cliProgress from 'cli-progress';
import { formatDuration } from './format';
import { runningBars } from './running-bars';

export interface Progress {
  update(done: number, extra?: Record<string, string | number>): void;
  /** Work found already done (stored games): shown in the bar, left out of the ETA's rate. Before any update. */
  already(done: number): void;
  setTotal(total: number): void;
  stop(): void;
  /** What the bar counts as done so far. */
  done(): number;
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

/**
 * stderr as a log file or pipe sees a bar: cli-progress prints a line at the start (0 done, no ETA), one
 * every 5 s and one at the end, with blank lines between bars. Kept: the timed lines, and the last one only
 * when a timed line came before it; so a short phase prints nothing and a log holds a line per 5 s, not
 * three per phase.
 */
export class LogLines {
  readonly isTTY = false;
  private line = '';
  private skip = 1;
  private shown = 0;
  /** The last line written: the end's line repeats it when nothing moved since (a pipe saw it twice). */
  private last = '';
  stopping = false;

  constructor(private readonly out: NodeJS.WritableStream) {}

  write(text: string): boolean {
    const parts = text.split('\n');
    this.line += parts[0];
    for (const part of parts.slice(1)) {
      this.flush();
      this.line = part;
    }
    return true;
  }

  /** The next line is a restart's (0 done again): not worth a line either. */
  skipNext(): void {
    this.skip++;
  }

  private flush(): void {
    const line = this.line;
    this.line = '';
    if (line.trim() === '') return;
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    if (this.stopping && this.shown === 0) return;
    if (line === this.last) return;
    this.shown++;
    this.last = line;
    this.out.write(`${line}\n`);
  }
}

export function createProgress(label: string, total: number, format?: string, payload: Record<string, string | number> = {}): Progress {
  // TUNE2048_PROGRESS=every: every line of every bar in a log too (its start and its end however short).
  const log = process.stderr.isTTY || process.env.TUNE2048_PROGRESS === 'every' ? null : new LogLines(process.stderr);
  const bar = new cliProgress.SingleBar(
    {
      stream: (log ?? process.stderr) as unknown as NodeJS.WritableStream,
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
  runningBars.add(bar);
  let value = 0;
  return {
    update: (done, extra) => bar.update((value = done), extra),
    // Restarting at `done` empties cli-progress's ETA buffer, which would otherwise count the jump as speed.
    already: (done) => {
      log?.skipNext();
      bar.start(total, (value = done), payload);
    },
    done: () => value,
    setTotal: (total) => bar.setTotal(total),
    stop: () => {
      runningBars.delete(bar);
      if (log) log.stopping = true;
      bar.stop();
    },
  };
}
