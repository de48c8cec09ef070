/** Numbers as the report and the dashboard print them (one formatter for both). */

/** A number as people read it: thousands separated, a true minus sign ("−12,811.5"), a dash when there is none. */
export function num(x: number | null | undefined, digits = 0): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  const text = Math.abs(x).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return /[1-9]/.test(text) && x < 0 ? `−${text}` : text;
}

/** An interval: "−12,811 to 10,448" (a dash between two numbers that may be negative reads as a minus). */
export function interval(low: number, high: number, digits = 0): string {
  return `${num(low, digits)} to ${num(high, digits)}`;
}
