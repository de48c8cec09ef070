import { Command } from 'commander';
import { loadWeights } from '../../heuristic/weights';
import { compareSequential, compareWeights, comparisonNotes, distinctLabels, FEW_PAIRS, type Comparison, type Contender, type SequentialComparison } from '../../compare/compare';
import { WILCOXON_EXACT_MAX } from '../../util/stats';
import { stopOnSignal, type Stopper } from '../stop-games';
import type { GameRunner } from '../../runner/runner';
import { InputError } from '../../util/errors';
import { reachCells, REACH_HEADERS } from '../../compare/summary';
import { signedWhole as signed, table, wholeInterval as interval } from '../format';
import { checkSeedRange, depthParser, parseCprob, parseDepthOption, parseIntegerOption, parseNumberOption, parseSeed, parseWorkers } from '../options';
import { addMoveBudgetOption, addPlayerOptions, playerOf, type PlayerCliOptions } from '../player-options';
import { createProgress } from '../progress';
import { checkQueue, queueOption, withCliRunner } from '../runner-options';
import { checkStoreTarget, keepResult, openGameMemo, type OpenGameMemo } from '../stored-results';
import { checkExternalReplay, externalContender, namedExternalPlayers } from '../../player/external/resolve';
import { networkPlayerSpec } from '../../player/network-player';
import { searchAdditions } from '../../player/network-settings';
import { networkFileOf } from '../../player/player-ref';
import { basename } from 'node:path';
import { parseSeedList } from '../seed-list';
import { checkOutputPath, writeOutputFile } from '../output';
import { comparisonCsv } from '../../report/csv';
import { DEFAULT_DB } from '../../store/store';
import type { DepthSetting } from '../../player/expectimax';

/**
 * "NAME@dN", "NAME@dauto", "NAME@cP" or "NAME@dN@cP": a contender at a depth or chance cutoff of its own
 * (compare's --depth and --cprob for the others), as a run that tuned them exports them.
 */
export function contenderDepth(arg: string): { name: string; depth?: DepthSetting; cprob?: number } {
  let name = arg;
  let cprob: number | undefined;
  const c = /^(.+)@c([^@]+)$/.exec(name);
  if (c) {
    cprob = parseNumberOption(`${arg}: the cutoff after @c`, 0, 0.999999)(c[2]);
    name = c[1];
  }
  const m = /^(.+)@d(\d+|auto)$/.exec(name);
  if (!m) return { name, ...(cprob !== undefined ? { cprob } : {}) };
  return { name: m[1], depth: depthParser(`${arg}: the depth after @d`)(m[2]), ...(cprob !== undefined ? { cprob } : {}) };
}

/**
 * The pair table names each contender without its depth rule's words, which the contender table above gives
 * (four network players made its lines 200+ characters), as long as the names stay distinct.
 */
function pairNames(labels: readonly string[]): (label: string) => string {
  const short = new Map(labels.map((l) => [l, l.replace(/ \(\+ [^()]*\)$/, '')]));
  return new Set(short.values()).size === labels.length ? (l) => short.get(l) ?? l : (l) => l;
}

/**
 * A contender's label suffix: its own depth and cutoff. A cutoff the user typed (@cP) stays as typed; a player
 * file's own (a tuned 0.048006368879519125) is shown to 3 significant digits — the file itself plays it exactly.
 */
const depthSuffix = (depth: DepthSetting | undefined, cprob?: number, fromFile = false) =>
  (depth === undefined ? '' : `@d${depth}`) + (cprob === undefined ? '' : `@c${fromFile ? Number(cprob.toPrecision(3)) : cprob}`);

function pValue(p: number): string {
  return p < 1e-6 ? '< 1e-6' : p.toPrecision(2);
}

interface CompareCliOptions extends PlayerCliOptions {
  games: number;
  seeds?: string;
  csv?: string;
  force?: boolean;
  depth: number | 'auto';
  cprob: number;
  seed: number;
  workers?: number;
  queue?: string;
  db?: string;
  run?: number;
  json?: boolean;
  sprt?: boolean;
  ratio0: number;
  ratio1: number;
  alpha: number;
  beta: number;
  maxGames: number;
  step: number;
}

