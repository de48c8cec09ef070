/** Plain-text renderings shared by commands. */
import type { GameSummary } from '../solver/summary';

export function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

export function formatSummary(label: string, s: GameSummary): string {
  const reach = Object.entries(s.reach)
    .map(([tile, share]) => `${tile}: ${percent(share)}`)
    .join('  ');
  return [
    `${label}: ${s.games} games`,
    `  score   mean ${s.meanScore.toFixed(0)}  median ${s.medianScore.toFixed(0)}  stdev ${s.stdevScore.toFixed(0)}  max ${s.maxScore}`,
    `  reach   ${reach}`,
    `  moves/game ${s.movesPerGame.toFixed(0)}  ms/move ${s.msPerMove.toFixed(4)}`,
  ].join('\n');
}

/** Left-aligned columns. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd()).join('\n');
}
