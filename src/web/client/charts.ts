/**
 * The charts of tune2048, drawn with uPlot (small, fast, no dependencies; it
 * is bundled into the page, never fetched): the dashboard and the static
 * report both draw through these functions, so there is one chart code path.
 */
import uPlot from 'uplot';
import type { RunDetail } from '../../report/run-data';
import type { LearnPoint } from '../../report/learn-data';
import { REACH_TILES } from '../../compare/summary';
import { seriesStrokes } from './colors';
import { frontChartSpec } from './front-chart';

export interface ChartSeries {
  name: string;
  values: (number | null)[];
  /** Markers alone, no line (reference points beside a curve). */
  pointsOnly?: boolean;
  /** A thin dashed line (a reference level, e.g. a published result). */
  dashed?: boolean;
  /** A marker at every point of the line, however many series the chart has (a front's points are its results). */
  markers?: boolean;
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  x: number[];
  series: ChartSeries[];
  /** A shaded band between two more series (e.g. mean ± stdev). */
  band?: { name: string; low: (number | null)[]; high: (number | null)[] };
  /** Draw steps (an empirical CDF) instead of straight segments. */
  stepped?: boolean;
  /** A log scale on x (costs: each ply multiplies them). */
  logX?: boolean;
  /** The y range to show (else uPlot fits every series): the chart's own points, not a reference far above them. */
  yRange?: [number, number];
  /** Lines under the chart: what it does not draw, e.g. references outside its range. */
  notes?: string[];
}

/**
 * How charts are drawn where they are: the dashboard's legends show the values under the cursor; a static
 * report's would show "--" until a hover (report-charts.ts turns them off there).
 */
export const chartSettings = { liveLegend: true };

/** A line chart in `el` (replacing what was there), as wide as its container. */
export function drawChart(el: HTMLElement, spec: ChartSpec): uPlot {
  el.replaceChildren();
  const width = Math.max(320, Math.min(960, el.clientWidth || 900));
  const series: uPlot.Series[] = [{ label: spec.xLabel }];
  const data: uPlot.AlignedData = [spec.x, ...spec.series.map((s) => s.values)] as uPlot.AlignedData;
  const paths = spec.stepped ? uPlot.paths.stepped!({ align: 1 }) : undefined;
  // Markers only where they help: few series, few points.
  const points = { show: spec.series.length <= 3 && spec.x.length <= 60 && !spec.stepped };
  const strokes = seriesStrokes(spec.series);
  spec.series.forEach((s, i) => {
    const c = strokes[i];
    series.push(
      s.pointsOnly
        ? { label: s.name, stroke: c, fill: c, paths: () => null, points: { show: true, size: 9, fill: c } }
        : s.dashed
          ? { label: s.name, stroke: c, width: 1, dash: [6, 4], spanGaps: true, points: { show: false } }
          : { label: s.name, stroke: c, width: spec.series.length > 6 ? 1.5 : 2, spanGaps: true, points: s.markers ? { show: true, size: 7, fill: c } : points, ...(paths ? { paths } : {}) },
    );
  });
  const opts: uPlot.Options = {
    title: spec.title,
    width,
    height: 300,
    series,
    // Whole-number x values (generations, games) get whole-number ticks only; the y label gets the room it needs.
    axes: [{ label: spec.xLabel, ...(spec.x.every(Number.isInteger) && !spec.logX ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1e6, 1e7] } : {}) }, { label: spec.yLabel, size: 80, labelSize: 30 }],
    scales: { x: spec.logX ? { time: false, distr: 3 } : { time: false }, ...(spec.yRange ? { y: { range: () => spec.yRange! } } : {}) },
    legend: { live: chartSettings.liveLegend },
  };
  if (spec.band) {
    const n = series.length;
    series.push({ label: spec.band.name.replace('±', '−'), stroke: 'rgba(31,119,180,0.3)', width: 1, spanGaps: true, points: { show: false } });
    series.push({ label: spec.band.name.replace('±', '+'), stroke: 'rgba(31,119,180,0.3)', width: 1, spanGaps: true, points: { show: false } });
    (data as unknown as (number | null)[][]).push(spec.band.low, spec.band.high);
    opts.bands = [{ series: [n + 1, n], fill: 'rgba(31,119,180,0.12)' }];
  }
  // What the chart shows, for readers of the page (and its tests): the y range drawn and the series with markers.
  opts.hooks = { draw: [(u) => void (el.dataset.yRange = JSON.stringify([u.scales.y.min, u.scales.y.max]))] };
  const chart = new uPlot(opts, data, el);
  el.dataset.series = JSON.stringify(spec.series.map((s) => s.name));
  el.dataset.markers = JSON.stringify(spec.series.filter((s) => s.markers || s.pointsOnly).map((s) => s.name));
  if (spec.notes && spec.notes.length > 0) {
    const notes = document.createElement('ul');
    notes.className = 'chart-notes note';
    for (const line of spec.notes) notes.appendChild(document.createElement('li')).textContent = line;
    el.appendChild(notes);
  }
  return chart;
}

