/**
 * Pareto fronts of points with several objectives, every objective to be maximised (a cost enters negated):
 * Deb et al. 2002's fast non-dominated sort and crowding distance (NSGA-II), and the hypervolume of a
 * two-objective front.
 */

/** One point's objectives, each to be maximised. */
export type Objectives = readonly number[];

/** True when `a` is at least as good as `b` in every objective and better in one. */
export function dominates(a: Objectives, b: Objectives): boolean {
  let better = false;
  for (let k = 0; k < a.length; k++) {
    if (a[k] < b[k]) return false;
    if (a[k] > b[k]) better = true;
  }
  return better;
}

/**
 * The points' indices front by front: the first front is dominated by none, the second only by the first,
 * and so on (Deb's fast sort: each point's dominators counted once, O(m·n²)). Within a front, indices ascend.
 */
export function nonDominatedSort(points: readonly Objectives[]): number[][] {
  const n = points.length;
  const dominated: number[][] = points.map(() => []);
  const count = new Array<number>(n).fill(0);
  const fronts: number[][] = [[]];
  for (let p = 0; p < n; p++) {
    for (let q = p + 1; q < n; q++) {
      if (dominates(points[p], points[q])) {
        dominated[p].push(q);
        count[q]++;
      } else if (dominates(points[q], points[p])) {
        dominated[q].push(p);
        count[p]++;
      }
    }
  }
  for (let p = 0; p < n; p++) if (count[p] === 0) fronts[0].push(p);
  for (let f = 0; fronts[f].length > 0; f++) {
    const next: number[] = [];
    for (const p of fronts[f]) for (const q of dominated[p]) if (--count[q] === 0) next.push(q);
    next.sort((a, b) => a - b);
    fronts.push(next);
  }
  fronts.pop(); // the empty one that ended the loop
  return n === 0 ? [] : fronts;
}

/**
 * Crowding distance of each point of one front (aligned with `front`): per objective, the gap between its
 * two neighbours over the objective's range on the front; the two ends of every objective are infinite, so
 * a front's extremes are always kept.
 */
export function crowdingDistance(points: readonly Objectives[], front: readonly number[]): number[] {
  const distance = new Array<number>(front.length).fill(0);
  if (front.length === 0) return distance;
  const m = points[front[0]].length;
  for (let k = 0; k < m; k++) {
    // Ties keep the front's order, so the distances never depend on a sort's whims.
    const order = front.map((_, i) => i).sort((a, b) => points[front[a]][k] - points[front[b]][k] || a - b);
    const lo = points[front[order[0]]][k];
    const hi = points[front[order[order.length - 1]]][k];
    distance[order[0]] = Infinity;
    distance[order[order.length - 1]] = Infinity;
    if (hi === lo) continue;
    for (let i = 1; i < order.length - 1; i++) distance[order[i]] += (points[front[order[i + 1]]][k] - points[front[order[i - 1]]][k]) / (hi - lo);
  }
  return distance;
}

/**
 * The area that a set of two-objective points dominates above `reference` (both objectives maximised;
 * points not above the reference in both add nothing).
 */
export function hypervolume2d(points: readonly Objectives[], reference: readonly [number, number]): number {
  const above = points.filter((p) => p[0] > reference[0] && p[1] > reference[1]);
  // By the first objective, best first: each point adds the strip of the second it raises.
  const sorted = [...above].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  let area = 0;
  let top = reference[1];
  for (const p of sorted) {
    if (p[1] <= top) continue;
    area += (p[0] - reference[0]) * (p[1] - top);
    top = p[1];
  }
  return area;
}
