/** The player options every playing command shares: --player and MCTS's knobs (depth and cprob are each command's own). */
import { Command, Option } from 'commander';
import type { Weights } from '../heuristic/weights';
import type { DepthSetting } from '../player/expectimax';
import { PLAYER_KINDS, playerSpec, type PlayerKind, type PlayerSpec } from '../player/spec';
import { parseIntegerOption, parseNumberOption, parseThreads } from './options';
import { MAX_DEPTH } from '../player/limits';
import { InputError } from '../util/errors';
import { loadWeights } from '../heuristic/weights';
import { externalName, NETWORK_PREFIX, networkFileOf } from '../player/player-ref';
import type { SearchGiven } from '../player/network-player';

/** A built-in kind, or "external:NAME" (a player in configs/players or a player file). */
export type PlayerOption = PlayerKind | `external:${string}` | `network:${string}`;

export interface PlayerCliOptions {
  player: PlayerOption;
  /** Set before the action: whether -d and --cprob came from the command line (else a weights or player file's own search plays). */
  searchGiven?: SearchGiven;
  threads?: number;
  msPerMove?: number;
  iterations?: number;
  c?: number;
  rolloutDepth?: number;
}

export function addPlayerOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--player <kind>', 'expectimax; minimax (the Haskell player\'s: alpha-beta, adversarial tile placement); mcts or mcts-emm (the Python player\'s: tree search with random or expectimax rollouts); external:NAME, a program speaking docs/protocol.md (NAME in configs/players, or a player file); network:FILE, a learned n-tuple network (tune2048 learn export; or a network player file, tune2048 export of a run tuned on one) searched to --depth with the network at the leaves (0: greedy)').argParser(parsePlayerOption).default('expectimax'))
    .option('--iterations <n>', 'mcts, mcts-emm: iterations per move (default 1500; mcts-emm 50)', parseIntegerOption('--iterations', 1, 10_000_000))
    .option('--c <x>', "mcts, mcts-emm: UCB1's exploration constant (default 1.4)", parseNumberOption('--c', 0, 1000))
    .option('--rollout-depth <n>', 'mcts, mcts-emm: moves per rollout (default 30; mcts-emm 10)', parseIntegerOption('--rollout-depth', 0, 100_000))
    .hook('preAction', (_, action) => {
      // A file that carries the search it was validated at plays at it unless the command line says otherwise.
      action.setOptionValue('searchGiven', { depth: action.getOptionValueSource('depth') === 'cli' || action.opts().msPerMove !== undefined, cprob: action.getOptionValueSource('cprob') === 'cli' } satisfies SearchGiven);
      // A network or an external program is the whole player: weights given beside it would be ignored.
      const player = String(action.opts().player);
      if (action.getOptionValueSource('weights') === 'cli' && (player.startsWith('external:') || player.startsWith(NETWORK_PREFIX))) {
        throw new InputError(`--weights and --player ${player} exclude each other: ${player.startsWith(NETWORK_PREFIX) ? 'the network plays on its own (heuristic terms on it go in a network player file, docs/networks.md)' : 'the program plays with its own evaluation (its values go in --params)'}`);
      }
      // Every option given acts: tune2048's search settings do nothing to an external program, MCTS's nothing to another player.
      // (play and hint only, the commands with --params: compare and sweep refuse an external --player on their own.)
      if (player.startsWith('external:') && action.options.some((o) => o.long === '--params')) {
        const search = (['depth', 'cprob'] as const).find((k) => action.getOptionValueSource(k) === 'cli');
        if (search) throw new InputError(`--${search} sets tune2048's own search, and --player ${player} searches as its program decides, so it would do nothing: remove it (the program's own settings go in --params)`);
      }
      // Plain MCTS's rollouts are random moves (no depth, no cutoff); minimax has no cutoff.
      const idle = player === 'mcts' ? (['depth', 'cprob'] as const).find((k) => action.getOptionValueSource(k) === 'cli') : player === 'minimax' && action.getOptionValueSource('cprob') === 'cli' ? 'cprob' : undefined;
      if (idle) throw new InputError(`--${idle}: ${player === 'mcts' ? "plain MCTS's rollouts are random moves, with no search" : 'minimax searches every reply to its depth, with no probability cutoff'}, so it would do nothing: remove it${player === 'mcts' ? ' (or --player mcts-emm, whose rollouts are expectimax at -d and --cprob)' : ''}`);
      if (player !== 'mcts' && player !== 'mcts-emm') {
        const mcts = (['iterations', 'c', 'rolloutDepth'] as const).find((k) => action.getOptionValueSource(k) === 'cli');
        if (mcts) throw new InputError(`--${mcts === 'rolloutDepth' ? 'rollout-depth' : mcts} sets MCTS's search (--player mcts or mcts-emm), and --player ${player}${action.getOptionValueSource('player') === 'default' ? ' (the default)' : ''} has none, so it would do nothing: remove it`);
      }
    });
}

/** --threads (play and hint: one game or board at a time, its search split over threads). */
export function addThreadsOption(cmd: Command): Command {
  return cmd.option(
    '--threads <n|auto>',
    'expectimax or network:FILE: split each decision\'s root moves over n threads (auto: one per core), each root move searched with a table of its own: the same moves for any n (expectimax: not always its default search\'s; a network: the same games as without)',
    parseThreads,
  );
}

