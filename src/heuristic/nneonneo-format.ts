/**
 * Weights in the form nneonneo/2048-ai reads: the seven constants at the top of its 2048.cpp, whose
 * heuristic is per line SCORE_LOST_PENALTY + SCORE_EMPTY_WEIGHT·empty + SCORE_MERGES_WEIGHT·merges −
 * SCORE_MONOTONICITY_WEIGHT·min(monoL, monoR) over rank^SCORE_MONOTONICITY_POWER − SCORE_SUM_WEIGHT·Σ
 * rank^SCORE_SUM_POWER, over 4 rows and 4 columns: exactly tune2048's line terms alive, empty, merges,
 * monotonicity(+Power) and sum(+Power) (the `nneonneo` preset is its shipped block). Weights that use any
 * other term are refused, naming it: nneonneo's solver would silently play something else.
 */
import { InputError } from '../util/errors';
import type { Weights } from './weights';

/** nneonneo's constant for each of tune2048's fields, in 2048.cpp's order. */
const CONSTANTS: [string, keyof Weights][] = [
  ['SCORE_LOST_PENALTY', 'alive'],
  ['SCORE_MONOTONICITY_POWER', 'monotonicityPower'],
  ['SCORE_MONOTONICITY_WEIGHT', 'monotonicity'],
  ['SCORE_SUM_POWER', 'sumPower'],
  ['SCORE_SUM_WEIGHT', 'sum'],
  ['SCORE_MERGES_WEIGHT', 'merges'],
  ['SCORE_EMPTY_WEIGHT', 'empty'],
];

/** The fields of `w` nneonneo's heuristic does not have (empty: it is in nneonneo's family). */
export function outsideNneonneoFamily(w: Weights): string[] {
  const outside: string[] = [];
  if (w.matrix && w.matrix.some((row) => row.some((x) => x !== 0))) outside.push('matrix');
  if (w.smoothness !== 0) outside.push('smoothness');
  if (w.descents !== 0) outside.push('descents');
  if (w.lines) outside.push('lines');
  if (w.stages) outside.push('stages');
  if (w.learned) outside.push('learned');
  return outside;
}

/** A float as a C float literal that reads back to the same float32 nneonneo computes with. */
function cFloat(x: number): string {
  const f = Math.fround(x);
  const text = Number.isInteger(f) ? `${f}.0` : String(f);
  return `${text}f`;
}

/** The constants block to paste over 2048.cpp's (its lines `static const float SCORE_… = …f;`). */
/**
 * The weights as nneonneo's constants block; with the search a run tuned too (a front point: its depth and
 * cutoff), the lines that make 2048.cpp search as the weights were tuned: its CPROB_THRESH_BASE, and its depth
 * (tune2048's depth is nneonneo's depth_limit; 2048.cpp's own is max(3, distinct tiles − 2)).
 */
export function nneonneoConstants(w: Weights, origin: string, search: { depth?: number; cprob?: number } = {}): string {
  const outside = outsideNneonneoFamily(w);
  if (outside.length > 0) {
    const list = outside.length === 1 ? `${outside[0]} is` : `${outside.slice(0, -1).join(', ')} and ${outside[outside.length - 1]} are`;
    throw new InputError(`${origin}: ${list} not in nneonneo's heuristic (--format nneonneo writes weights of its family only: alive, empty, merges, monotonicity, monotonicityPower, sum, sumPower)`);
  }
  const lines = CONSTANTS.map(([name, field]) => `static const float ${name} = ${cFloat(w[field] as number)};`);
  if (search.cprob !== undefined) lines.push(`static const float CPROB_THRESH_BASE = ${cFloat(search.cprob)}; // tuned with these weights: replace 2048.cpp's line`);
  if (search.depth !== undefined) lines.push(`// tuned at depth ${search.depth}: in score_toplevel_move, set state.depth_limit = ${search.depth}; (2048.cpp's own: std::max(3, count_distinct_tiles(board) - 2))`);
  return `// ${w.name ?? 'weights'} as nneonneo/2048-ai's heuristic constants (written by tune2048; replace the block in 2048.cpp)\n${lines.join('\n')}\n`;
}
