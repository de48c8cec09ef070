/**
 * The progress bars running now: a command that fails stops them (their redraw timer would keep the
 * process alive). Apart from progress.ts so that the CLI's entry can stop them without loading
 * cli-progress (~30 ms of every command's start, most of which draw no bar).
 */
export const runningBars = new Set<{ stop(): void }>();

export function stopAllProgress(): void {
  for (const bar of runningBars) bar.stop();
  runningBars.clear();
}
