/**
 * Does a decision screen rank a network's settings as whole games do (issue 66, part 4)? For each network
 * contender of a comparison (`tune2048 compare … --json`, ≥ 300 pairs for the issue's bar), a few games of its
 * own are played and every k-th of its decisions is judged by the same network searched deeper: its regret
 * (src/player/decision-screen.ts). The contenders ranked by mean regret are set beside their ranks by mean score:
 * Spearman over all, within each base depth, the screen's own split-half reliability, and the significant pairs
 * of the comparison it orders the other way. Contenders of one setting (two files, one search) count once.
 *
 *   npx tsx scripts/decision-screen.ts --comparison cmp.json --network net.bin [--judge-depth 3] [--judge-cprob 0.0001]
 *       [--games 4] [--every 10] [--seed 9200000] [--json]
 *
 * The own games use seeds from --seed on (keep them apart from the comparison's and the tuner's).
 */
import { installProcessGuards } from '../src/cli/process';
import { parseArgs } from 'node:util';
import type { Comparison } from '../src/compare/compare';
import { createNetworkPlayer, fileSha256 } from '../src/player/network-player';
import { gamesKey, type NetworkPlayerSpec } from '../src/player/spec';
import { judgeDecisions, ownGameDecisions, type SampledDecision } from '../src/player/decision-screen';
import { readJsonFile } from '../src/util/json-file';
import { mean, spearman } from '../src/util/stats';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({
  options: {
    comparison: { type: 'string' },
    network: { type: 'string' },
    'judge-depth': { type: 'string', default: '3' },
    'judge-cprob': { type: 'string', default: '0.0001' },
    games: { type: 'string', default: '4' },
    every: { type: 'string', default: '10' },
    seed: { type: 'string', default: '9200000' },
    json: { type: 'boolean' },
  },
});
function fail(why: string): never {
  console.error(`decision-screen: ${why}`);
  process.exit(2);
}
const int = (name: string, min: number): number => {
  const x = Number(values[name as keyof typeof values]);
  if (!Number.isInteger(x) || x < min) fail(`--${name} must be an integer ≥ ${min}, not "${values[name as keyof typeof values]}"`);
  return x;
};
if (!values.comparison || !values.network) fail('usage: npx tsx scripts/decision-screen.ts --comparison cmp.json --network net.bin [--judge-depth 3] [--games 4] [--every 10] [--seed 9200000] [--json]');
const judgeDepth = int('judge-depth', 1);
const games = int('games', 2);
const every = int('every', 1);
const seed = int('seed', 0);
const judgeCprob = Number(values['judge-cprob']);
if (!(judgeCprob > 0 && judgeCprob < 1)) fail(`--judge-cprob must be in (0, 1), not "${values['judge-cprob']}"`);

const comparison = readJsonFile(values.comparison, 'comparison') as Comparison;
if (!Array.isArray(comparison?.contenders)) fail(`${values.comparison} is not a comparison (tune2048 compare --json)`);
const network = { file: values.network, sha256: fileSha256(values.network) };
type Identity = { kind?: string; sha256?: string; search?: NetworkPlayerSpec['search'] };
const contenders = comparison.contenders.map((c) => {
  const id = c.player?.identity as Identity | undefined;
  if (id?.kind !== 'network' || !id.search) fail(`contender "${c.label}" is not a network player (a decision screen judges a network's settings by that network searched deeper)`);
  if (id.sha256 !== network.sha256) fail(`contender "${c.label}" plays the network ${id.sha256?.slice(0, 12)}…, not ${values.network} (${network.sha256.slice(0, 12)}…): a screen on a bank of another network`);
  const spec: NetworkPlayerSpec = { kind: 'network', network, search: id.search };
  return { label: c.label, spec, mean: c.summary.meanScore, pairs: c.games.length, baseDepth: id.search.depth };
}).filter((c, k, all) => {
  // Two files of one setting (a run that handed back its start, say; or stage weights all 1 beside none) play the same games: one setting, counted once.
  const first = all.find((o) => gamesKey(o.spec) === gamesKey(c.spec))!;
  if (first !== c) console.error(`decision-screen: ${c.label} plays the setting of ${first.label}: counted once`);
  return first === c;
});

