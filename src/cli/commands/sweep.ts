import { Command } from 'commander';
import { basename } from 'node:path';
import { networkPlayerSpec } from '../../player/network-player';
import { networkFileOf } from '../../player/player-ref';
import type { Contender } from '../../compare/compare';
import { loadWeights } from '../../heuristic/weights';
import { compareWeights, Sweep } from '../../compare/compare';
import { reachCells, REACH_HEADERS, type GameSummary } from '../../compare/summary';
import { table } from '../format';
import { checkSeedRange, depthParser, parseCprob, parseIntegerOption, parseListOption, parseSeed, parseWorkers } from '../options';
import { InputError } from '../../util/errors';
import { addPlayerOptions, builtInKind, playerOf, type PlayerCliOptions } from '../player-options';
import { createProgress } from '../progress';
import { checkQueue, queueOption, withCliRunner } from '../runner-options';
import { checkStoreTarget, keepResult, openGameMemo } from '../stored-results';
import { stopOnSignal } from '../stop-games';

function printSweep(sweep: Sweep, stopped: { depth: number | 'auto'; games: number } | null): void {
  const out = [['depth', 'mean', 'median', 'max', ...REACH_HEADERS, 'moves/game', 'ms/move']];
  for (const { depth, summary: s } of sweep.depths) {
    out.push([String(depth), s.meanScore.toFixed(0), s.medianScore.toFixed(0), String(s.maxScore), ...reachCells(s), s.movesPerGame.toFixed(0), s.msPerMove.toFixed(4)]);
  }
  console.log(`${stopped ? 'STOPPED: ' : ''}${sweep.weights}: ${sweep.games} games per depth, seeds ${sweep.seed}..${sweep.seed + sweep.games - 1}${stopped ? `; depth ${stopped.depth} stopped at ${stopped.games} games, not shown` : ''}`);
  if (sweep.depths.length > 0) console.log(table(out));
}

export function command(): Command {
  const cmd = new Command('sweep')
    .description('score, tile rates and ms per move of one weight set against search depth (the same seeds at every depth)')
    .argument('<weights>', 'weights file or preset name, or network:FILE (a learned n-tuple network; depth 0: greedy)')
    .option('--depths <list>', 'depths to play', parseListOption('--depths', depthParser('--depths')), [1, 2, 3] as (number | 'auto')[])
    .option('-n, --games <n>', 'games per depth', parseIntegerOption('--games', 1, 1_000_000), 100)
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('-s, --seed <s>', 'seed of the first game; game i uses seed s+i', parseSeed, 1_000_000)
    .option('--workers <n>', 'worker processes (default: CPU count)', parseWorkers)
    .addOption(queueOption())
    .option('--db <file>', 'also store the sweep in this database (see --run); every finished batch is kept there, so the same command, run again after an interruption, plays only the missing games')
    .option('--run <id>', "tie the stored sweep to a run, so the run's report shows it", parseIntegerOption('--run', 1))
    .option('--json', 'one JSON object on stdout');
  return addPlayerOptions(cmd).action(async (spec: string, opts: PlayerCliOptions & { depths: (number | 'auto')[]; games: number; cprob: number; seed: number; workers?: number; queue?: string; db?: string; run?: number; json?: boolean }) => {
      const kind = builtInKind(opts, "sweep varies tune2048's search depth; an external player's depth is its own setting (compare it at each of its settings instead)");
      if (kind === 'mcts') throw new InputError("sweep varies the search depth, and plain MCTS's rollouts are random moves, with no depth: every depth would play the same games (--player mcts-emm's rollouts search to it)");
      checkStoreTarget(opts);
      checkSeedRange(opts.seed, opts.games);
      const network = networkFileOf(spec);
      const weights = network === null ? loadWeights(spec) : null;
      const label = weights ? (weights.name ?? spec) : basename(network!);
      const base = network === null ? null : networkPlayerSpec(network, { depth: 0, cprob: opts.cprob }); // hashed once, not per depth
      const contender = (depth: number | 'auto'): Contender => (weights ? { label, weights } : { label, network: { ...base!, search: { ...base!.search, depth } } });
      await checkQueue(opts.queue);
      const rows: { depth: number | 'auto'; summary: GameSummary }[] = [];
      const db = openGameMemo(opts);
      let stopped: { depth: number | 'auto'; games: number } | null = null;
      try {
        await withCliRunner(opts, async (runner) => {
          // Ctrl-C: the running batches finish (kept with --db); the depths finished are shown, then the stopped one.
          const stopper = stopOnSignal(runner, opts.db);
          try {
            for (const depth of opts.depths) {
              const progress = (stopper.progress = createProgress(`depth ${depth}`, opts.games));
              const r = await compareWeights([contender(depth)], { games: opts.games, seed: opts.seed, depth, cprob: opts.cprob, ...playerOf(opts), runner, memo: db?.memo, onProgress: (done) => progress.update(done), onKnown: (done) => progress.already(done) });
              progress.stop();
              if (r.stoppedAt) {
                stopped = { depth, games: r.settings.games };
                break;
              }
              rows.push({ depth, summary: r.contenders[0].summary });
            }
            const sweep: Sweep = { kind: 'sweep', weights: label, games: opts.games, seed: opts.seed, cprob: opts.cprob, depths: rows };
            if (db && !stopped) keepResult(db.store, opts, { kind: 'sweep', result: sweep });
            if (opts.json) console.log(JSON.stringify(stopped ? { ...sweep, stoppedAt: stopped } : sweep));
            else printSweep(sweep, stopped);
            if (stopped) stopper.stopped(`depths ${rows.map((r) => r.depth).join(', ') || 'none'} finished, depth ${stopped.depth} at ${stopped.games} of ${opts.games} games`);
          } finally {
            stopper.uninstall();
          }
        });
      } finally {
        db?.store.close();
      }
    });
}
