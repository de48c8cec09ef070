/**
 * A learning run's curve as a markdown table anyone can read beside the published one: at every --every games,
 * the held-out greedy mean with its 16384 and 32768 rates and the CPU minutes so far; then ziap/2048-tdl's
 * published rows for the same 4×6 recipe (shared/anchors.md; its README history) at 400,000 and 1,000,000
 * games. CPU minutes depend on the machine: --calibration names the machine's speed that day (e.g. ziap's
 * CPU seconds for 10,000 games of the recipe, or `npm run bench:learn`'s moves per CPU second), printed under
 * the table so that minutes from two machines can be compared.
 *
 *   npx tsx scripts/training-table.ts --db runs/restarts.sqlite --run 1 --every 50000 --calibration "ziap 10,000 games: 249 CPU s"
 */
import { Command } from 'commander';
import type { CheckpointStats } from '../src/learn/ntuple/network-run';
import { Store } from '../src/store/store';

/** ziap/2048-tdl's 4×6 network, restarts + TD(λ 0.5) + coherence, one stage: its README's rows (greedy = 1-ply; tune2048's depth 2 = 3-ply). */
const PUBLISHED = [
  { games: 400_000, greedy: 169_236, threePly: 390_726, r16384: 0.803, r32768: 0.308, source: 'ziap/2048-tdl README history' },
  { games: 1_000_000, greedy: 201_381, threePly: 419_479, r16384: 0.802, r32768: 0.357, source: 'ziap/2048-tdl README' },
];

const o = new Command()
  .requiredOption('--db <file>', 'the learning database')
  .option('--run <id>', 'learning run id', Number, 1)
  .option('--every <games>', 'a row every this many games', Number, 50_000)
  .option('--calibration <text>', "the machine's speed that day, printed under the table")
  .parse()
  .opts<{ db: string; run: number; every: number; calibration?: string }>();

const store = Store.open(o.db, { readonly: true });
try {
  const curve = store.learnCurve(o.run).map((c) => ({ games: c.games, ...(c.stats as CheckpointStats) }));
  const rows = curve.filter((c) => c.games % o.every === 0 || c === curve.at(-1));
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  console.log('| games | CPU minutes | held-out greedy (games) | 16384 | 32768 |');
  console.log('|---|---|---|---|---|');
  for (const c of rows) {
    const h = c.heldOut;
    console.log(`| ${c.games.toLocaleString('en-US')} | ${c.cpuSeconds === undefined ? '–' : (c.cpuSeconds / 60).toFixed(1)} | ${h ? `${Math.round(h.mean).toLocaleString('en-US')} (${h.games})` : '–'} | ${h ? pct(h.rates[3]) : '–'} | ${h ? pct(h.rates[4]) : '–'} |`);
  }
  for (const p of PUBLISHED) console.log(`| published: ${p.games.toLocaleString('en-US')} (${p.source}) | — | ${p.greedy.toLocaleString('en-US')}; 3-ply ${p.threePly.toLocaleString('en-US')} | 3-ply ${pct(p.r16384)} | 3-ply ${pct(p.r32768)} |`);
  if (o.calibration) console.log(`\nThe machine that day: ${o.calibration}.`);
} finally {
  store.close();
}
