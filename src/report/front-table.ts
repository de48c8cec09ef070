/**
 * A two-objective run's validated front as one table (show, the report and the dashboard print the same
 * columns): plain data with no Node import, so the dashboard's bundle takes it too.
 */
import type { FrontPoint } from '../tuner/selection/front';
import { num } from './numbers';

export const FRONT_HEADERS = ['point', 'candidate', 'held-out', '± (95%)', 'nodes/move', 'ms/move', 'noise', 'settings'];

/** The settings of a point as one cell: whole numbers as they are, others to 4 significant digits. */
function settings(params: Record<string, number>): string {
  return Object.entries(params).map(([k, v]) => `${k}=${Number.isInteger(v) ? v : Number(v.toPrecision(4))}`).join(' ');
}

/** The rows, cheapest first (plain text: the caller escapes them for HTML). */
export function frontRows(points: readonly FrontPoint[]): string[][] {
  return points.map((p) => [
    String(p.point),
    `${p.candidate}${p.start ? ' (start)' : ''}`,
    num(p.validation, 1),
    p.halfWidth === null ? '–' : `±${num(p.halfWidth, 0)}`,
    num(p.costPerMove, 1),
    num(p.msPerMove, 4),
    p.withinNoiseOfCheaper ? 'not clearly above the point before' : '',
    settings(p.params),
  ]);
}

/** What the columns mean, under the table. */
export const FRONT_NOTE =
  'nodes/move: the positions the search expands a move, counted by the search (the same on every machine: the cost the run ranks by); ms/move: measured when the point was validated, beside it. ' +
  '"not clearly above the point before": its gain over the next cheaper point is inside the noise of the held-out games.';