/** compare --sprt: pairs until the sequential test decides; the LLR after each step, then the usual tables. */
async function sequential(a: Contender, b: Contender, opts: CompareCliOptions, runner: GameRunner, db: OpenGameMemo, stopper: Stopper): Promise<void> {
  const progress = (stopper.progress = createProgress('pairs', opts.maxGames, 'SPRT [{bar}] {value}/{total} pairs at most | LLR {llr} in ({lower}, {upper}) | ETA (at most) {eta_formatted}', { llr: '0', lower: '-', upper: '-' }));
  const result = await compareSequential(a, b, {
    sprt: { ratio0: opts.ratio0, ratio1: opts.ratio1, alpha: opts.alpha, beta: opts.beta },
    maxGames: opts.maxGames,
    step: opts.step,
    seed: opts.seed,
    depth: opts.depth,
    cprob: opts.cprob,
    ...playerOf(opts),
    runner,
    memo: db?.memo,
    onStep: (s) => progress.update(s.games, { llr: s.llr.toFixed(2), lower: s.lower.toFixed(2), upper: s.upper.toFixed(2) }),
  });
  progress.stop();
  if (db && !result.stoppedAt) keepResult(db.store, opts, { kind: 'comparison', result: { ...result, command: process.argv.slice(2) } });
  writeCsv(opts, result);
  if (opts.json) console.log(JSON.stringify(result));
  else if (opts.csv !== '-') printSequential(a, b, opts, result);
  if (result.stoppedAt) stopper.stopped(`${result.settings.games} of ${result.stoppedAt.of} paired games finished`);
}

function printSequential(a: Contender, b: Contender, opts: CompareCliOptions, result: SequentialComparison): void {
  if (result.trajectory.length === 0) return printTables(result);
  const last = result.trajectory[result.trajectory.length - 1];
  console.log(`SPRT ${a.label} against ${b.label}: H0 mean ratio ${opts.ratio0}, H1 ${opts.ratio1}, alpha ${opts.alpha}, beta ${opts.beta}; bounds (${last.lower.toFixed(3)}, ${last.upper.toFixed(3)}); depth ${opts.depth}, seeds from ${opts.seed}`);
  console.log(table([['pairs', 'LLR'], ...result.trajectory.map((t) => [String(t.games), t.llr.toFixed(3)])]));
  const verdict =
    result.decision === 'H1'
      ? `H1 accepted: ${a.label} is better than ${b.label} (mean ratio ${opts.ratio1} rather than ${opts.ratio0})`
      : result.decision === 'H0'
        ? `H0 accepted: ${a.label} is not better than ${b.label} by ratio ${opts.ratio1} (ratio ${opts.ratio0} is the likelier)`
        : result.decision === 'stopped'
          ? `stopped before a decision (LLR ${last.llr.toFixed(3)} after the last whole step)`
          : `no decision within ${opts.maxGames} pairs (LLR ${last.llr.toFixed(3)})`;
  console.log(`${verdict}, after ${result.settings.games} paired games`);
  console.log("(a sequential test: its decision and error rates (alpha, beta) are the result; the tables' intervals and p below are fixed-sample figures, computed as if the pairs had been planned, and lean toward a difference when the test stopped early)");
  printTables(result);
}

/** --csv: the comparison's games, a row each, into the file (or stdout: then instead of the tables). */
function writeCsv(opts: CompareCliOptions, result: Comparison): void {
  if (opts.csv === undefined) return;
  const text = comparisonCsv(result.contenders);
  if (opts.csv === '-') process.stdout.write(text);
  else {
    writeOutputFile(opts.csv, text, { option: '--csv', force: opts.force });
    console.error(`wrote ${opts.csv}`);
  }
}

/** ms per move measured in this run: over the games played now when the database held the others, a mark when it held them all. */
function msPerMoveCell(c: Comparison['contenders'][number]): string {
  if (c.timing === undefined || (c.timing && c.timing.games === c.games.length)) return c.summary.msPerMove.toFixed(4);
  if (c.timing === null) return `${c.summary.msPerMove.toFixed(4)} (stored)`;
  return `${c.timing.msPerMove.toFixed(4)} (${c.timing.games} played now)`;
}

/** "depth 1" when every contender searched at one depth; null when they differ (a column then says each one's). */
function commonDepth(result: Comparison): string | null {
  const depths = new Set(result.contenders.map((c) => (c.depth === undefined ? String(result.settings.depth) : c.depth === null ? 'its own' : String(c.depth))));
  return depths.size === 1 ? [...depths][0] : null;
}