const judge = createNetworkPlayer({ network, search: { depth: judgeDepth, cprob: judgeCprob } });
const rows = contenders.map((c, k) => {
  const player = createNetworkPlayer(c.spec);
  const started = performance.now();
  const perGame: SampledDecision[][] = [];
  let moves = 0;
  for (let g = 0; g < games; g++) {
    const { decisions, game } = ownGameDecisions(player, seed + g, every);
    perGame.push(decisions);
    moves += game.moves;
  }
  const played = performance.now();
  const all = judgeDecisions(perGame.flat(), judge);
  const judged = performance.now();
  // Split-half: the first half of the games against the second (is the screen's own ranking stable?).
  const cut = perGame.slice(0, games >> 1).reduce((n, d) => n + d.length, 0);
  const firstHalf = mean(all.regrets.slice(0, cut));
  const secondHalf = mean(all.regrets.slice(cut));
  console.error(`decision-screen: ${k + 1}/${contenders.length} ${c.label}: ${all.positions} positions, regret ${all.meanRegret.toFixed(1)}`);
  return { ...c, positions: all.positions, meanRegret: all.meanRegret, low: all.low, high: all.high, agreement: all.agreement, firstHalf, secondHalf, ownMoves: moves, msPlaying: played - started, msJudging: judged - played };
});

const byScore = rows.map((r) => r.mean);
const byScreen = rows.map((r) => -r.meanRegret); // less regret ranks higher
const within = [...new Set(rows.map((r) => String(r.baseDepth)))].map((d) => {
  const group = rows.filter((r) => String(r.baseDepth) === d);
  return { baseDepth: d, settings: group.length, spearman: group.length >= 3 ? spearman(group.map((r) => r.mean), group.map((r) => -r.meanRegret)) : null };
});
const reversed = comparison.pairs
  .filter((p) => p.wilcoxon.p < 0.05 && rows.some((r) => r.label === p.a) && rows.some((r) => r.label === p.b))
  .map((p) => {
    const a = rows.find((r) => r.label === p.a)!;
    const b = rows.find((r) => r.label === p.b)!;
    return { a: p.a, b: p.b, scoreDiff: p.meanDiff, p: p.wilcoxon.p, regretDiff: a.meanRegret - b.meanRegret, agrees: Math.sign(p.meanDiff) === Math.sign(b.meanRegret - a.meanRegret) };
  });
const result = {
  judge: { depth: judgeDepth, cprob: judgeCprob },
  ownGames: { games, every, seed },
  spearman: spearman(byScore, byScreen),
  splitHalf: spearman(rows.map((r) => -r.firstHalf), rows.map((r) => -r.secondHalf)),
  // Each half alone against the scores: the screen at half the own games.
  halves: [spearman(byScore, rows.map((r) => -r.firstHalf)), spearman(byScore, rows.map((r) => -r.secondHalf))],
  within,
  significantPairs: reversed,
  contenders: rows.map(({ spec: _spec, ...r }) => r),
};
if (values.json) {
  console.log(JSON.stringify(result));
} else {
  const rank = (xs: number[]) => xs.map((x) => 1 + xs.filter((y) => y > x).length);
  const scoreRank = rank(byScore);
  const screenRank = rank(byScreen);
  console.log(`judge: the network at depth ${judgeDepth}, cprob ${judgeCprob}; own games: ${games} a setting from seed ${seed}, every ${every}th decision`);
  console.log('| contender | pairs | mean score | rank | positions judged | mean regret (95 % CI) | agrees with the judge | rank by regret | screen s (play + judge) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  rows.forEach((r, k) =>
    console.log(`| ${r.label} | ${r.pairs} | ${Math.round(r.mean).toLocaleString('en-US')} | ${scoreRank[k]} | ${r.positions.toLocaleString('en-US')} | ${r.meanRegret.toFixed(1)} (${r.low.toFixed(1)} to ${r.high.toFixed(1)}) | ${(100 * r.agreement).toFixed(1)} % | ${screenRank[k]} | ${((r.msPlaying + r.msJudging) / 1000).toFixed(0)} (${(r.msPlaying / 1000).toFixed(0)} + ${(r.msJudging / 1000).toFixed(0)}) |`),
  );
  console.log(`Spearman, regret against mean score: ${result.spearman.toFixed(2)} over ${rows.length} settings (the issue's bar: 0.8)`);
  for (const w of within) console.log(`  within base depth ${w.baseDepth} (${w.settings} settings): ${w.spearman === null ? 'too few to rank' : w.spearman.toFixed(2)}`);
  console.log(`the screen against itself (games 1–${games >> 1} against ${(games >> 1) + 1}–${games}): Spearman ${result.splitHalf.toFixed(2)}; each half alone against the scores: ${result.halves.map((h) => h.toFixed(2)).join(' and ')}`);
  const wrong = reversed.filter((p) => !p.agrees);
  console.log(`pairs the comparison tells apart (p < 0.05): ${reversed.length}; the screen orders ${wrong.length} of them the other way${wrong.length ? ': ' + wrong.map((p) => `${p.a} vs ${p.b}`).join('; ') : ''}`);
}