function parsePlayerOption(value: string): PlayerOption {
  if ((PLAYER_KINDS as readonly string[]).includes(value)) return value as PlayerKind;
  if (value.startsWith('external:') || value.startsWith(NETWORK_PREFIX)) return value as PlayerOption;
  throw new InputError(`--player must be one of ${PLAYER_KINDS.join(', ')}, external:NAME or network:FILE, got "${value}"`);
}

/** The built-in kind of --player; an external one is refused where only built-in players go (`where` says why). */
export function builtInKind(opts: PlayerCliOptions, where: string): PlayerKind {
  if (opts.player.startsWith('external:') || opts.player.startsWith(NETWORK_PREFIX)) throw new InputError(`--player ${opts.player}: ${where}`);
  return opts.player as PlayerKind;
}

/**
 * --ms-per-move (play, hint, compare): a time budget per move, iterative deepening up to --depth; without
 * an explicit --depth, up to the deepest depth there is (the budget stops it).
 */
export function addMoveBudgetOption(cmd: Command): Command {
  return cmd
    .option('--ms-per-move <ms>', `expectimax or network:FILE: a time budget per move: depths 1, 2, … searched in turn while the next fits, up to --depth (${MAX_DEPTH} when -d is not given); the move is the deepest finished depth's. Games then depend on the machine's speed`, parseNumberOption('--ms-per-move', 0.001, 3_600_000))
    .hook('preAction', (_, action) => {
      if (action.opts().msPerMove !== undefined && action.getOptionValueSource('depth') === 'default') action.setOptionValueWithSource('depth', MAX_DEPTH, 'default');
    });
}

/** --params: an external player's parameter values (play and hint). */
export function addParamsOption(cmd: Command): Command {
  return cmd.option('--params <file>', 'with --player external:NAME: its parameter values (a tune2048/player-params file, as export writes for its run); default: the values it announces');
}

/**
 * The player of play and hint: a built-in one with these weights, or the external program (started once to read
 * its parameters). `opts.depth` and `opts.cprob` become what plays: a weights or network player file's own search
 * where the command line gave none.
 */
export async function cliPlayer(opts: PlayerCliOptions & { depth: DepthSetting; cprob: number; params?: string; weights: string }, { replayCheck = false } = {}): Promise<PlayerSpec> {
  const given = opts.searchGiven ?? { depth: true, cprob: true };
  const name = externalName(opts.player);
  if (name !== null) {
    if (opts.msPerMove !== undefined) throw new InputError('--ms-per-move deepens expectimax\'s search or a network\'s; an external player searches as it likes');
    // The external and network players' modules load only for them (hint's start is every command's cost).
    const [{ resolveExternalPlayer }, { checkExternalReplay, externalPlayerSpec }] = await Promise.all([import('../player/external/definition'), import('../player/external/resolve')]);
    const definition = resolveExternalPlayer(name);
    const spec = await externalPlayerSpec(definition, opts.params);
    // Games that are a function of their seeds (play's figures are replayed by seed), as tune checks before a run.
    if (replayCheck) {
      const warning = await checkExternalReplay(spec, definition.nondeterministic);
      if (warning) console.error(warning);
    }
    return spec;
  }
  const network = networkFileOf(opts.player);
  if (network !== null) {
    if (opts.params) throw new InputError('--params gives an external player\'s values; a network has none');
    const { networkPlayerSpec } = await import('../player/network-player');
    const spec = networkPlayerSpec(network, { depth: opts.depth, cprob: opts.cprob, msPerMove: opts.msPerMove, threads: opts.threads }, given);
    opts.depth = spec.search.depth;
    opts.cprob = spec.search.cprob;
    return spec;
  }
  if (opts.params) throw new InputError('--params gives an external player\'s values: use it with --player external:NAME (weights go with -w)');
  const weights = loadWeights(opts.weights);
  if (!given.depth && weights.search?.depth !== undefined) opts.depth = weights.search.depth;
  if (!given.cprob && weights.search?.cprob !== undefined) opts.cprob = weights.search.cprob;
  return cliPlayerSpec(opts, weights);
}

export function cliPlayerSpec(opts: PlayerCliOptions & { depth: DepthSetting; cprob: number }, weights: Weights): PlayerSpec {
  return playerSpec(builtInKind(opts, 'this command plays built-in players only'), weights, { depth: opts.depth, cprob: opts.cprob, iterations: opts.iterations, c: opts.c, rolloutDepth: opts.rolloutDepth, threads: opts.threads, msPerMove: opts.msPerMove });
}

/** The player settings of a comparison or sweep (the same player for every contender). */
export function playerOf(o: PlayerCliOptions) {
  return { player: builtInKind(o, 'name it as a contender instead (external:NAME, a parameter file, or network:FILE)'), iterations: o.iterations, c: o.c, rolloutDepth: o.rolloutDepth, ...(o.msPerMove !== undefined ? { msPerMove: o.msPerMove } : {}) };
}
