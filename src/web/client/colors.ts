/** The colours of chart series: data take the palette in order, reference levels greys and browns of their own. */

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
const LEVELS = ['#444444', '#8c6d31', '#aaaaaa', '#bd9e39', '#222222', '#c7c7c7'];

export const color = (i: number) => PALETTE[i % PALETTE.length];

/** One stroke per series: a level (dashed) never shares a data series' colour, whatever their number (a front chart has 13). */
export function seriesStrokes(series: readonly { dashed?: boolean }[]): string[] {
  let data = 0;
  let level = 0;
  return series.map((s) => (s.dashed ? LEVELS[level++ % LEVELS.length] : color(data++)));
}
