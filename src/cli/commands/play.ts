import { Command, Option } from 'commander';
import { basename } from 'node:path';
import { RULES, type Rules } from '../../engine/rules';
import { InputError } from '../../util/errors';
import { gameSeed } from '../../player/players';
import { foregroundPlayer } from '../../player/foreground';
import { networkFileOf } from '../../player/player-ref';
import { searchAdditions } from '../../player/network-settings';
import type { ExternalPlayerSpec, PlayerSpec } from '../../player/spec';
import { addMoveBudgetOption, addParamsOption, addPlayerOptions, addThreadsOption, cliPlayer, type PlayerCliOptions } from '../player-options';
import { closeExternalProcess, externalProcessFor, playExternalGame } from '../../player/external/play';
import { externalLabel } from '../../player/external/resolve';
import { summarizeGames } from '../../compare/summary';
import type { PlayedGame } from '../../engine/game';
import { formatSummary } from '../format';
import { parseCprob, parseDepthOption, checkSeedRange, parseIntegerOption, parseSeed, parseWorkers } from '../options';
import { createProgress } from '../progress';
import { queueOption } from '../runner-options';
import { parseSeedList } from '../seed-list';
import { checkOutputPath, writeOutputFile } from '../output';
import { playCsv } from '../../report/csv';
import { DEFAULT_DB } from '../../store/store';


/** Plays on worker processes (--workers > 1) or a Redis queue (--queue); the games come back in seed order. */
async function playOnRunner(spec: PlayerSpec, seeds: number[], where: { workers: number; queue?: string }, onDone: (n: number) => void): Promise<PlayedGame[]> {
  const { checkQueue, withCliRunner } = await import('../runner-options');
  const { playSeeds } = await import('../../runner/runner');
  await checkQueue(where.queue);
  let done = 0;
  // Small batches: a game at depth 3 takes seconds, and every worker should stay busy to the end.
  const batch = Math.max(1, Math.min(10, Math.ceil(seeds.length / (4 * where.workers))));
  return withCliRunner(where, (runner) => playSeeds(runner, spec, seeds, batch, (games) => onDone((done += games.length))));
}

/** An external player's games in this process: one program, kept for every game (closed when the process exits). */
function externalMoves(spec: ExternalPlayerSpec): (seed: number) => Promise<PlayedGame & { finalBoard?: unknown }> {
  return async (seed) => {
    const program = await externalProcessFor(spec.external, spec.external.launch!);
    const { directions: _moves, ...game } = await playExternalGame(program, spec.external.params, seed);
    return game;
  };
}

