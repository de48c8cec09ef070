/** A figure as the tool prints an objective or a setting: whole numbers with separators from 100 up (scores), else three digits (rates, log2 tiles, a cutoff). */
export function figure(x: number): string {
  return Math.abs(x) >= 100 ? Math.round(x).toLocaleString('en-US') : String(Number(x.toPrecision(3)));
}