/** The heading of the tables: games, seeds, and the search settings every contender shares. */
function heading(result: Comparison): string {
  const { games, seed, seeds, seedSource, msPerMove } = result.settings;
  // A contender with a cutoff of its own says it in its label (@cP): the comparison's is the others'.
  const cprob = result.contenders.some((c) => /@c[^@]+$/.test(c.label)) ? `cprob ${result.settings.cprob} unless @c says` : `cprob ${result.settings.cprob}`;
  const depth = commonDepth(result);
  // A time budget a move is what the search played by: it deepened up to the depth while the time lasted.
  const budget = msPerMove !== undefined ? `a time budget of ${msPerMove} ms a move (iterative deepening up to ${depth === null ? 'each one\'s depth' : `depth ${depth}`}; the games depend on the machine's speed and load), ${cprob}` : null;
  const search = budget ?? (depth === 'its own' ? 'each player at its own settings' : depth === null ? `${cprob} (depths in the table)` : `depth ${depth}, ${cprob}`);
  const which = seeds ? `${seeds.length} listed seeds (--seeds ${seedSource})` : `seeds ${seed}..${seed + games - 1}`;
  if (result.stoppedAt) return `STOPPED: ${games} of ${result.stoppedAt.of} paired games per contender finished (the seeds every contender finished${seeds ? ` of --seeds ${seedSource}` : `, from ${seed}`}), ${search}`;
  return `${games} paired games per contender, ${which}, ${search}`;
}

/** Games in all from which a comparison without --db says at its start that a stop keeps nothing. */
const LONG_COMPARISON = 1000;

/** Per contender, then per pair. */
export function printTables(result: Comparison): void {
  console.log(heading(result));
  if (result.settings.games === 0) return;
  const perDepth = commonDepth(result) === null;
  // The search's cost beside its time: nodes a move, the same on every machine (absent for players that do not count).
  const costs = result.contenders.some((c) => c.summary.nodesPerMove !== undefined);
  // Under a time budget a move the depth reached is what played (it depends on the machine).
  const reached = result.settings.msPerMove !== undefined && result.contenders.some((c) => c.summary.meanDepth !== undefined);
  const rows = [['contender', ...(perDepth ? ['depth'] : []), 'mean (95% CI)', 'median', 'stdev', ...REACH_HEADERS, 'moves/game', 'ms/move', ...(costs ? ['nodes/move'] : []), ...(reached ? ['depth reached'] : [])]];
  for (const c of result.contenders) {
    const s = c.summary;
    rows.push([
      c.label,
      ...(perDepth ? [c.depth === null ? 'its own' : String(c.depth ?? result.settings.depth)] : []),
      `${signed(s.meanScore)} (${interval(c.meanCI95.low, c.meanCI95.high)})`,
      s.medianScore.toFixed(0),
      s.stdevScore.toFixed(0),
      ...reachCells(s),
      s.movesPerGame.toFixed(0),
      msPerMoveCell(c),
      ...(costs ? [s.nodesPerMove === undefined ? '-' : s.nodesPerMove.toFixed(0)] : []),
      ...(reached ? [s.meanDepth === undefined ? '-' : s.meanDepth.toFixed(2)] : []),
    ]);
  }
  console.log(table(rows));
  console.log('');
  const holm = result.pairs.some((p) => p.pHolm !== undefined);
  const name = pairNames(result.contenders.map((c) => c.label));
  const pairRows = [['pair', 'mean difference (95% CI)', 'relative', 'Wilcoxon z', 'p', ...(holm ? ['p (Holm)'] : []), 'seed correlation', 'games for ±5% (80% power)']];
  for (const p of result.pairs) {
    pairRows.push([
      `${name(p.a)} − ${name(p.b)}`,
      `${signed(p.meanDiff)} (${interval(p.ci95.low, p.ci95.high)})`,
      `${(100 * p.relative).toFixed(1)}%`,
      p.wilcoxon.z.toFixed(2),
      pValue(p.wilcoxon.p),
      ...(holm ? [p.pHolm === undefined ? '-' : pValue(p.pHolm)] : []),
      p.pairing ? p.pairing.correlation.toFixed(2) : '-',
      p.pairing?.gamesFor5PercentPower80 !== undefined ? String(p.pairing.gamesFor5PercentPower80) : '-',
    ]);
  }
  console.log(table(pairRows));
  for (const note of comparisonNotes(result)) console.log(`note: ${note}`);
  console.log(
    `(95% CI: the percentile bootstrap of the mean difference, Student's t below ${FEW_PAIRS} pairs; p: Wilcoxon's signed-rank test, two-sided, exact up to ${WILCOXON_EXACT_MAX} pairs, else its normal approximation; ` +
      'seed correlation: how much the common seeds paired the games, 0 = not at all; games for ±5%: games per contender for a 5% difference at this spread to be found 80% of the times by a two-sided test at 5%; docs/statistics.md)',
  );
}