/** The empirical score distribution of each contender of a comparison (same seeds). */
export function drawEcdf(el: HTMLElement, title: string, contenders: { label: string; scores: number[] }[]): uPlot {
  const xs = [...new Set(contenders.flatMap((c) => c.scores))].sort((a, b) => a - b);
  const series = contenders.map((c) => {
    const sorted = [...c.scores].sort((a, b) => a - b);
    let k = 0;
    return {
      name: c.label,
      values: xs.map((x) => {
        while (k < sorted.length && sorted[k] <= x) k++;
        return k / sorted.length;
      }),
    };
  });
  return drawChart(el, { title, xLabel: 'score', yLabel: 'share of games ≤ score', x: xs, series, stepped: true });
}

/** The figures of a run: fitness, step size, tuned parameters, and each stored comparison's distributions. */
/**
 * A learning run's charts (its dashboard page and `learn report`): the held-out greedy mean and the last
 * training games' mean against training minutes (games for line tables, which time nothing), and the
 * held-out games' tile rates.
 */
export function drawLearnCharts(curve: readonly LearnPoint[], find: (id: string) => HTMLElement | null): void {
  if (curve.length === 0) return;
  const timed = curve.every((c) => c.minutes !== null);
  const x = curve.map((c) => (timed ? c.minutes! : c.games));
  const xLabel = timed ? 'training minutes' : 'games';
  const learn = find('chart-learn');
  if (learn) {
    drawChart(learn, {
      title: 'Training curve',
      xLabel,
      yLabel: 'mean score',
      x,
      series: [
        { name: 'held-out greedy games', values: curve.map((c) => c.heldOutMean) },
        { name: 'last 1,000 training games', values: curve.map((c) => c.recentMean) },
      ],
    });
  }
  const rates = find('chart-learn-rates');
  if (rates && curve.some((c) => c.stats?.heldOut)) {
    drawChart(rates, {
      title: 'Held-out greedy games reaching each tile',
      xLabel,
      yLabel: '% of games',
      x,
      series: REACH_TILES.map((tile, i) => ({ name: String(tile), values: curve.map((c) => (c.stats?.heldOut ? 100 * c.stats.heldOut.rates[i] : null)) })),
    });
  }
}

export function drawRunCharts(detail: RunDetail, find: (id: string) => HTMLElement | null): void {
  const g = detail.generations;
  const x = g.map((p) => p.idx);
  const fitness = find('chart-fitness');
  if (fitness) {
    // Screened runs rank by regret: their in-sample fitness is minus a mean regret, not the objective's.
    const measure = detail.settings.screen ? 'minus the mean regret (fitness.screen)' : detail.settings.objective;
    drawChart(fitness, {
      title: `Fitness (${measure}) per generation`,
      xLabel: 'generation',
      yLabel: measure,
      x,
      series: [
        { name: 'best', values: g.map((p) => p.best) },
        { name: 'mean', values: g.map((p) => p.mean) },
      ],
      band: { name: 'mean ± stdev', low: g.map((p) => (p.mean ?? 0) - (p.stdev ?? 0)), high: g.map((p) => (p.mean ?? 0) + (p.stdev ?? 0)) },
    });
  }
  const step = find('chart-step');
  if (step && g.some((p) => p.step !== null)) {
    drawChart(step, { title: 'Step size per generation (normalised space)', xLabel: 'generation', yLabel: 'σ', x, series: [{ name: detail.settings.optimizer === 'cmaes' ? 'CMA-ES σ' : 'mutation σ', values: g.map((p) => p.step) }] });
  }
  const params = find('chart-params');
  if (params) {
    drawChart(params, {
      title: "The generation's best candidate, each tuned parameter in [0, 1] of its range",
      xLabel: 'generation',
      yLabel: 'position in range',
      x,
      series: detail.params.map((p, i) => ({ name: p.name, values: g.map((q) => q.bestGenome[i] ?? null) })),
    });
  }
  const front = find('chart-front');
  if (front && detail.front && detail.front.length > 0) drawChart(front, frontChartSpec(detail));
  for (const c of detail.comparisons) {
    const el = find(`chart-comparison-${c.id}`);
    if (el) drawEcdf(el, `Score distributions (comparison ${c.id}: ${c.settings.games} paired games, depth ${c.settings.depth})`, c.contenders.map((k) => ({ label: k.label, scores: k.games.map((x) => x.score) })));
  }
}
