/**
 * Deepening on close calls, measured by the decision screen: a network's search at depth d that searches a
 * decision again at d + 1 when its two best moves' values lie within a gap (points, or a share of the best
 * value), against plain depths and the depth rule by empty cells — positions a move against the regret of
 * its own decisions judged at depth 3 (src/player/decision-screen.ts; it ranks this network's settings as
 * 300-game means do, docs/results/decision-screen.md). Prototype of a search setting, not a player: a
 * setting worth building would show a lower regret than the depth rule at the same positions a move.
 *
 *   npx tsx scripts/close-calls.ts --network net-50000.bin [--games 6] [--every 20] [--settings d1,d2,1a100,1r0.001,2a10]
 *
 * A setting is dN (plain depth N); B{a|r}X: depth B, one deeper where the best two moves differ by at most
 * X points (a) or X times the best value (r); or a network player file of the same network (its depth rule,
 * e.g. a tuned budget point). The games are seeds 9,200,000 on, as the screen's.
 */
import { Command } from 'commander';
import { installProcessGuards } from '../src/cli/process';
import type { Board } from '../src/engine/board';
import type { Direction } from '../src/engine/moves';
import { judgeDecisions, ownGameDecisions, type SampledDecision } from '../src/player/decision-screen';
import type { Player } from '../src/engine/player';
import { createNetworkPlayer, fileSha256, networkPlayerSpec } from '../src/player/network-player';
import { MAX_DEPTH } from '../src/player/limits';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const opts = new Command()
  .requiredOption('--network <file>', 'the network file')
  .option('--games <n>', 'own games a setting', '6')
  .option('--every <k>', 'judge every k-th decision', '20')
  .option('--settings <list>', 'settings to measure', 'd1,d2,1a30,1a100,1a300,1r0.0003,1r0.001,1r0.003,2a10,2a30,2r0.0001')
  .parse()
  .opts<{ network: string; games: string; every: string; settings: string }>();

interface Setting {
  name: string;
  depth: number;
  /** The gap within which a decision is searched again one deeper (null: never). */
  gap: { relative: boolean; within: number } | null;
  /** A player file's own player (its depth rule), instead of a depth. */
  file?: Player;
}

function parseSetting(s: string): Setting {
  const plain = /^d(\d)$/.exec(s);
  if (plain) return { name: s, depth: Number(plain[1]), gap: null };
  if (s.endsWith('.json')) {
    const spec = networkPlayerSpec(s, { depth: 2, cprob: 1e-4 }, { depth: false, cprob: false });
    if (spec.network.sha256 !== network.sha256) throw new Error(`${s}: plays another network than --network`);
    return { name: s, depth: 0, gap: null, file: createNetworkPlayer(spec) };
  }
  const close = /^(\d)([ar])(\d+(?:\.\d+)?)$/.exec(s);
  if (!close || Number(close[1]) >= MAX_DEPTH) throw new Error(`setting "${s}": dN, or B{a|r}X with B below ${MAX_DEPTH} (e.g. 1a100, 2r0.001)`);
  return { name: s, depth: Number(close[1]), gap: { relative: close[2] === 'r', within: Number(close[3]) } };
}

/** The best two legal moves' difference, in points or as a share of the best (Infinity with one legal move). */
function gapOf(values: readonly number[], relative: boolean): number {
  const legal = values.filter((v) => !Number.isNaN(v)).sort((a, b) => b - a);
  if (legal.length < 2) return Infinity;
  return relative ? (legal[0] - legal[1]) / Math.abs(legal[0]) : legal[0] - legal[1];
}

const network = { file: opts.network, sha256: fileSha256(opts.network) };
const settings = opts.settings.split(',').map(parseSetting);
const games = Number(opts.games);
const every = Number(opts.every);
const atDepth = (depth: number) => createNetworkPlayer({ network, search: { depth, cprob: 1e-4 } });
const players = Array.from({ length: MAX_DEPTH + 1 }, (_, d) => atDepth(d));
const judge = players[3]; // the judge: plain depth 3, as the screen's
// Every player shares the network's machine: its position count is what a decision searched, judge excluded.
const counted = players[0];

console.log('setting | positions a move | decisions deepened | mean regret (judged at depth 3) | agrees with the judge | mean score');
for (const s of settings) {
  let positions = 0;
  let moves = 0;
  let deepened = 0;
  let score = 0;
  const decisions: SampledDecision[] = [];
  const chooser = {
    chooseMove(board: Board): Direction | -1 {
      const before = counted.searchNodes();
      let decision = (s.file ?? players[s.depth]).decide!(board);
      if (decision.move !== -1 && s.gap && gapOf(decision.values, s.gap.relative) <= s.gap.within) {
        decision = players[s.depth + 1].decide!(board);
        deepened++;
      }
      positions += counted.searchNodes() - before;
      if (decision.move !== -1) moves++;
      return decision.move as Direction | -1;
    },
  };
  for (let g = 0; g < games; g++) {
    const own = ownGameDecisions(chooser, 9_200_000 + g, every);
    decisions.push(...own.decisions);
    score += own.game.score;
  }
  // Judged after the games: a decision's positions are counted around it alone, so the judge's searches are not among them.
  const judged = judgeDecisions(decisions, judge);
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  console.log(`${s.name} | ${Math.round(positions / moves)} | ${pct(deepened / moves)} | ${judged.meanRegret.toFixed(2)} | ${pct(judged.agreement)} | ${Math.round(score / games)}`);
}
