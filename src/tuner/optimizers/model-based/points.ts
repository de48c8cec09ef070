/**
 * A run's games pooled by point, for the optimizers that model every game (the model optimizer, the surrogate):
 * copies and replays of one point (space/point.ts: two genomes that play as one player) are one point, its games
 * all of theirs. Pooling by anything finer would count a point's games on one seed twice as two independent
 * observations, and bias the noise measured within points low.
 */
import type { Evaluated } from '../optimizer';

export interface PooledPoint {
  /** The point's key (space/point.ts). */
  key: string;
  /** A genome that plays it: the latest candidate's. */
  genome: number[];
  /** Every game's objective value, candidate by candidate in the order played. */
  scores: number[];
  /** The games that counted the positions their search expanded (a run that counts cost). */
  counted: { nodes: number; moves: number }[];
  /** Games of a run that counts cost whose player reported no count: left out of the point's cost. */
  uncounted: number;
  /** The latest candidate that played it. */
  latest: number;
}

/** Each point's games over every candidate that played it, in the order first played. */
export function poolByPoint(history: readonly Evaluated[], pointKey: (genome: readonly number[]) => string): PooledPoint[] {
  const byKey = new Map<string, PooledPoint>();
  for (const c of history) {
    if (c.scores.length === 0 || !c.scores.every(Number.isFinite)) continue;
    const key = pointKey(c.genome);
    let p = byKey.get(key);
    if (!p) byKey.set(key, (p = { key, genome: c.genome, scores: [], counted: [], uncounted: 0, latest: c.id }));
    p.scores.push(...c.scores);
    for (const g of c.costGames ?? []) {
      if (g.nodes === undefined) p.uncounted++;
      else p.counted.push({ nodes: g.nodes, moves: g.moves });
    }
    if (c.id >= p.latest) {
      p.latest = c.id;
      p.genome = c.genome;
    }
  }
  return [...byKey.values()];
}

/** The pooled variance of one game within points (each played more than once), and its degrees of freedom. */
export function withinPoints(groups: readonly (readonly number[])[]): { variance: number; dof: number } {
  let ss = 0;
  let dof = 0;
  for (const g of groups) {
    if (g.length < 2) continue;
    const m = g.reduce((s, v) => s + v, 0) / g.length;
    ss += g.reduce((s, v) => s + (v - m) ** 2, 0);
    dof += g.length - 1;
  }
  return { variance: dof > 0 ? ss / dof : NaN, dof };
}
