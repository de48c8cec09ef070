/**
 * The dashboard's front end: the runs page (/), a run's page (/runs/:id) and
 * the game viewer (/viewer). Pages poll the JSON API (every 1.5 s) and redraw
 * only what changed, so a running tune updates without a reload.
 */
import type { RunDetail } from '../../report/run-data';
import { reachCells, REACH_HEADERS } from '../../compare/summary';
import type { RunListItem } from '../../report/run-list';
import { escapeHtml } from '../../report/svg';
import { drawLearnCharts, drawRunCharts } from './charts';
import { LEARN_HEADERS, learnRows } from '../../report/learn-table';
import { FRONT_HEADERS, FRONT_NOTE, frontRows } from '../../report/front-table';
import { finalistTable } from '../../report/finalist-table';
import type { LearnItem, LearnPoint } from '../../report/learn-data';
import { startViewer } from './viewer';
import { describeModel } from '../../tuner/optimizers/optimizer';

const POLL_MS = 1500;
const app = document.getElementById('app')!;

const esc = (s: unknown) => escapeHtml(String(s));
export { num } from '../../report/numbers';
import { interval, num } from '../../report/numbers';

function duration(sec: number | null): string {
  if (sec === null) return '–';
  const s = Math.round(sec);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s % 60} s` : `${s} s`;
}

export function table(head: string[], rows: string[][], id?: string): string {
  return `<table${id ? ` id="${id}"` : ''}><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

