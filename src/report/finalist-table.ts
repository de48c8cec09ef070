/**
 * The validated candidates as one table (the report and the dashboard print the same columns): in-sample
 * fitness, the model's prediction where it chose them, the held-out value with the games played (a race
 * stops some early), and the second held-out set's value. Plain data with no Node import, so the
 * dashboard's bundle takes it too.
 */
import type { RunDetail } from './run-data';
import { num } from './numbers';

/**
 * Headers and rows (plain text: the caller escapes them for HTML); the model's and the second set's columns only
 * where a finalist has them. Screened (fitness.screen), the in-sample and predicted figures are regrets.
 */
export function finalistTable(finalists: RunDetail['finalists'], screened = false): [string[], string[][]] {
  const predicted = finalists.some((f) => f.predicted);
  const confirmed = finalists.some((f) => f.confirmation !== null);
  const raced = finalists.some((f) => f.games !== finalists[0].games);
  const headers = ['candidate', 'generation', 'origin', screened ? 'regret (in-sample)' : 'fitness (in-sample)', ...(predicted ? [screened ? 'predicted regret (the model, 95 %)' : 'predicted (the model, 95 %)'] : []), 'validation (held-out)', ...(raced ? ['held-out games'] : []), ...(confirmed ? ['second held-out set'] : [])];
  const rows = finalists.map((f) => [
    String(f.id),
    String(f.generation),
    f.origin,
    screened ? (f.fitness === null ? '–' : num(-f.fitness, 2)) : num(f.fitness, 1),
    ...(predicted ? [!f.predicted ? '–' : screened ? `${num(-f.predicted.mean, 2)} ± ${num(1.96 * f.predicted.sd, 2)}` : `${num(f.predicted.mean, 0)} ± ${num(1.96 * f.predicted.sd, 0)}`] : []),
    num(f.validation, 1),
    ...(raced ? [String(f.games)] : []),
    ...(confirmed ? [f.confirmation === null ? '–' : num(f.confirmation, 1)] : []),
  ]);
  return [headers, rows];
}
