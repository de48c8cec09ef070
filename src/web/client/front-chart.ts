/**
 * The front chart's data (no drawing, no uPlot: a test reads it as the page would draw it).
 */
import type { RunDetail } from '../../report/run-data';
import { publishedLabel, publishedRowsFor } from '../../report/published';
import type { ChartSpec } from './charts';

/**
 * The validated front: held-out strength against positions searched a move (log axis; a depth-0 search counts
 * none, drawn at 0.1), with its 95 % band; beside it the validated fronts of the database's other runs of the
 * same objective, and as markers the mean score of what was stored with the run that counted its cost (a
 * sweep's depths, a comparison's contenders: `sweep` or `compare … --db … --run`); beside a network's front,
 * the published networks' means as dashed levels (src/report/published.ts).
 */
export function frontChartSpec(detail: RunDetail): ChartSpec {
  const at = (cost: number) => Math.max(cost, 0.1);
  const front = new Map(detail.front!.map((p) => [at(p.costPerMove), p]));
  // References are mean scores: drawn only beside a front of the mean score.
  const references: { name: string; points: Map<number, number> }[] = [];
  if (detail.settings.objective === 'mean-score') {
    for (const w of detail.sweeps) {
      const points = new Map(w.depths.flatMap(({ summary: m }) => (m.nodesPerMove !== undefined ? [[at(m.nodesPerMove), m.meanScore] as [number, number]] : [])));
      if (points.size > 0) references.push({ name: `${w.weights}, depths ${w.depths.map((d) => d.depth).join(', ')} (sweep ${w.id})`, points });
    }
    for (const c of detail.comparisons) {
      for (const k of c.contenders) if (k.summary.nodesPerMove !== undefined) references.push({ name: `${k.label} (comparison ${c.id})`, points: new Map([[at(k.summary.nodesPerMove), k.summary.meanScore]]) });
    }
  }
  // The database's other fronts of this objective, as lines beside this one (the heuristic's beside a network's).
  const others = detail.otherFronts.map((o) => ({ name: `run ${o.run} "${o.name}" (${o.player})`, points: new Map(o.points.map((p) => [at(p.costPerMove), p.validation])) }));
  const x = [...new Set([...front.keys(), ...[...references, ...others].flatMap((r) => [...r.points.keys()])])].sort((a, b) => a - b);
  const onFront = (f: (p: NonNullable<RunDetail['front']>[number]) => number) => x.map((v) => (front.has(v) ? f(front.get(v)!) : null));
  // The y axis spans the chart's own results (the front, its band, the other fronts, the stored references) with
  // a margin; a published level is drawn where it falls inside, and named under the chart where it does not.
  const own = [...detail.front!.flatMap((p) => [p.validation - (p.halfWidth ?? 0), p.validation + (p.halfWidth ?? 0)]), ...[...references, ...others].flatMap((r) => [...r.points.values()])];
  const low = Math.min(...own);
  const high = Math.max(...own);
  const margin = Math.max(0.08 * (high - low), 0.02 * Math.abs(high), 1);
  const yRange: [number, number] = [Math.max(0, low - margin), high + margin];
  const published = publishedRowsFor(detail.settings.objective, [detail.settings.player, ...detail.otherFronts.map((o) => o.player)]);
  const inside = published.filter((row) => row.mean >= yRange[0] && row.mean <= yRange[1]);
  const outside = published.filter((row) => !inside.includes(row));
  return {
    title: "The validated front: held-out strength against the search's cost (log scale)",
    xLabel: 'positions searched per move',
    yLabel: detail.settings.objective,
    x,
    series: [
      { name: 'the validated front (held-out)', values: onFront((p) => p.validation), markers: true },
      ...others.map((o) => ({ name: `front of ${o.name}`, values: x.map((v) => o.points.get(v) ?? null), markers: true })),
      ...references.map((r) => ({ name: r.name, values: x.map((v) => r.points.get(v) ?? null), pointsOnly: true })),
      ...inside.map((row) => ({ name: publishedLabel(row), values: x.map(() => row.mean), dashed: true })),
    ],
    band: { name: 'held-out ± 95 %', low: onFront((p) => p.validation - (p.halfWidth ?? 0)), high: onFront((p) => p.validation + (p.halfWidth ?? 0)) },
    logX: true,
    yRange,
    ...(outside.length > 0 ? { notes: outside.map((row) => `${publishedLabel(row)} (${row.mean > yRange[1] ? 'above' : 'below'} this chart)`) } : {}),
  };
}