async function getJson<T>(url: string): Promise<T> {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${(await r.json().catch(() => ({ error: '' }))).error ?? ''}`);
  return (await r.json()) as T;
}

/** Calls `tick` now and every POLL_MS; redraws only when the JSON it returns changed. */
function poll<T>(url: string, draw: (data: T) => void): void {
  let last = '';
  const tick = async () => {
    try {
      const data = await getJson<T>(url);
      const text = JSON.stringify(data);
      if (text !== last) {
        last = text;
        draw(data);
      }
      document.body.dataset.live = 'ok';
    } catch (e) {
      document.body.dataset.live = 'error';
      console.warn(`refresh failed: ${(e as Error).message}`);
    }
    setTimeout(tick, POLL_MS);
  };
  void tick();
}

function runsPage(): void {
  document.title = 'tune2048 — runs';
  app.innerHTML = `<h1>Runs</h1><div id="runs">loading…</div><div id="learn-runs"></div>`;
  poll<LearnItem[]>('/api/learn', (runs) => {
    document.getElementById('learn-runs')!.innerHTML = runs.length === 0 ? '' : `<h2>Learning runs</h2>${table(
      ['run', 'name', 'network', 'status', 'games', 'latest mean'],
      runs.map((r) => [`<a href="/learn/${r.id}">${r.id}</a>`, esc(r.name), esc(r.network), `<span class="status ${esc(r.status)}">${esc(r.status)}</span>`, `${num(r.games)} / ${num(r.total)}`, num(r.latestMean)]),
      'learn-table',
    )}`;
  });
  poll<RunListItem[]>('/api/runs', (runs) => {
    const el = document.getElementById('runs')!;
    if (runs.length === 0) {
      // The command as it runs where the server was started, with this database (the server says: /api/info).
      if (!document.getElementById('no-tuning-runs')) {
        el.innerHTML = '<p id="no-tuning-runs">No tuning runs in this database yet.</p>';
        void info.then((i) => (el.querySelector('#no-tuning-runs')!.innerHTML = `No tuning runs in this database yet. Start one with <code>${esc(i.start)}</code>.`), () => {});
      }
      return;
    }
    el.innerHTML = table(
      ['run', 'name', 'status', 'optimizer', 'generation', 'games', 'best (validated)', 'best in-sample', 'elapsed', 'ETA'],
      runs.map((r) => [
        `<a href="/runs/${r.id}">${r.id}</a>`,
        esc(r.name),
        `<span class="status ${esc(r.status)}">${esc(r.status)}</span>`,
        esc(r.optimizer),
        `<span class="generation">${r.generation} / ${r.generations}${r.phase === 'validation' ? ', validating' : ''}</span>`,
        num(r.games),
        num(r.validatedBest),
        num(r.bestInSample),
        duration(r.elapsedSec),
        r.status === 'running' ? duration(r.etaSec) : '–',
      ]),
      'runs-table',
    );
  });
}

/** What of a version-2 weight set the heat map and the table above do not show. */
function versionTwoNotes(w: { lines?: object; stages?: { by: string; list: unknown[] }; learned?: { table: string; sha256: string; weight: number } }): string {
  const notes: string[] = [];
  if (w.learned) notes.push(`plus the learned line tables ${esc(w.learned.table.split('/').pop() ?? '')} (sha256 ${esc(w.learned.sha256.slice(0, 12))}…) × ${num(w.learned.weight, 3)}`);
  if (w.lines) notes.push(`line-position terms for ${esc(Object.keys(w.lines).join(', '))}`);
  if (w.stages) notes.push(`${w.stages.list.length} stages by ${esc(w.stages.by)} (above: the base weights; export shows each stage)`);
  return notes.map((n) => `<p class="note">${n}</p>`).join('');
}

/** The positional matrix as a 4×4 heat map (darker = larger weight). */
function heatMap(matrix: number[][] | undefined, on: string): string {
  if (!matrix) return '<p>No positional matrix in these weights (line terms only).</p>';
  const flat = matrix.flat();
  const lo = Math.min(...flat);
  const hi = Math.max(...flat);
  const cells = matrix
    .map((row) => `<tr>${row.map((x) => {
      const t = hi > lo ? (x - lo) / (hi - lo) : 0.5;
      return `<td style="background: rgba(214, 39, 40, ${(0.1 + 0.85 * t).toFixed(2)}); color: ${t > 0.55 ? '#fff' : '#222'}">${num(x, Math.abs(x) < 10 ? 2 : 0)}</td>`;
    }).join('')}</tr>`)
    .join('');
  return `<table class="heatmap" id="heatmap">${cells}</table><p class="note">matrix on tile ${esc(on)}s</p>`;
}

function runPage(id: number): void {
  document.title = `tune2048 — run ${id}`;
  app.innerHTML = `<h1>Run ${id}</h1><div id="run-summary">loading…</div>
<h2>Fitness</h2><div id="chart-fitness" class="chart"></div><div id="generations"></div>
<div id="step"></div>
<h2>Tuned parameters</h2><div id="chart-params" class="chart"></div><div id="params"></div>
<h2>Best weights</h2><div id="best"></div>
<div id="front"></div>
<h2>Validation of the finalists</h2><div id="finalists"></div>
<div id="sweeps"></div><div id="comparisons"></div>`;
  poll<RunDetail>(`/api/runs/${id}`, (d) => {
    const r = d.run;
    const s = d.settings;
    const modelled = d.generations.some((g) => g.model);
    document.getElementById('run-summary')!.innerHTML = `<p><b>${esc(r.name)}</b> — status <span class="status ${esc(r.status)}" id="status">${esc(r.status)}</span>${r.error ? ` (${esc(r.error)})` : ''};
      <span id="generation">generation ${r.generation} of ${r.generations}</span>;${r.phase === 'validation' && r.validation ? ` <span id="phase">validating: ${num(r.validation.done)} of ${num(r.validation.total)} held-out games</span>;` : ''} ${num(r.games)} games; elapsed ${duration(r.elapsedSec)}${r.status === 'running' ? `, ETA ${duration(r.etaSec)}` : ''}.<br>
      Optimizer <code>${esc(s.optimizer)}</code>; player <code>${esc(s.player)}</code>; ${s.games} games per candidate${s.racing ? ` (racing: ${s.racing.rounds} slices, keep ${s.racing.keep})` : ''}${s.player.startsWith('external:') ? '' : ` at depth ${esc(s.depth)}`}; objective <code>${esc(s.objective)}</code>; start <code>${esc(s.start)}</code>; seed ${s.seed}.</p>
      <p><a class="button${r.validatedBest === null ? ' disabled' : ''}" id="export" href="/api/runs/${r.id}/export" download="run-${r.id}-best.json">Export the best ${d.best?.player ? 'parameters' : 'weights'}</a>
      <a class="button" href="/viewer?${d.best?.player ? 'replay' : 'weights'}=run:${r.id}&play=1">${d.best?.player ? 'Replay its best held-out game' : 'Watch the best play'}</a></p>`;
    document.getElementById('generations')!.innerHTML = table(
      ['generation', 'best', 'mean', 'stdev', 'step size', 'games', ...(s.racing ? ['games per candidate'] : []), 'seconds', ...(modelled ? ['model (its point: predicted mean, 95 %)'] : [])],
      d.generations.map((g) => [String(g.idx), num(g.best, 1), num(g.mean, 1), num(g.stdev, 1), num(g.step, 4), num(g.games), ...(s.racing ? [g.gamesPerCandidate.join(' ')] : []), num(g.seconds, 1), ...(modelled ? [g.model ? esc(describeModel(g.model)) : ''] : [])]),
    );
    document.getElementById('params')!.innerHTML = table(['parameter', 'min', 'max', 'scale', d.best?.validated ? 'best (validated)' : 'best so far (in-sample)'], d.params.map((p) => [esc(p.name), num(p.min, 2), num(p.max, 2), esc(p.scale), num(p.best, 4)]));
    // A step size is an evolution strategy's (GA, CMA-ES); NSGA-II and random search have none: no empty section.
    const step = document.getElementById('step')!;
    const stepped = d.generations.some((g) => g.step !== null);
    if (stepped !== (step.childElementCount > 0)) step.innerHTML = stepped ? '<h2>Step size</h2><div id="chart-step" class="chart"></div>' : '';
    const w = d.best?.weights;
    const external = d.best?.player;
    // A run on a network names its player "network:FILE" (version: the network's hash): it is no external program.
    const playerName = (p: { name: string; version: string }) => (p.name.startsWith('network:') ? `the network <code>${esc(p.name.slice('network:'.length))}</code> (sha256 ${esc(p.version)}…)` : `the external player <code>${esc(p.name)}</code> version ${esc(p.version)}`);
    document.getElementById('best')!.innerHTML = external
      ? `<p>Candidate ${d.best!.candidate}${d.best!.validated ? ' (validated on held-out games)' : ' (best in-sample of the last generation; not yet validated)'} of ${playerName(external)}.</p>
         ${table(['parameter', 'value'], Object.entries(external.params).map(([k, x]) => [esc(k), num(x, 4)]))}`
      : w
      ? `<p>Candidate ${d.best!.candidate}${d.best!.validated ? ' (validated on held-out games)' : ' (best in-sample of the last generation; not yet validated)'}.</p>
         <div class="side">${heatMap(w.matrix, w.matrixOn ?? 'rank')}${table(['weight', 'value'], (['alive', 'empty', 'merges', 'descents', 'monotonicity', 'monotonicityPower', 'smoothness', 'sum', 'sumPower'] as const).filter((k) => w[k] !== undefined).map((k) => [k, num(w[k] as number, 3)]))}</div>${versionTwoNotes(w)}`
      : '<p>No generation finished yet.</p>';
    // Written before the charts are drawn: the front's chart goes into its div.
    document.getElementById('front')!.innerHTML = d.front
      ? `<h2>Strength against cost: the validated front</h2><div id="chart-front" class="chart"></div><div class="table-scroll">${table(FRONT_HEADERS, frontRows(d.front).map((r) => r.map(esc)), 'front-table')}</div><p class="note">${esc(FRONT_NOTE)}</p>`
      : '';
    document.getElementById('finalists')!.innerHTML = d.finalists.length
      ? (([headers, rows]) => table(headers, rows.map((r) => r.map(esc))))(finalistTable(d.finalists, d.settings.screen !== null)) +
        (d.startVerdict ? `<p id="start-verdict">${esc(d.startVerdict)}</p>` : '')
      : `<p>Validated after the last generation, on ${s.validationGames} held-out games each.</p>`;
    document.getElementById('sweeps')!.innerHTML = d.sweeps
      .map((sw) => `<h2>Depth sweep of ${esc(sw.weights)} (${sw.games} games per depth)</h2>` + table(['depth', 'mean', 'median', 'max', ...REACH_HEADERS, 'moves/game', 'ms/move'], sw.depths.map(({ depth, summary: m }) => [esc(depth), num(m.meanScore), num(m.medianScore), num(m.maxScore), ...reachCells(m), num(m.movesPerGame), num(m.msPerMove, 4)])))
      .join('');
    document.getElementById('comparisons')!.innerHTML = d.comparisons
      .map(
        (c) =>
          `<h2>Comparison ${c.id}</h2><div id="chart-comparison-${c.id}" class="chart"></div>` +
          table(['weights', 'mean', '95% CI', 'median', ...REACH_HEADERS, 'moves/game'], c.contenders.map((k) => [esc(k.label), num(k.summary.meanScore), interval(k.meanCI95.low, k.meanCI95.high), num(k.summary.medianScore), ...reachCells(k.summary), num(k.summary.movesPerGame)])) +
          table(['pair', 'mean difference (95% CI)', 'relative', 'Wilcoxon p'], c.pairs.map((p) => [`${esc(p.a)} − ${esc(p.b)}`, `${num(p.meanDiff)} (${interval(p.ci95.low, p.ci95.high)})`, `${(100 * p.relative).toFixed(1)}%`, p.wilcoxon.p < 1e-6 ? '&lt; 1e-6' : p.wilcoxon.p.toPrecision(2)])),
      )
      .join('');
    drawRunCharts(d, (x) => document.getElementById(x));
  });
}

/** A learning run: its curve (held-out greedy mean and the last training games' mean against training minutes) and its checkpoints. */
function learnPage(id: number): void {
  document.title = `tune2048 — learning run ${id}`;
  app.innerHTML = `<h1>Learning run ${id}</h1><div id="learn-summary">loading…</div><div id="chart-learn" class="chart"></div><div id="chart-learn-rates" class="chart"></div><div id="checkpoints"></div>`;
  poll<{ run: LearnItem; curve: LearnPoint[] }>(`/api/learn/${id}`, ({ run, curve }) => {
    // An n-tuple network's latest checkpoint plays in the viewer (the server plays it): the link opens it playing.
    const watch = run.games > 0 && run.ntuple ? ` <a id="learn-watch" href="/viewer?weights=learn:${id}&amp;depth=1&amp;play=1">watch it play</a>` : '';
    document.getElementById('learn-summary')!.innerHTML = `<p><b>${esc(run.name)}</b> — ${esc(run.network)}; status <span class="status ${esc(run.status)}" id="learn-status">${esc(run.status)}</span>; <span id="learn-games">${num(run.games)} of ${num(run.total)} games</span>.${watch}</p>`;
    drawLearnCharts(curve, (el) => document.getElementById(el));
    const head = LEARN_HEADERS;
    const rows = learnRows(curve);
    const csv = [head, ...rows].map((r) => r.map((cell) => `"${String(cell).replace(/"/g, '""')}"`).join(',')).join('\n');
    document.getElementById('checkpoints')!.innerHTML =
      `<p><a id="checkpoints-csv" download="learning-run-${id}.csv" href="data:text/csv;charset=utf-8,${encodeURIComponent(csv)}">download the checkpoints (CSV)</a></p>` +
      `<div class="table-scroll">${table(head, rows.map((r) => r.map(esc)), 'checkpoints-table')}</div>`;
  });
}

function route(): void {
  const path = location.pathname;
  const run = /^\/runs\/(\d+)$/.exec(path);
  const learn = /^\/learn\/(\d+)$/.exec(path);
  if (learn) learnPage(Number(learn[1]));
  else if (path === '/') runsPage();
  else if (run) runPage(Number(run[1]));
  else if (path === '/viewer') startViewer(app);
  else app.innerHTML = `<h1>Not found</h1><p id="not-found">Nothing at ${esc(path)}.</p>`;
  void info.then((i) => (document.getElementById('db')!.textContent = i.db), () => {});
}

/** The server's database, and the command that starts a run in it (as it runs where the server was started). */
const info = getJson<{ db: string; start: string }>('/api/info');

route();