export function command(): Command {
  const cmd = new Command('compare')
    .description('paired comparison: every weight set plays the same seeds; means with 95% CIs and a Wilcoxon signed-rank test per pair')
    .argument('<weights...>', 'weights files or preset names (two or more); an external player as external:NAME (its defaults), external:NAME@PARAMS or a parameter file (tune2048 export of its run); a learned n-tuple network as network:FILE (searched to --depth; 0: greedy). A weight set or network followed by @dN (nneonneo@d3, network:net.bin@d1) plays at depth N whatever --depth says, and by @cP (tuned.json@d3@c0.005) at the chance cutoff P whatever --cprob says')
    .option('-n, --games <n>', 'games per contender (the same seeds for all)', parseIntegerOption('--games', 2, 1_000_000), 200)
    .option('-d, --depth <d>', 'chance layers below the root move, or "auto" (for every contender without @dN)', parseDepthOption, 1 as number | 'auto')
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('-s, --seed <s>', 'seed of the first game; game i uses seed s+i (use seeds not used in tuning)', parseSeed, 1_000_000)
    .option('--seeds <list>', "play these seeds instead (--games and --seed then say nothing): a comma list, @FILE (a seed a line), or run:N (run N's held-out seeds in --db; run:N:confirmation its second set): a run's figure played again game for game")
    .option('--workers <n>', 'worker processes (default: CPU count)', parseWorkers)
    .addOption(queueOption())
    .option('--db <file>', 'also store the comparison in this database (see --run); every finished batch is kept there, so the same command, run again after an interruption, plays only the missing games')
    .option('--run <id>', "tie the stored comparison to a run, so the run's report shows it", parseIntegerOption('--run', 1))
    .option('--json', 'one JSON object on stdout (per-game scores included)')
    .option('--csv <file>', "also write every game, a row each (contender, seed, score, max_tile, moves, ms, nodes: docs/statistics.md), to FILE; - for stdout instead of the tables")
    .option('--force', 'let --csv overwrite an existing file')
    .option('--sprt', 'sequential test of the first weight set against the second: play pairs until it decides (see --ratio0/--ratio1)')
    .option('--ratio0 <r>', 'SPRT H0: mean(A) / mean(B) = r (scores are not wins and losses, so the hypotheses are on the ratio, not on Elo)', parseNumberOption('--ratio0', 0.01, 100), 1)
    .option('--ratio1 <r>', 'SPRT H1: mean(A) / mean(B) = r', parseNumberOption('--ratio1', 0.01, 100), 1.1)
    .option('--alpha <p>', 'SPRT: chance of accepting H1 when H0 holds', parseNumberOption('--alpha', 1e-6, 0.5), 0.05)
    .option('--beta <p>', 'SPRT: chance of accepting H0 when H1 holds', parseNumberOption('--beta', 1e-6, 0.5), 0.05)
    .option('--max-games <n>', 'SPRT: paired games per contender at most', parseIntegerOption('--max-games', 2, 1_000_000), 1000)
    .option('--step <n>', 'SPRT: paired games between two looks at the test (fixed, so the decision never depends on --workers)', parseIntegerOption('--step', 2, 10_000), 20);
  return addMoveBudgetOption(addPlayerOptions(cmd)).action(async (specs: string[], opts: CompareCliOptions) => {
      if (specs.length < 2) throw new InputError('compare needs two or more weight sets (files or presets)');
      if (opts.sprt && specs.length !== 2) throw new InputError('compare --sprt tests exactly two weight sets: A (the first) against B');
      if (opts.sprt && opts.ratio1 <= opts.ratio0) throw new InputError(`--ratio1 (${opts.ratio1}) must be greater than --ratio0 (${opts.ratio0})`);
      if (opts.sprt && opts.seeds !== undefined) throw new InputError('compare --sprt plays consecutive seeds from --seed, step by step; --seeds plays a fixed list (leave one out)');
      if (opts.seeds === undefined) checkSeedRange(opts.seed, opts.sprt ? opts.maxGames : opts.games, opts.sprt ? '--max-games' : '-n');
      const seedList = opts.seeds !== undefined ? { list: parseSeedList(opts.seeds, opts.db ?? DEFAULT_DB), source: opts.seeds } : undefined;
      if (seedList) opts.games = seedList.list.length;
      checkStoreTarget(opts);
      if (opts.csv !== undefined && opts.csv !== '-') checkOutputPath(opts.csv, { option: '--csv', force: opts.force });
      const contenders: Contender[] = [];
      const named = namedExternalPlayers(specs.map((arg) => contenderDepth(arg).name));
      for (const arg of specs) {
        const { name: spec, depth, cprob } = contenderDepth(arg);
        const network = networkFileOf(spec);
        if (network !== null) {
          // A network player file's own depth and cutoff play unless @dN or @cP says otherwise (as a contender's @dN would).
          const player = networkPlayerSpec(network, { depth: depth ?? opts.depth, cprob: cprob ?? opts.cprob, msPerMove: opts.msPerMove }, { depth: depth !== undefined || opts.msPerMove !== undefined, cprob: cprob !== undefined });
          const ownDepth = depth ?? (player.search.depth !== opts.depth ? player.search.depth : undefined);
          const ownCprob = cprob ?? (player.search.cprob !== opts.cprob ? player.search.cprob : undefined);
          // A player file's depth rule changes the depth move by move, and downgrading the boards it decides on: the label says so, as play's does.
          const additions = searchAdditions(player.search);
          const ruled = additions.length ? ` (+ ${additions.join('; ')})` : '';
          contenders.push({ label: basename(network) + depthSuffix(ownDepth, ownCprob, cprob === undefined) + ruled, network: player });
          continue;
        }
        const external = await externalContender(spec, named);
        if (external) {
          if (depth !== undefined || cprob !== undefined) throw new InputError(`${arg}: an external player searches as it likes (its depth and cutoff are its parameters), so it takes no @d or @c`);
          if (opts.msPerMove !== undefined) throw new InputError(`${arg}: --ms-per-move deepens expectimax's search or a network's; an external player searches as it likes`);
          // Paired games are a function of their seeds, or there is nothing to pair (tune checks the same before a run).
          const warning = await checkExternalReplay(external.spec, external.nondeterministic);
          if (warning) console.error(warning);
          contenders.push({ label: external.label, external: external.spec });
          continue;
        }
        // A weights file's own search (the depth and cutoff its run validated it at) plays unless @dN or @cP says otherwise.
        const weights = loadWeights(spec);
        const ownDepth = depth ?? (opts.msPerMove === undefined ? weights.search?.depth : undefined);
        const ownCprob = cprob ?? weights.search?.cprob;
        contenders.push({ label: (weights.name ?? spec) + depthSuffix(ownDepth, ownCprob, cprob === undefined), weights, ...(ownDepth !== undefined ? { depth: ownDepth } : {}), ...(ownCprob !== undefined ? { cprob: ownCprob } : {}) });
      }
      // Two contenders that call themselves alike are told apart by what the user named them by.
      distinctLabels(contenders.map((c) => c.label), specs).forEach((label, k) => (contenders[k].label = label));
      await checkQueue(opts.queue);
      const db = openGameMemo(opts);
      if (!db && contenders.length * (opts.sprt ? opts.maxGames : opts.games) >= LONG_COMPARISON) console.error(`compare: without --db the games are kept only until the command ends (a stop shows what finished); --db FILE keeps them, and the same command then goes on from there`);
      try {
        await withCliRunner(opts, async (runner) => {
          // Ctrl-C: the running batches finish (kept with --db), then what finished is shown, marked as stopped.
          const stopper = stopOnSignal(runner, db ? opts.db : undefined);
          try {
            if (opts.sprt) return await sequential(contenders[0], contenders[1], opts, runner, db, stopper);
            const progress = (stopper.progress = createProgress('games', contenders.length * opts.games));
            const result = await compareWeights(contenders, { games: opts.games, seed: opts.seed, ...(seedList ? { seeds: seedList } : {}), depth: opts.depth, cprob: opts.cprob, ...playerOf(opts), runner, memo: db?.memo, onProgress: (done) => progress.update(done), onKnown: (done) => progress.already(done) });
            progress.stop();
            if (db && !result.stoppedAt) keepResult(db.store, opts, { kind: 'comparison', result: { ...result, command: process.argv.slice(2) } });
            writeCsv(opts, result);
            if (opts.json) console.log(JSON.stringify(result));
            else if (opts.csv !== '-') printTables(result);
            if (result.stoppedAt) stopper.stopped(`${result.settings.games} of ${result.stoppedAt.of} paired games finished`);
          } catch (e) {
            // Without --db a failure loses what finished: say so, with the flag that would have kept it.
            const finished = stopper.progress?.done() ?? 0;
            if (!db && finished > 0 && e instanceof Error) e.message += `; the ${finished} ${opts.sprt ? 'pairs' : 'games'} that finished were not kept (no --db): run it again with --db FILE to keep every finished batch, and the same command then goes on from them`;
            throw e;
          } finally {
            stopper.uninstall();
          }
        });
      } finally {
        db?.store.close();
      }
    });
}

