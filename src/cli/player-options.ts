/** The player options every playing command shares: --player and MCTS's knobs (depth and cprob are each command's own). */
import { Command, Option } from 'commander';
import type { Weights } from '../heuristic/weights';
import type { DepthSetting } from '../player/expectimax';
import { PLAYER_KINDS, playerSpec, type PlayerKind, type PlayerSpec } from '../player/spec';
import { parseIntegerOption, parseNumberOption, parseThreads } from './options';

export interface PlayerCliOptions {
  player: PlayerKind;
  threads?: number;
  iterations?: number;
  c?: number;
  rolloutDepth?: number;
}

export function addPlayerOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--player <kind>', 'expectimax; minimax (seed 000: alpha-beta, adversarial tile placement); mcts or mcts-emm (seed 004: tree search with random or expectimax rollouts)').choices([...PLAYER_KINDS]).default('expectimax'))
    .option('--iterations <n>', 'mcts, mcts-emm: iterations per move (default 1500; mcts-emm 50)', parseIntegerOption('--iterations', 1, 10_000_000))
    .option('--c <x>', "mcts, mcts-emm: UCB1's exploration constant (default 1.4)", parseNumberOption('--c', 0, 1000))
    .option('--rollout-depth <n>', 'mcts, mcts-emm: moves per rollout (default 30; mcts-emm 10)', parseIntegerOption('--rollout-depth', 0, 100_000));
}

/** --threads (play and hint: one game or board at a time, its search split over threads). */
export function addThreadsOption(cmd: Command): Command {
  return cmd.option(
    '--threads <n|auto>',
    'expectimax: split each decision\'s root moves over n threads (auto: one per core), each root move searched with a table of its own: the same moves for any n, not always the default search\'s',
    parseThreads,
  );
}

export function cliPlayerSpec(opts: PlayerCliOptions & { depth: DepthSetting; cprob: number }, weights: Weights): PlayerSpec {
  return playerSpec(opts.player, weights, { depth: opts.depth, cprob: opts.cprob, iterations: opts.iterations, c: opts.c, rolloutDepth: opts.rolloutDepth, threads: opts.threads });
}

/** The player settings of a comparison or sweep (the same player for every contender). */
export function playerOf(o: PlayerCliOptions) {
  return { player: o.player, iterations: o.iterations, c: o.c, rolloutDepth: o.rolloutDepth };
}
