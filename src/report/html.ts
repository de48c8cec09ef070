/**
 * What every offline report page shares (a tuning run's, a learning run's): its head with the inline CSS,
 * plain HTML tables, the data as JSON inside the page and the chart script (uPlot, bundled into
 * build/web/report-charts.js by `npm run build`), inlined: nothing is fetched.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { escapeHtml as esc } from './svg';

const WEB = resolve(__dirname, '..', '..', 'build', 'web');

function asset(name: string): string {
  try {
    return readFileSync(join(WEB, name), 'utf8');
  } catch {
    throw new Error(`the report's chart script "${join(WEB, name)}" is missing; build it with: npm run build`);
  }
}

/** The page's head: its title (escaped here) and the styles of the tables and charts. */
export function pageHead(title: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>${esc(title)}</title>
<style>
body { font-family: sans-serif; max-width: 980px; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 1em 0; } th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1.5em 0; } code { background: #f4f4f4; padding: 0 3px; } .table-scroll { overflow-x: auto; }
${asset('uPlot.min.css')}
</style></head>`;
}

export function htmlTable(head: string[], rows: (string | number)[][]): string {
  const th = head.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(String(c))}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** JSON inside a <script> element: "</" would end the element early. */
export const scriptJson = (data: unknown) => JSON.stringify(data).replace(/<\//g, '<\\/');

/** The chart script, inlined (it draws from the page's data element). */
export const chartScript = () => `<script>${asset('report-charts.js').replace(/<\/script/gi, '<\\/script')}</script>`;
