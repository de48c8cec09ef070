/**
 * The run report: one self-contained offline HTML file — inline CSS, the run's
 * data as JSON and the same chart script as the dashboard (uPlot, bundled into
 * build/web/report-charts.js by `npm run build`), inlined; nothing is fetched.
 * The tables are plain HTML, so the numbers read without any script.
 */
import { reachCells, REACH_HEADERS } from '../compare/summary';
import { comparisonNotes } from '../compare/compare';
import type { Store } from '../store/store';
import { cliName, shellWord, suggest } from '../util/command-hint';
import { describeModel } from '../tuner/optimizers/optimizer';
import { runDetail } from './run-data';
import { escapeHtml } from './svg';
import { chartScript, htmlTable, pageHead, scriptJson } from './html';
import { FRONT_HEADERS, FRONT_NOTE, frontRows } from './front-table';
import { finalistTable } from './finalist-table';
import { interval, num as formatNumber } from './numbers';

const esc = escapeHtml;
/** The report's numbers: one decimal unless said (the dashboard's formatter, digits given). */
const num = (x: number | null | undefined, digits = 1) => formatNumber(x, digits);

/** Every number of a weights object as rows (name, value, exactly as export writes it): arrays by index, nested objects by path. */
function weightRows(w: unknown, prefix = ''): [string, string][] {
  if (typeof w === 'number') return [[prefix, String(w)]];
  if (Array.isArray(w)) return w.every((x) => typeof x === 'number') ? [[prefix, `[${w.join(', ')}]`]] : w.flatMap((x, i) => weightRows(x, `${prefix}[${i}]`));
  if (w && typeof w === 'object') return Object.entries(w).flatMap(([k, v]) => weightRows(v, prefix ? `${prefix}.${k}` : k));
  return [];
}
/** The fields of a weights file that are not weights. */
const NOT_WEIGHTS = new Set(['format', 'version', 'name', 'description', 'source', 'provenance']);

