/**
 * A small self-contained SVG line chart (lines, optional min–max bands,
 * axes with round ticks, legend). Static figures for docs and offline HTML
 * reports need no script and no network; this is all they need.
 */
export interface Series {
  name: string;
  points: readonly (readonly [number, number])[];
  /** Optional band around the line: [x, low, high]. */
  band?: readonly (readonly [number, number, number])[];
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  width?: number;
  height?: number;
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#7f7f7f'];

/** About `count` round tick values, from a multiple of the step at or below lo to one at or above hi. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  // The round step whose tick count is closest to the one asked for.
  const steps = [1, 2, 2.5, 5, 10].map((m) => m * mag);
  const step = steps.reduce((best, s) => (Math.abs((hi - lo) / s - count) < Math.abs((hi - lo) / best - count) ? s : best));
  const ticks: number[] = [];
  const last = Math.ceil(hi / step - 1e-9) * step;
  for (let t = Math.floor(lo / step + 1e-9) * step; t <= last + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** Escapes text for HTML/SVG content and double-quoted attributes. */
/** Text for HTML or SVG markup and attributes (the report, the dashboard's server and its pages). */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const esc = escapeHtml;
const fmt = (v: number) => (Math.abs(v) >= 10000 ? `${Number((v / 1000).toPrecision(4))}k` : String(Number(v.toPrecision(4))));

export function lineChart(series: readonly Series[], o: ChartOptions): string {
  const width = o.width ?? 720;
  const height = o.height ?? 400;
  const m = { left: 70, right: 150, top: 40, bottom: 50 };
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => [...s.points.map((p) => p[1]), ...(s.band ?? []).flatMap((b) => [b[1], b[2]])]);
  const xTicks = niceTicks(Math.min(...xs), Math.max(...xs));
  const yTicks = niceTicks(Math.min(...ys), Math.max(...ys));
  const [x0, x1] = [Math.min(xTicks[0], ...xs), Math.max(xTicks[xTicks.length - 1], ...xs)];
  const [y0, y1] = [Math.min(yTicks[0], ...ys), Math.max(yTicks[yTicks.length - 1], ...ys)];
  const px = (x: number) => m.left + ((x - x0) / (x1 - x0 || 1)) * (width - m.left - m.right);
  const py = (y: number) => height - m.bottom - ((y - y0) / (y1 - y0 || 1)) * (height - m.top - m.bottom);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${esc(o.title)}</text>`,
  ];
  for (const t of yTicks) {
    out.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${py(t)}" y2="${py(t)}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${m.left - 6}" y="${py(t) + 4}" text-anchor="end">${fmt(t)}</text>`);
  }
  for (const t of xTicks) out.push(`<text x="${px(t)}" y="${height - m.bottom + 16}" text-anchor="middle">${fmt(t)}</text>`);
  out.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${height - m.bottom}" y2="${height - m.bottom}" stroke="#333"/>`);
  out.push(`<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${height - m.bottom}" stroke="#333"/>`);
  out.push(`<text x="${(m.left + width - m.right) / 2}" y="${height - 12}" text-anchor="middle">${esc(o.xLabel)}</text>`);
  out.push(`<text transform="translate(16 ${(m.top + height - m.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`);
  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    if (s.band && s.band.length > 1) {
      const upper = s.band.map((b) => `${px(b[0])},${py(b[2])}`);
      const lower = [...s.band].reverse().map((b) => `${px(b[0])},${py(b[1])}`);
      out.push(`<polygon points="${[...upper, ...lower].join(' ')}" fill="${color}" fill-opacity="0.15" stroke="none"/>`);
    }
    out.push(`<polyline class="series" data-name="${esc(s.name)}" points="${s.points.map((p) => `${px(p[0])},${py(p[1])}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const p of s.points) out.push(`<circle cx="${px(p[0])}" cy="${py(p[1])}" r="3" fill="${color}"/>`);
    const ly = m.top + 10 + i * 20;
    out.push(`<line x1="${width - m.right + 12}" x2="${width - m.right + 32}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"/>`);
    out.push(`<text x="${width - m.right + 38}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
