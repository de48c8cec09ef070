import { Command } from 'commander';
import { loadWeights } from '../../heuristic/weights';
import { createSolver, gameSeed, playGames } from '../../solver/solver';
import { summarizeGames } from '../../solver/summary';
import { parseCprob, parseDepthOption, parseIntegerOption, parseSeed } from '../options';
import { createProgress } from '../progress';
import { formatSummary } from '../format';

export function playCommand(): Command {
  return new Command('play')
    .description('play seeded games with a weight set and print score statistics')
    .requiredOption('-w, --weights <file|preset>', 'weights file or preset name (see configs/weights)', 'nneonneo')
    .option('-n, --games <n>', 'number of games', parseIntegerOption('--games', 1, 1_000_000), 10)
    .option('-d, --depth <d>', 'chance layers below the root move, or "auto"', parseDepthOption, 1 as number | 'auto')
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('-s, --seed <s>', 'seed of the first game; game i uses seed s+i', parseSeed, 1)
    .option('--json', 'one JSON object on stdout')
    .action((opts: { weights: string; games: number; depth: number | 'auto'; cprob: number; seed: number; json?: boolean }) => {
      const weights = loadWeights(opts.weights);
      const solver = createSolver(weights, { depth: opts.depth, cprob: opts.cprob });
      const progress = createProgress('games', opts.games);
      const games = playGames(solver, {
        games: opts.games,
        seed: opts.seed,
        onGame: (r, i) => {
          progress.update(i + 1);
          if (!opts.json) console.log(`game ${i + 1}\tseed ${r.seed}\tscore ${r.score}\tmax ${r.maxTile}\tmoves ${r.moves}\t${r.ms.toFixed(0)} ms`);
        },
      });
      progress.stop();
      const summary = summarizeGames(games);
      const settings = { depth: opts.depth, cprob: opts.cprob, seed: opts.seed, firstSeed: gameSeed(opts.seed, 0) };
      if (opts.json) {
        const perGame = games.map(({ seed, score, maxTile, moves, ms }) => ({ seed, score, maxTile, moves, ms }));
        console.log(JSON.stringify({ weights: weights.name ?? opts.weights, ...settings, summary, games: perGame }));
      } else {
        console.log(formatSummary(weights.name ?? opts.weights, summary));
      }
    });
}

