/**
 * Time per move as a setting (--ms-per-move): iterative deepening over a search whose depth is a parameter.
 * Depths 1, 2, … are searched in turn, each from scratch (a new table epoch), up to the depth limit; after
 * each one the next is predicted to take as long as this one times the growth seen from the one before
 * (8× before there is one), and it is not started when it would end past the budget. The move is the
 * deepest finished search's, so it is always the move the fixed-depth player at that depth chooses: the
 * budget decides how deep, never which move at a depth. Depth 1 (0 when that is the limit) always runs.
 *
 * A budget makes games depend on the machine's speed and load: two runs of one seed may differ. The clock
 * is a parameter so tests can drive it.
 */

/** The growth from one depth to the next assumed before two depths were timed (a chance layer costs ~8× at mid-game). */
const FIRST_GROWTH = 8;

export type Clock = () => number;

export interface Deepening {
  /** The depth whose search stands (its values are the searcher's last). */
  depth: number;
  ms: number;
}

/**
 * Runs `searchAt(d)` for d = 1 … limit (or just 0 when the limit is 0) while the budget allows; returns the
 * deepest depth searched. `searchAt` leaves its result where the caller reads it (its last call's stands).
 */
export function deepen(limit: number, budgetMs: number, searchAt: (depth: number) => void, now: Clock = performance.now.bind(performance)): Deepening {
  const start = now();
  let previous = 0;
  let depth = Math.min(1, limit);
  for (;;) {
    const t0 = now();
    searchAt(depth);
    const took = now() - t0;
    if (depth >= limit) break;
    const growth = previous > 0 ? Math.max(1, took / previous) : FIRST_GROWTH;
    if (now() - start + took * growth > budgetMs) break;
    previous = took;
    depth++;
  }
  return { depth, ms: now() - start };
}

/**
 * A decision's search: at `limit`, or with a time per move (budgetMs > 0) as deep as it allows (deepen).
 * Returns the depth whose search stands (the one a player counts as searched).
 */
export function searchWithin(limit: number, budgetMs: number | undefined, searchAt: (depth: number) => void, now?: Clock): number {
  if (!budgetMs) {
    searchAt(limit);
    return limit;
  }
  return deepen(limit, budgetMs, searchAt, now).depth;
}
