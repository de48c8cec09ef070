import { Command } from 'commander';
import type { GameResult } from '../../engine/game';
import { loadWeights } from '../../heuristic/weights';
import { createSolver, gameSeed, playGames } from '../../solver/solver';
import { summarizeGames, type GameRecord } from '../../solver/summary';
import { formatSummary } from '../format';
import { parseCprob, parseDepthOption, parseIntegerOption, parseSeed, parseWorkers } from '../options';
import { createProgress } from '../progress';

type Played = GameRecord & { seed: number };

/** Plays on worker processes (--workers > 1); the games come back in seed order. */
async function playOnWorkers(weights: ReturnType<typeof loadWeights>, search: { depth: number | 'auto'; cprob: number }, seeds: number[], workers: number, onDone: (n: number) => void): Promise<Played[]> {
  const { createPool } = await import('../../pool/pool');
  const { playSeedsOnPool } = await import('../../solver/compare');
  const pool = createPool<import('../../pool/protocol').BatchTask, import('../../pool/protocol').BatchResult>({ workers });
  let done = 0;
  try {
    // Small batches: a game at depth 3 takes seconds, and both workers should stay busy to the end.
    return await playSeedsOnPool(pool, weights, search, seeds, Math.max(1, Math.min(10, Math.ceil(seeds.length / (4 * workers)))), (games) => onDone((done += games.length)));
  } finally {
    await pool.end();
  }
}

export function command(): Command {
  return new Command('play')
    .description('play seeded games with a weight set and print score statistics')
    .requiredOption('-w, --weights <file|preset>', 'weights file or preset name (see tune2048 presets)', 'nneonneo')
    .option('-n, --games <n>', 'number of games', parseIntegerOption('--games', 1, 1_000_000), 10)
    .option('-d, --depth <d>', 'chance layers below the root move, or "auto"', parseDepthOption, 1 as number | 'auto')
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('-s, --seed <s>', 'seed of the first game; game i uses seed s+i', parseSeed, 1)
    .option('--workers <n>', 'worker processes (default 1: in this process)', parseWorkers, 1)
    .option('--json', 'one JSON object on stdout')
    .action(async (opts: { weights: string; games: number; depth: number | 'auto'; cprob: number; seed: number; workers: number; json?: boolean }) => {
      const weights = loadWeights(opts.weights);
      const progress = createProgress('games', opts.games);
      const line = (i: number, r: Played) => {
        if (!opts.json) console.log(`game ${i + 1}\tseed ${r.seed}\tscore ${r.score}\tmax ${r.maxTile}\tmoves ${r.moves}\t${r.ms.toFixed(0)} ms`);
      };
      let games: Played[];
      if (opts.workers > 1) {
        const seeds = Array.from({ length: opts.games }, (_, i) => gameSeed(opts.seed, i));
        games = await playOnWorkers(weights, { depth: opts.depth, cprob: opts.cprob }, seeds, opts.workers, (n) => progress.update(n));
        progress.stop();
        games.forEach((g, i) => line(i, g));
      } else {
        const solver = createSolver(weights, { depth: opts.depth, cprob: opts.cprob });
        games = playGames(solver, {
          games: opts.games,
          seed: opts.seed,
          onGame: (r: GameResult, i) => {
            progress.update(i + 1);
            line(i, r);
          },
        });
        progress.stop();
      }
      const summary = summarizeGames(games);
      const settings = { depth: opts.depth, cprob: opts.cprob, seed: opts.seed, firstSeed: gameSeed(opts.seed, 0) };
      if (opts.json) {
        const perGame = games.map(({ seed, score, maxTile, moves, ms }) => ({ seed, score, maxTile, moves, ms }));
        console.log(JSON.stringify({ weights: weights.name ?? opts.weights, ...settings, workers: opts.workers, summary, games: perGame }));
      } else {
        console.log(formatSummary(weights.name ?? opts.weights, summary));
      }
    });
}