export function buildRunReport(store: Store, runId: number): string {
  const d = runDetail(store, runId);
  const { run, settings: s } = d;
  const racing = s.racing;
  const modelled = d.generations.some((g) => g.model);
  const sweepHtml = d.sweeps
    .map(
      (w) =>
        `<h3 id="sweep-${w.id}">Depth sweep of ${esc(w.weights)} (${w.games} games per depth)</h3>\n` +
        htmlTable(
          ['depth', 'mean', 'median', 'max', ...REACH_HEADERS, 'moves/game', 'ms/move'],
          w.depths.map(({ depth, summary: m }) => [String(depth), num(m.meanScore, 0), num(m.medianScore, 0), num(m.maxScore, 0), ...reachCells(m), num(m.movesPerGame, 0), num(m.msPerMove, 4)]),
        ),
    )
    .join('\n');
  const comparisonHtml = d.comparisons
    .map((c) => {
      const summary = htmlTable(
        ['contender', 'mean', '95% CI', 'median', 'stdev', ...REACH_HEADERS, 'moves/game', 'ms/move'],
        c.contenders.map((k) => [k.label, num(k.summary.meanScore, 0), interval(k.meanCI95.low, k.meanCI95.high), num(k.summary.medianScore, 0), num(k.summary.stdevScore, 0), ...reachCells(k.summary), num(k.summary.movesPerGame, 0), num(k.summary.msPerMove, 4)]),
      );
      const holm = c.pairs.some((p) => p.pHolm !== undefined);
      const pValue = (p: number) => (p < 1e-6 ? '< 1e-6' : p.toPrecision(2));
      const pairs = htmlTable(
        ['pair', 'mean difference', '95% CI', 'relative', 'Wilcoxon z', 'p', ...(holm ? ['p (Holm)'] : []), 'seed correlation', 'games for ±5% (80% power)'],
        c.pairs.map((p) => [
          `${p.a} − ${p.b}`,
          num(p.meanDiff, 0),
          `${interval(p.ci95.low, p.ci95.high)}${p.ciMethod === 't' ? ' (t)' : ''}`,
          `${p.relative < 0 ? '−' : ''}${Math.abs(100 * p.relative).toFixed(1)}%`,
          num(p.wilcoxon.z, 2),
          pValue(p.wilcoxon.p),
          ...(holm ? [p.pHolm === undefined ? '–' : pValue(p.pHolm)] : []),
          p.pairing ? p.pairing.correlation.toFixed(2) : '–',
          p.pairing?.gamesFor5PercentPower80 !== undefined ? String(p.pairing.gamesFor5PercentPower80) : '–',
        ]),
      );
      const notes = comparisonNotes(c).map((n) => `<p class="note">${esc(n)}</p>`).join('\n');
      // The command that ran it, as run (a comparison stored before commands were kept: none).
      const ran = c.command ? `<p>Played by <code>${esc(`${cliName()} ${c.command.map(shellWord).join(' ')}`)}</code>.</p>\n` : '';
      return `${ran}<figure id="comparison-${c.id}"><div id="chart-comparison-${c.id}" class="chart"></div></figure>\n${summary}\n${pairs}${notes ? `\n${notes}` : ''}`;
    })
    .join('\n');

  return `${pageHead(`tune2048 run ${run.id}: ${run.name}`)}
<body>
<h1>tune2048 run ${run.id}: ${esc(run.name)}</h1>
<p id="summary">Status <b>${esc(d.run.status)}</b>${d.run.processGone ? ' (its process is gone)' : ''}${run.error ? ` (${esc(run.error)})` : ''}; optimizer <code>${esc(s.optimizer)}</code>;
${d.generations.length} generations done; player <code>${esc(s.player)}</code>; fitness: ${s.games} games per candidate${racing ? ` (racing: ${racing.rounds} slices, the best ${racing.keep} of the field going on after each; the table gives each candidate's games)` : ''}${s.player.startsWith('external:') ? '' : ` at depth ${esc(String(s.depth))}`}, objective <code>${esc(s.objective)}</code>;
start <code>${esc(s.start)}</code>; seed ${s.seed}; config hash <code>${esc(s.configHash)}</code>.</p>
<h2>Fitness</h2>
<figure id="fitness"><div id="chart-fitness" class="chart"></div></figure>
${htmlTable(['generation', 'best', 'mean', 'stdev', 'step size', 'games', ...(racing ? ['games per candidate (racing)'] : []), 'seconds', ...(modelled ? ['model (its point: predicted mean, 95 %)'] : [])], d.generations.map((g) => [g.idx, num(g.best), num(g.mean), num(g.stdev), num(g.step, 4), g.games, ...(racing ? [g.gamesPerCandidate.join(' ')] : []), num(g.seconds), ...(modelled ? [g.model ? describeModel(g.model) : ''] : [])]))}
${d.generations.some((g) => g.step !== null) ? `<h2>Step size</h2>\n<figure id="step"><div id="chart-step" class="chart"></div></figure>` : ''}
<h2>Tuned parameters</h2>
<figure id="params"><div id="chart-params" class="chart"></div></figure>
${htmlTable(['parameter', 'min', 'max', 'scale', 'best (validated)'], d.params.map((p) => [p.name, num(p.min, 4), num(p.max, 4), p.scale, d.best?.validated && p.best !== null ? num(p.best, 4) : '–']))}
${d.best?.weights ? `<h2>The best weights, whole</h2>\n<p>Candidate ${d.best.candidate}${d.best.validated ? ' (validated)' : ' (the best in-sample so far)'}: every weight as <code>${esc(suggest(['export', String(run.id)], store.path))}</code> writes it.</p>\n${htmlTable(['weight', 'value'], Object.entries(d.best.weights).filter(([k]) => !NOT_WEIGHTS.has(k)).flatMap(([k, v]) => weightRows(v, k)))}` : ''}
${d.front ? `<h2>Strength against cost: the validated front</h2>\n<figure id="front"><div id="chart-front" class="chart"></div></figure>\n${htmlTable(FRONT_HEADERS, frontRows(d.front))}\n<p>${esc(FRONT_NOTE)} <code>${esc(suggest(['export', String(run.id), '--point', '1'], store.path))}</code> writes point 1 (K: point K); <code>--max-cost</code> or <code>--max-ms-per-move</code> the strongest within a budget.</p>` : ''}
<h2>Validation of the finalists</h2>
<p>${s.validationGames} held-out games each; the winner is the run's best${d.best?.validated ? ` (candidate ${d.best.candidate})` : ''}.</p>
${d.startVerdict ? `<p class="verdict">${esc(d.startVerdict)}</p>` : ''}
${htmlTable(...finalistTable(d.finalists, d.settings.screen !== null))}
${d.sweeps.length ? `<h2>Depth sweeps</h2>\n${sweepHtml}` : ''}
${d.comparisons.length ? `<h2>Comparisons</h2>\n<p>Comparisons stored with this run (<code>compare … --run ${run.id}</code>); in each, every contender played the same seeds.</p>\n${comparisonHtml}` : ''}
<script type="application/json" id="run-data">${scriptJson(d)}</script>
${chartScript()}
</body></html>
`;
}
