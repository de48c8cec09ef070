/**
 * The run report: one self-contained HTML file (inline SVG charts, inline CSS,
 * no script, no network) built from what the store holds.
 */
import { Store } from '../store/store';
import { readStoredConfig } from '../tuner/controller';
import { createOptimizer } from '../tuner/optimizers';
import type { Comparison, Sweep } from '../compare/compare';
import { escapeHtml, lineChart, Series } from './svg';

const esc = escapeHtml;
const num = (x: number | null | undefined, digits = 1) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));

function htmlTable(head: string[], rows: (string | number)[][]): string {
  const th = head.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(String(c))}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

export function buildRunReport(store: Store, runId: number): string {
  const run = store.requireRun(runId);
  const { config } = readStoredConfig(run.config);
  const optimizer = createOptimizer(config);
  const gens = store.listGenerations(runId).filter((g) => g.status === 'done');
  const perGen = gens.map((g) => {
    const cands = store.getCandidates(runId, g.idx);
    const best = [...cands].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity))[0];
    return { g, cands, best, step: optimizer.summary(JSON.parse(g.state)).stepSize };
  });
  const names = Object.keys(config.space.params);
  const racing = config.fitness.racing;

  const fitnessChart = lineChart(
    [
      { name: 'best', points: perGen.map((p) => [p.g.idx, p.g.best_fitness ?? NaN] as const) },
      {
        name: 'mean ± stdev',
        points: perGen.map((p) => [p.g.idx, p.g.mean_fitness ?? NaN] as const),
        band: perGen.map((p) => [p.g.idx, (p.g.mean_fitness ?? 0) - (p.g.stdev_fitness ?? 0), (p.g.mean_fitness ?? 0) + (p.g.stdev_fitness ?? 0)] as const),
      },
    ],
    { title: `Fitness (${config.fitness.objective}) per generation`, xLabel: 'generation', yLabel: config.fitness.objective },
  );
  const stepChart = perGen.some((p) => p.step !== null)
    ? lineChart([{ name: config.optimizer.kind === 'cmaes' ? 'CMA-ES σ' : 'mutation σ', points: perGen.map((p) => [p.g.idx, p.step ?? NaN] as const) }], {
        title: 'Step size per generation (normalised space)',
        xLabel: 'generation',
        yLabel: 'σ',
      })
    : '';
  const paramSeries: Series[] = names.map((name, i) => ({
    name,
    points: perGen.map((p) => [p.g.idx, (JSON.parse(p.best.genome) as number[])[i]] as const),
  }));
  const paramChart = lineChart(paramSeries, {
    title: "The generation's best candidate, each tuned parameter in [0, 1] of its range",
    xLabel: 'generation',
    yLabel: 'position in range',
  });

  const finalists = store.raw
    .prepare('SELECT * FROM candidates WHERE run_id = ? AND validation IS NOT NULL ORDER BY validation DESC')
    .all(runId) as { id: number; generation: number; origin: string; fitness: number; validation: number; params: string }[];
  const best = run.best_candidate ? store.getCandidate(run.best_candidate) : undefined;
  const bestParams = best ? (JSON.parse(best.params) as Record<string, number>) : {};

  const stored = store.listComparisons(runId);
  const sweeps = stored.filter((c) => (c.result as { kind?: string }).kind === 'sweep').map((c) => ({ id: c.id, ...(c.result as Sweep) }));
  // Comparisons have no kind; race checkpoints (kind race-checkpoint) are the race's own bookkeeping.
  const comparisons = stored.filter((c) => (c.result as { kind?: string }).kind === undefined).map((c) => ({ id: c.id, ...(c.result as Comparison) }));
  const sweepHtml = sweeps
    .map(
      (w) =>
        `<h3 id="sweep-${w.id}">Depth sweep of ${esc(w.weights)} (${w.games} games per depth)</h3>\n` +
        htmlTable(
          ['depth', 'mean', 'median', 'max', '2048', '4096', '8192', '16384', '32768', 'moves/game', 'ms/move'],
          w.depths.map(({ depth, summary: s }) => [
            String(depth),
            num(s.meanScore, 0),
            num(s.medianScore, 0),
            num(s.maxScore, 0),
            ...['2048', '4096', '8192', '16384', '32768'].map((t) => `${(100 * s.reach[t]).toFixed(1)}%`),
            num(s.movesPerGame, 0),
            num(s.msPerMove, 4),
          ]),
        ),
    )
    .join('\n');
  const comparisonHtml = comparisons
    .map((c) => {
      // Score distributions as empirical CDFs: one line per contender over the same seeds.
      const ecdf = lineChart(
        c.contenders.map((k) => {
          const scores = k.games.map((g) => g.score).sort((a, b) => a - b);
          return { name: k.label, points: scores.map((x, i) => [x, (i + 1) / scores.length] as const) };
        }),
        { title: `Score distributions (comparison ${c.id}: ${c.settings.games} paired games, depth ${c.settings.depth})`, xLabel: 'score', yLabel: 'share of games with at most this score' },
      );
      const summary = htmlTable(
        ['weights', 'mean', '95% CI', 'median', 'stdev', '2048', '4096', '8192', '16384', 'moves/game', 'ms/move'],
        c.contenders.map((k) => [
          k.label,
          num(k.summary.meanScore, 0),
          `${num(k.meanCI95.low, 0)}–${num(k.meanCI95.high, 0)}`,
          num(k.summary.medianScore, 0),
          num(k.summary.stdevScore, 0),
          ...['2048', '4096', '8192', '16384'].map((t) => `${(100 * k.summary.reach[t]).toFixed(1)}%`),
          num(k.summary.movesPerGame, 0),
          num(k.summary.msPerMove, 4),
        ]),
      );
      const pairs = htmlTable(
        ['pair', 'mean difference', 'bootstrap 95% CI', 'relative', 'Wilcoxon z', 'p'],
        c.pairs.map((p) => [`${p.a} − ${p.b}`, num(p.meanDiff, 0), `${num(p.ci95.low, 0)}–${num(p.ci95.high, 0)}`, `${(100 * p.relative).toFixed(1)}%`, num(p.wilcoxon.z, 2), p.wilcoxon.p < 1e-6 ? '< 1e-6' : p.wilcoxon.p.toPrecision(2)]),
      );
      return `<figure id="comparison-${c.id}">${ecdf}</figure>\n${summary}\n${pairs}`;
    })
    .join('\n');

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>tune2048 run ${run.id}: ${esc(run.name)}</title>
<style>
body { font-family: sans-serif; max-width: 980px; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 1em 0; } th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1.5em 0; } code { background: #f4f4f4; padding: 0 3px; }
</style></head>
<body>
<h1>tune2048 run ${run.id}: ${esc(run.name)}</h1>
<p id="summary">Status <b>${esc(run.status)}</b>${run.error ? ` (${esc(run.error)})` : ''}; optimizer <code>${esc(config.optimizer.kind)}</code>;
${gens.length} generations done; fitness: ${config.fitness.games} games per candidate${racing ? ` (racing: ${racing.rounds} slices, the best ${racing.keep} of the field going on after each; the table gives each candidate's games)` : ''} at depth ${esc(String(config.fitness.depth))}, objective <code>${esc(config.fitness.objective)}</code>;
start <code>${esc(config.space.start)}</code>; seed ${run.seed}; config hash <code>${esc(run.config_hash)}</code>.</p>
<h2>Fitness</h2>
<figure id="fitness">${fitnessChart}</figure>
${htmlTable(['generation', 'best', 'mean', 'stdev', 'step size', 'games', ...(racing ? ['games per candidate (racing)'] : []), 'seconds'], perGen.map((p) => [p.g.idx, num(p.g.best_fitness), num(p.g.mean_fitness), num(p.g.stdev_fitness), num(p.step, 4), p.g.games, ...(racing ? [p.cands.map((c) => store.getGames(c.id, 'fitness').length).join(' ')] : []), p.g.finished_at ? num((p.g.finished_at - p.g.started_at) / 1000) : '–']))}
${stepChart ? `<h2>Step size</h2>\n<figure id="step">${stepChart}</figure>` : ''}
<h2>Tuned parameters</h2>
<figure id="params">${paramChart}</figure>
${htmlTable(['parameter', 'min', 'max', 'scale', 'best (validated)'], names.map((n) => [n, config.space.params[n].min, config.space.params[n].max, config.space.params[n].scale, bestParams[n] === undefined ? '–' : num(bestParams[n], 4)]))}
<h2>Validation of the finalists</h2>
<p>${config.validation.games} held-out games each; the winner is the run's best${best ? ` (candidate ${best.id})` : ''}.</p>
${htmlTable(['candidate', 'generation', 'origin', 'fitness', 'validation'], finalists.map((f) => [f.id, f.generation, f.origin, num(f.fitness), num(f.validation)]))}
${sweeps.length ? `<h2>Depth sweeps</h2>\n${sweepHtml}` : ''}
${comparisons.length ? `<h2>Comparisons</h2>\n<p>Stored with <code>tune2048 compare … --db … --run ${run.id}</code>; every contender played the same seeds.</p>\n${comparisonHtml}` : ''}
</body></html>
`;
}