export function command(): Command {
  const cmd = new Command('play')
    .description('play seeded games with a weight set and print score statistics')
    .requiredOption('-w, --weights <file|preset>', 'weights file or preset name (see tune2048 presets)', 'nneonneo')
    .option('-n, --games <n>', 'number of games', parseIntegerOption('--games', 1, 1_000_000), 10)
    .option('-d, --depth <d>', 'chance layers below the root move, or "auto"', parseDepthOption, 1 as number | 'auto')
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('-s, --seed <s>', 'seed of the first game; game i uses seed s+i (the default, 1,000,000, as compare\'s: seeds no tuning run plays)', parseSeed, 1_000_000)
    .option('--seeds <list>', "play these seeds instead (--games and --seed then say nothing): a comma list, @FILE (a seed a line), or run:N (run N's held-out seeds in --db; run:N:confirmation its second set)")
    .option('--db <file>', 'the database a --seeds run:N is read from (read-only)', DEFAULT_DB)
    .option('--workers <n>', 'worker processes (default 1: in this process)', parseWorkers, 1)
    .addOption(queueOption())
    .addOption(new Option('--rules <rules>', "classic, or corner: the deterministic corner rules, no chance in the spawns (docs/players.md; in this process only)").choices([...RULES]).default('classic'))
    .option('--json', 'one JSON object on stdout')
    .option('--csv <file>', 'also write every game, a row each (player, seed, score, max_tile, moves, ms, nodes: docs/statistics.md), to FILE; - for stdout instead of the summary')
    .option('--force', 'let --csv overwrite an existing file');
  return addMoveBudgetOption(addParamsOption(addThreadsOption(addPlayerOptions(cmd)))).action(async (opts: PlayerCliOptions & { params?: string; weights: string; games: number; depth: number | 'auto'; cprob: number; seed: number; seeds?: string; db: string; workers: number; queue?: string; rules: Rules; json?: boolean; csv?: string; force?: boolean }) => {
      if (opts.csv !== undefined && opts.csv !== '-') checkOutputPath(opts.csv, { option: '--csv', force: opts.force });
      // The seeds: consecutive from --seed, or a list (a run's held-out seeds: its figure played again).
      if (opts.seeds === undefined) checkSeedRange(opts.seed, opts.games);
      const seeds = opts.seeds !== undefined ? parseSeedList(opts.seeds, opts.db) : Array.from({ length: opts.games }, (_, i) => gameSeed(opts.seed, i));
      opts.games = seeds.length;
      if (opts.rules !== 'classic' && (opts.workers > 1 || opts.queue)) throw new InputError('--rules corner plays in this process only (no --workers or --queue)');
      if (opts.threads !== undefined && (opts.workers > 1 || opts.queue)) throw new InputError('--threads splits one game\'s search in this process: use it without --workers or --queue (which play whole games in parallel)');
      const spec = await cliPlayer(opts, { replayCheck: true });
      // A network player file is named as given, with the network it plays.
      const given = networkFileOf(opts.player);
      const networkLabel = (file: string) => (given !== null && basename(given) !== basename(file) ? `${basename(given)} (network ${basename(file)})` : basename(file));
      const label = spec.kind === 'external' ? externalLabel(spec.external.name, opts.params) : spec.kind === 'network' ? networkLabel(spec.network.file) : (spec.weights.name ?? opts.weights);
      if (spec.kind === 'external' && opts.rules !== 'classic') throw new InputError('--rules corner: an external player plays the classic rules (tune2048 runs its games)');
      if (spec.kind === 'external' && opts.threads !== undefined) throw new InputError('--threads splits expectimax\'s search; an external player searches as it likes');
      // A bad player setting fails here, before any output; an external program plays in this process over its pipe.
      // A built-in player searches in a thread of its own, so Ctrl-C stops even a deep game at once.
      const thread = opts.workers > 1 || opts.queue || spec.kind === 'external' ? null : await foregroundPlayer(spec);
      const local = opts.workers > 1 || opts.queue ? null : spec.kind === 'external' ? externalMoves(spec) : (seed: number) => thread!.remote.play(seed, { rules: opts.rules });
      const progress = createProgress('games', opts.games);
      const line = (i: number, r: PlayedGame) => {
        if (!opts.json && opts.csv !== '-') console.log(`game ${i + 1}\tseed ${r.seed}\tscore ${r.score}\tmax ${r.maxTile}\tmoves ${r.moves}\t${r.ms.toFixed(0)} ms`);
      };
      let games: PlayedGame[];
      if (opts.workers > 1 || opts.queue) {
        games = await playOnRunner(spec, seeds, opts, (n) => progress.update(n));
        progress.stop();
        games.forEach((g, i) => line(i, g));
      } else {
        games = [];
        for (let i = 0; i < opts.games; i++) {
          const { finalBoard: _board, ...r } = await local!(seeds[i]);
          games.push(r);
          progress.update(i + 1);
          line(i, r);
        }
        progress.stop();
        closeExternalProcess();
        await thread?.close();
      }
      const summary = summarizeGames(games);
      if (opts.csv !== undefined) {
        const text = playCsv(label, games);
        if (opts.csv === '-') {
          process.stdout.write(text);
          return;
        }
        writeOutputFile(opts.csv, text, { option: '--csv', force: opts.force });
        console.error(`wrote ${opts.csv}`);
      }
      const settings = { depth: opts.depth, cprob: opts.cprob, seed: seeds[0], firstSeed: seeds[0], ...(opts.seeds !== undefined ? { seeds, seedSource: opts.seeds } : {}), ...(opts.msPerMove !== undefined ? { msPerMove: opts.msPerMove } : {}) };
      if (opts.json) {
        const perGame = games.map(({ seed, score, maxTile, moves, ms, nodes }) => ({ seed, score, maxTile, moves, ms, ...(nodes !== undefined ? { nodes } : {}) }));
        console.log(JSON.stringify({ weights: label, player: spec.kind === 'external' ? `external:${spec.external.name}` : spec.kind === 'network' ? `network:${spec.network.file}` : spec.kind, rules: opts.rules, ...settings, workers: opts.workers, ...(opts.threads !== undefined ? { threads: opts.threads } : {}), summary, games: perGame }));
      } else {
        // With a time per move the depth given is a cap: say how deep the games went.
        const reached = summary.meanDepth !== undefined ? `: depth ${summary.meanDepth.toFixed(1)} reached on average` : '';
        const additions = spec.kind === 'network' ? [...(spec.search.depthRule ? ['its depth rule'] : []), ...searchAdditions({ downgradeAt: spec.search.downgradeAt })] : [];
        const depth = `depth ${opts.depth}${additions.map((a) => ` + ${a}`).join('')}`;
        const search = spec.kind === 'external' ? 'its own settings' : opts.msPerMove !== undefined ? `up to ${depth} within ${opts.msPerMove} ms a move${reached}` : depth;
        const which = opts.seeds !== undefined ? `${seeds.length} listed seeds, --seeds ${opts.seeds}` : `seeds ${seeds[0]}..${seeds[seeds.length - 1]}`;
        console.log(formatSummary(`${label} (${search}, ${which})`, summary));
      }
    });
}
