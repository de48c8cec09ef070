/**
 * A learning run's report (`tune2048 learn report`): one self-contained offline HTML file like a tuning run's
 * (src/report/report.ts) — the training curve and the held-out games' tile rates drawn by the inlined chart
 * script, the checkpoints as a plain table (the dashboard's columns), the latest network file and the config.
 */
import type { LearnConfig } from '../learn/config';
import { describeNetworkRun } from '../learn/ntuple/network-run';
import type { Store } from '../store/store';
import { freeOutputName, suggest } from '../util/command-hint';
import { chartScript, htmlTable, pageHead, scriptJson } from './html';
import { learnDetail } from './learn-data';
import { LEARN_HEADERS, learnRows } from './learn-table';
import { num } from './numbers';
import { escapeHtml as esc } from './svg';

export function buildLearnReport(store: Store, runId: number): string {
  const stored = store.requireLearnRun(runId);
  const config = stored.storedConfig as LearnConfig;
  const { run, curve } = learnDetail(store, runId);
  const last = store.learnCurve(runId).at(-1);
  const latest = curve.at(-1);
  const network = config.network ? describeNetworkRun(config) : `line tables; learning rate ${config.learningRate}`;
  const threads = config.threads ?? 1;
  const unfinished = run.games < run.total && run.status !== 'running';
  const file = last?.tableFile
    ? `<h2>The latest network</h2>\n<p>At ${num(last.games)} games: <code>${esc(last.tableFile)}</code> (beside the database), sha256 <code>${esc(last.tableSha256 ?? '')}</code>. Written out with <code>${esc(suggest(['learn', 'export', String(runId), '--out', freeOutputName(`network-${runId}`, 'bin')], store.path))}</code>.</p>`
    : '';
  return `${pageHead(`tune2048 learning run ${runId}: ${run.name}`)}
<body>
<h1>tune2048 learning run ${runId}: ${esc(run.name)}</h1>
<p id="summary">Status <b>${esc(run.status)}</b>${stored.error ? ` (${esc(stored.error)})` : ''}; ${esc(network)}; ${num(run.games)} of ${num(run.total)} training games; seed ${config.seed}; ${threads} thread${threads === 1 ? '' : 's'}${latest?.cpuMinutes != null ? `; ${num(latest.cpuMinutes, 1)} CPU minutes of training` : ''}${latest?.heldOutMean != null ? `; the latest held-out greedy mean ${num(latest.heldOutMean)}` : ''}.${unfinished ? ` It goes on with <code>${esc(suggest(['learn', 'resume', String(runId)], store.path))}</code>.` : ''}</p>
<h2>Curve</h2>
<figure><div id="chart-learn" class="chart"></div></figure>
<figure><div id="chart-learn-rates" class="chart"></div></figure>
<h2>Checkpoints</h2>
<p>"training" columns count the last 1,000 training games before the checkpoint; "held-out" ones the greedy games on seeds never trained on (${config.heldOut ? `${num(config.heldOut.games)} from seed ${config.heldOut.seed}` : 'the default set'}). Minutes are training's wall time; CPU minutes its processor time, the measure a shared machine does not distort.</p>
<div class="table-scroll">${htmlTable(LEARN_HEADERS, learnRows(curve))}</div>
${file}
<h2>Config</h2>
<pre>${esc(JSON.stringify(config, null, 2))}</pre>
<script type="application/json" id="learn-data">${scriptJson({ run, curve })}</script>
${chartScript()}
</body></html>
`;
}
