/**
 * The validated candidates as one table (the report and the dashboard print the same columns): in-sample
 * fitness, the model's prediction where it chose them, the held-out value with the games played (a race
 * stops some early), and the second held-out set's value. Plain data with no Node import, so the
 * dashboard's bundle takes it too.
 */
import type { RunDetail } from './run-data';
import { num } from './numbers';

/** Headers and rows (plain text: the caller escapes them for HTML); the model's and the second set's columns only where a finalist has them. */
export function finalistTable(finalists: RunDetail['finalists']): [string[], string[][]] {
  const predicted = finalists.some((f) => f.predicted);
  const confirmed = finalists.some((f) => f.confirmation !== null);
  const raced = finalists.some((f) => f.games !== finalists[0].games);
  const headers = ['candidate', 'generation', 'origin', 'fitness (in-sample)', ...(predicted ? ['predicted (the model, 95 %)'] : []), 'validation (held-out)', ...(raced ? ['held-out games'] : []), ...(confirmed ? ['second held-out set'] : [])];
  const rows = finalists.map((f) => [
    String(f.id),
    String(f.generation),
    f.origin,
    num(f.fitness, 1),
    ...(predicted ? [f.predicted ? `${num(f.predicted.mean, 0)} ± ${num(1.96 * f.predicted.sd, 0)}` : '–'] : []),
    num(f.validation, 1),
    ...(raced ? [String(f.games)] : []),
    ...(confirmed ? [f.confirmation === null ? '–' : num(f.confirmation, 1)] : []),
  ]);
  return [headers, rows];
}
