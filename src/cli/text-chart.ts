/**
 * A curve drawn in text for a terminal (learn show): points as dots on a grid, the y axis labelled at its
 * ends, the x axis at its ends. No library draws a plain-text scatter as small as this.
 */
export function textChart(points: readonly { x: number; y: number }[], o: { width?: number; height?: number; xLabel: string; yLabel: string }): string {
  const width = o.width ?? 60;
  const height = o.height ?? 12;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(0, ...ys), Math.max(...ys)];
  const grid = Array.from({ length: height }, () => Array<string>(width).fill(' '));
  for (const p of points) {
    const col = x1 === x0 ? 0 : Math.round(((p.x - x0) / (x1 - x0)) * (width - 1));
    const row = y1 === y0 ? height - 1 : height - 1 - Math.round(((p.y - y0) / (y1 - y0)) * (height - 1));
    grid[row][col] = '●';
  }
  const label = (v: number) => Math.round(v).toLocaleString('en-US');
  const pad = Math.max(label(y1).length, label(y0).length);
  const lines = grid.map((cells, r) => `${(r === 0 ? label(y1) : r === height - 1 ? label(y0) : '').padStart(pad)} │${cells.join('')}`);
  lines.push(`${' '.repeat(pad)} └${'─'.repeat(width)}`);
  const left = x0.toFixed(1);
  const right = x1.toFixed(1);
  lines.push(`${' '.repeat(pad + 2)}${left}${' '.repeat(Math.max(1, width - left.length - right.length))}${right}`);
  lines.push(`${' '.repeat(pad + 2)}${o.yLabel} against ${o.xLabel}`);
  return lines.join('\n');
}
