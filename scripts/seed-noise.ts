/**
 * Do common seeds pair games? For every run in a database: every two candidates of a generation on
 * their common fitness seeds; for every stored comparison: every two contenders. Prints the median
 * correlation of scores on the same seed, the spread of per-seed differences, and the games each side
 * needs before a 5% difference is 1.96 standard errors (src/compare/noise.ts).
 *
 *   npx tsx scripts/seed-noise.ts [--json] db/depth3.sqlite …
 */
import { installProcessGuards } from '../src/cli/process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Store } from '../src/store/store';
import { pairNoise, summarizeNoise, type NoiseSummary, type PairNoise } from '../src/compare/noise';
import type { Comparison } from '../src/compare/compare';
import { fmt, table } from '../src/cli/format';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values, positionals } = parseArgs({ options: { json: { type: 'boolean' } }, allowPositionals: true });
if (positionals.length === 0) {
  console.error('usage: npx tsx scripts/seed-noise.ts [--json] DB …');
  process.exit(2);
}

/** Every two of these players on their common seeds. */
function pairsAmong(players: readonly ReadonlyMap<number, number>[]): PairNoise[] {
  const pairs: PairNoise[] = [];
  for (let i = 0; i < players.length; i++)
    for (let j = i + 1; j < players.length; j++) {
      const p = pairNoise(players[i], players[j]);
      if (p) pairs.push(p);
    }
  return pairs;
}

interface Row extends NoiseSummary {
  db: string;
  what: string;
  depth: number | string;
}
const rows: Row[] = [];
for (const path of positionals) {
  if (!existsSync(path)) {
    console.error(`seed-noise: no database at "${path}"`);
    process.exit(2);
  }
  let store: Store;
  try {
    store = Store.open(path, { readonly: true });
  } catch (e) {
    console.error(`seed-noise: ${(e as Error).message}`);
    process.exit(2);
  }
  for (const run of store.listRuns()) {
    const depth = (run.storedConfig as { config: { fitness: { depth: number | string } } }).config.fitness.depth;
    const generations = new Map<number, Map<number, number>[]>(); // a generation's candidates: seed → score
    const byCandidate = new Map<number, Map<number, number>>();
    for (const g of store.runGames(run.id)) {
      if (g.purpose !== 'fitness') continue;
      let games = byCandidate.get(g.candidateId);
      if (!games) {
        games = new Map();
        byCandidate.set(g.candidateId, games);
        generations.set(g.generation, [...(generations.get(g.generation) ?? []), games]);
      }
      games.set(g.seed, g.score);
    }
    const pairs = [...generations.values()].flatMap(pairsAmong);
    const s = summarizeNoise(pairs);
    if (s) rows.push({ db: path, what: `run ${run.id} (${run.name}): candidates of a generation`, depth, ...s });
    for (const { id, result } of store.listResults(run.id, 'comparison')) {
      const c = result as Partial<Comparison>;
      if (!c.contenders?.every((x) => Array.isArray(x.games)) || !c.settings) continue; // stored without its games
      const t = summarizeNoise(pairsAmong(c.contenders.map((x) => new Map(x.games.map((g) => [g.seed, g.score])))));
      if (t) rows.push({ db: path, what: `comparison ${id}: ${c.contenders.map((x) => x.label).join(', ')}`, depth: c.settings.depth, ...t });
    }
  }
  store.close();
}
if (values.json) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  console.log(
    table([
      ['db', 'what', 'depth', 'pairs', 'seeds (median)', 'correlation (median)', 'sd score', 'sd difference', 'mean score', 'games for ±5%'],
      ...rows.map((r) => [r.db, r.what, String(r.depth), String(r.pairs), String(r.medianN), r.medianCorrelation.toFixed(3), fmt(r.medianSdScore, 0), fmt(r.medianSdDiff, 0), fmt(r.meanScore, 0), String(r.gamesFor5Percent)]),
    ]),
  );
}
