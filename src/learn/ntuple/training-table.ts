/**
 * A learning run's curve as a markdown table anyone can read beside the published one (scripts/training-table.ts):
 * at every `every` games the held-out greedy mean with its 16384 and 32768 rates and the CPU minutes so far,
 * then ziap/2048-tdl's published rows for the same 4×6 recipe (report/published.ts; shared/anchors.md).
 */
import type { CheckpointStats } from './network-run';
import { ZIAP_4X6_RESTARTS } from '../../report/published';
import { RATE_TILES, type GamesSummary } from './training';

export interface CurvePoint {
  games: number;
  cpuSeconds?: number;
  heldOut: Pick<GamesSummary, 'games' | 'mean' | 'rates'> | null;
}

/** The stored curve's points (learnCurve's rows with their CheckpointStats). */
export function curvePoints(rows: readonly { games: number; stats?: unknown }[]): CurvePoint[] {
  return rows.map((r) => {
    const s = (r.stats ?? {}) as Partial<CheckpointStats>;
    return { games: r.games, cpuSeconds: s.cpuSeconds, heldOut: s.heldOut ?? null };
  });
}

/** Held-out games pooled (each checkpoint weighted by its games): the mean and the share reaching each rate tile. */
export function pooled(points: readonly CurvePoint[]): { games: number; mean: number; rates: number[] } | null {
  const held = points.flatMap((p) => (p.heldOut ? [p.heldOut] : []));
  const games = held.reduce((a, h) => a + h.games, 0);
  if (!games) return null;
  const avg = (f: (h: (typeof held)[number]) => number) => held.reduce((a, h) => a + f(h) * h.games, 0) / games;
  return { games, mean: avg((h) => h.mean), rates: held[0].rates.map((_, i) => avg((h) => h.rates[i])) };
}

/**
 * The table's lines. A row at every `every` games and at the last checkpoint; beside each row, every checkpoint
 * since the row before pooled: one checkpoint's 500 held-out games carry about ±8,000 of noise, and the pooled
 * games (the same held-out seeds, networks a few thousand games apart) show the trend under it.
 */
export function trainingTable(points: readonly CurvePoint[], every: number): string[] {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const num = (x: number) => Math.round(x).toLocaleString('en-US');
  const [i16k, i32k] = [RATE_TILES.indexOf(16384), RATE_TILES.indexOf(32768)];
  const lines = ['| games | CPU minutes | held-out greedy (games) | 16384 | 32768 | pooled since the row before: mean (games) | 16384 | 32768 |', '|---|---|---|---|---|---|---|---|'];
  let from = 0;
  for (const p of points.filter((q, i) => q.games % every === 0 || i === points.length - 1)) {
    const h = p.heldOut;
    const pool = pooled(points.filter((q) => q.games > from && q.games <= p.games));
    const cells = [
      num(p.games),
      p.cpuSeconds === undefined ? '–' : (p.cpuSeconds / 60).toFixed(1),
      h ? `${num(h.mean)} (${num(h.games)})` : '–',
      h ? pct(h.rates[i16k]) : '–',
      h ? pct(h.rates[i32k]) : '–',
      pool ? `${num(pool.mean)} (${num(pool.games)})` : '–',
      pool ? pct(pool.rates[i16k]) : '–',
      pool ? pct(pool.rates[i32k]) : '–',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
    from = p.games;
  }
  for (const r of ZIAP_4X6_RESTARTS) lines.push(`| published: ${num(r.games)} (${r.source}) | — | ${num(r.greedy)}; 3-ply ${num(r.threePly)} | 3-ply ${pct(r.r16384)} | 3-ply ${pct(r.r32768)} | | | |`);
  return lines;
}
