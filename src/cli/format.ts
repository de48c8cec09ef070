/** Plain-text renderings shared by commands. */
import type { GameSummary } from '../compare/summary';

export function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

export function fmt(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits);
}

/**
 * One numbering of generations everywhere (stdout, progress, show, report, JSON): the stored index,
 * from 0; the label adds the count so far of the run's total.
 */
export function generationLabel(index: number, total: number): string {
  return `generation ${index} (${index + 1} of ${total})`;
}

export function formatSummary(label: string, s: GameSummary): string {
  const reach = Object.entries(s.reach)
    .map(([tile, share]) => `${tile}: ${percent(share)}`)
    .join('  ');
  return [
    `${label}: ${s.games} games`,
    `  score   mean ${s.meanScore.toFixed(0)}  median ${s.medianScore.toFixed(0)}  stdev ${s.stdevScore.toFixed(0)}  max ${s.maxScore}`,
    `  reach   ${reach}`,
    `  moves/game ${s.movesPerGame.toFixed(0)}  ms/move ${s.msPerMove.toFixed(4)}${s.nodesPerMove !== undefined ? `  nodes/move ${s.nodesPerMove.toFixed(0)} (the search's cost, the same on every machine)` : ''}`,
  ].join('\n');
}

/** Left-aligned columns. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd()).join('\n');
}

/** A wall-clock instant as "2026-11-23 02:14" (local time). */
export function formatTime(ms: number | null): string {
  if (ms === null) return '-';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A duration as "1h 02m", "3m 05s" or "12s". */
export function formatDuration(ms: number | null): string {
  if (ms === null || ms < 0) return '-';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** " ±14.2%": a 95% half-width relative to its value (empty when unknown). */
export function halfWidth(value: number, half: number | null): string {
  return half === null || !(value > 0) ? '' : ` ±${((100 * half) / value).toFixed(1)}%`;
}

/** A whole number with a true minus sign when negative (−37985, not -37985), as the CLI's tables print scores. */
export function signedWhole(x: number): string {
  return `${x < 0 ? '−' : ''}${Math.abs(Math.round(x))}`;
}

/** An interval of whole numbers: "88074–97506", or with a negative end "−49038 to −26811" (a dash beside a minus reads as one). */
export function wholeInterval(low: number, high: number): string {
  return low < 0 || high < 0 ? `${signedWhole(low)} to ${signedWhole(high)}` : `${signedWhole(low)}–${signedWhole(high)}`;
}
