/**
 * External players' speed beside the built-in WebAssembly player (issue 23): whole seeded games, µs per
 * move including tune2048's own game loop (spawns, legality checks), in rounds that interleave the
 * contenders; medians over the rounds.
 *
 * - protocol overhead: the C example at depth 0 (greedy: ~0.1 µs of work a move) through the pipe, against
 *   the built-in player at depth 0 in this process; the difference is the pipe round trip and the
 *   protocol's parsing on both sides;
 * - each example player at the depth it plays (C: 1 and 2; Python: greedy) beside the built-in expectimax
 *   at depths 0–3 (nneonneo's weights), so the overhead can be set against a move's search time.
 *
 *   npm run build:players && npx tsx scripts/bench-external.ts [--rounds 5] [--games 20]
 */
import { installProcessGuards } from '../src/cli/process';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { playGame } from '../src/engine/game';
import { loadWeights } from '../src/heuristic/weights';
import { resolveExternalPlayer } from '../src/player/external/definition';
import { closeExternalProcess, externalProcessFor, playExternalGame } from '../src/player/external/play';
import { externalPlayerSpec } from '../src/player/external/resolve';
import type { Launch } from '../src/player/spec';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { median } from '../src/util/stats';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, games: { type: 'string', default: '20' } } });
const rounds = Number(values.rounds);
const games = Number(values.games);
const C_DIR = join(__dirname, '..', 'examples', 'players', 'c');

interface Contender {
  label: string;
  /** Plays game `seed`; returns its moves. */
  play(seed: number): Promise<number>;
}

function builtIn(depth: number): Contender {
  const player = createExpectimaxPlayer(loadWeights('nneonneo'), { depth });
  return { label: `built-in WASM expectimax, depth ${depth}`, play: async (seed) => playGame(player, seed).moves };
}

async function external(label: string, launch: Launch, name: string): Promise<Contender> {
  const spec = await externalPlayerSpec({ name, launch, nondeterministic: 'refuse', declared: { command: launch.command, cwd: launch.cwd } });
  return {
    label,
    play: async (seed) => {
      // One program for all of a contender's games (as a worker keeps it); another contender's replaces it.
      const program = await externalProcessFor(spec.external, launch);
      return (await playExternalGame(program, spec.external.params, seed)).moves;
    },
  };
}

async function main(): Promise<void> {
  const c = (depth: number): Launch => ({ command: ['./expectimax', '--depth', String(depth)], cwd: C_DIR, timeoutSec: 60 });
  const contenders: Contender[] = [
    builtIn(0),
    await external('C example through the protocol, depth 0 (greedy)', c(0), 'expectimax-c'),
    builtIn(1),
    await external('C example, depth 1', c(1), 'expectimax-c'),
    builtIn(2),
    await external('C example, depth 2', c(2), 'expectimax-c'),
    builtIn(3),
    await external('Python example (greedy)', resolveExternalPlayer('greedy-py').launch, 'greedy-py'),
  ];
  const perMove = new Map<string, number[]>(contenders.map((k) => [k.label, []]));
  for (let r = 0; r < rounds; r++) {
    for (const k of contenders) {
      const n = k.label.includes('depth 3') || k.label.includes('C example, depth 2') ? Math.max(2, Math.ceil(games / 10)) : games;
      let moves = 0;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) moves += await k.play(1_000_000 + i);
      perMove.get(k.label)!.push(((performance.now() - t0) * 1000) / moves);
    }
    process.stderr.write(`round ${r + 1} of ${rounds}\n`);
  }
  closeExternalProcess();
  console.log('| player | µs per move (median of rounds) | rounds |');
  console.log('|---|---|---|');
  for (const k of contenders) console.log(`| ${k.label} | ${median(perMove.get(k.label)!).toFixed(1)} | ${perMove.get(k.label)!.map((x) => x.toFixed(1)).join(', ')} |`);
}

void main();
