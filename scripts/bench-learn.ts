/**
 * Training speed of an n-tuple network in WebAssembly (npm run bench:learn): training moves a second on one
 * thread and on two threads over one shared network, and greedy (held-out) moves a second, in interleaved
 * rounds from the same warmed-up network (its games long, as in a real run), medians printed; with
 * --coherence, one thread with temporal coherence too (its accumulators' extra reads and writes), in the
 * same rounds on the same tables; with --lambda L, one thread of TD(λ) (each episode learned backward at its
 * end: the afterstates' addresses computed again and a second pass) likewise.
 *
 *   npm run bench:learn -- [--tuples default|small] [--rounds 5] [--games 3000] [--warm 20000] [--coherence] [--lambda 0.5] [--json]
 *
 * With --recipe, instead: the recipe of ziap/2048-tdl and learn-ntuple-restarts (temporal coherence at rate 1,
 * TD(λ 0.5) backward, restarts) on one thread, with one stage and with learn-ntuple-restarts's four, each
 * network warmed up on its own and then measured in interleaved rounds: training moves and games per CPU
 * second (this process's CPU time, every thread's), and the four stages' cost per move over one stage's.
 *
 *   npm run bench:learn -- --recipe [--rounds 5] [--games 1000] [--warm 5000] [--small-pages] [--json]
 *
 * With --small-pages, the recipe's one stage with huge pages against the same with 4 KiB pages (what the huge
 * pages of src/wasm/huge-pages.ts give on this machine) instead of one stage against four.
 */
import { installProcessGuards } from '../src/cli/process';
import { Command } from 'commander';
import { DEFAULT_TUPLES, ONE_STAGE, type NetworkShape } from '../src/learn/ntuple/shape';
import { NetworkTraining } from '../src/learn/ntuple/training';
import { describePages } from '../src/wasm/huge-pages';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const o = new Command()
  .option('--tuples <kind>', 'default (4 × 6-tuples, 268 MB) or small (4 × 4-tuples, 1 MB)', 'default')
  .option('--rounds <n>', 'interleaved rounds', Number, 5)
  .option('--games <n>', 'training games per measurement', Number, 3000)
  .option('--warm <n>', 'training games before measuring (longer games, tables filled)', Number, 20000)
  .option('--coherence', 'also one thread with temporal coherence learning, in the same rounds')
  .option('--lambda <l>', 'also one thread of TD(λ) (backward at each episode\'s end), in the same rounds', Number)
  .option('--recipe', "instead: ziap's recipe (coherence, TD(λ 0.5), restarts) on one thread, one stage against four")
  .option('--small-pages', 'with --recipe: one stage with huge pages against one stage with 4 KiB pages')
  .option('--json', 'one JSON object')
  .parse()
  .opts<{ tuples: string; rounds: number; games: number; warm: number; coherence?: boolean; lambda?: number; recipe?: boolean; smallPages?: boolean; json?: boolean }>();

const shape: NetworkShape = { tuples: o.tuples === 'small' ? [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [4, 5, 8, 9]] : DEFAULT_TUPLES, stages: ONE_STAGE, promote: true };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const FOUR_STAGES: NetworkShape['stages'] = [{ maxTile: [2, 4096] }, { maxTile: [8192, 8192] }, { maxTile: [16384, 16384] }, { maxTile: [32768, 32768] }];

/** --recipe: one stage against four, the recipe on one thread, moves and games per CPU second in interleaved rounds. */
async function recipe() {
  const make = (stages: NetworkShape['stages'], hugePages = true) =>
    new NetworkTraining({ shape: { tuples: DEFAULT_TUPLES, stages, promote: true }, threads: 1, seed: 1, learningRate: 1, heldOut: { games: 0, seed: 1e9 }, coherence: true, lambda: 0.5, restarts: { at: 0.5, minMoves: 10, maxInRow: 0 }, hugePages });
  const kinds = o.smallPages
    ? [
        { name: 'one stage', t: make(ONE_STAGE) },
        { name: 'one stage, 4 KiB pages', t: make(ONE_STAGE, false) },
      ]
    : [
        { name: 'one stage', t: make(ONE_STAGE) },
        { name: 'four stages', t: make(FOUR_STAGES) },
      ];
  const pages = kinds.map((k) => describePages(k.t.machine.hugePages));
  for (const k of kinds) {
    process.stderr.write(`warming up ${k.name}: ${o.warm} training games…\n`);
    await k.t.trainTo(o.warm);
  }
  const rates = kinds.map(() => ({ moves: [] as number[], games: [] as number[] }));
  for (let r = 0; r < o.rounds; r++) {
    for (const [i, k] of kinds.entries()) {
      const moves0 = k.t.movesDone();
      const cpu0 = process.cpuUsage();
      await k.t.trainTo(k.t.games + o.games);
      const cpu = process.cpuUsage(cpu0);
      const seconds = (cpu.user + cpu.system) / 1e6;
      rates[i].moves.push((k.t.movesDone() - moves0) / seconds);
      rates[i].games.push(o.games / seconds);
    }
    process.stderr.write(`round ${r + 1}/${o.rounds}: ${kinds.map((k, i) => `${k.name} ${(rates[i].moves[r] / 1e6).toFixed(3)} M moves / CPU s, ${rates[i].games[r].toFixed(1)} games / CPU s`).join('; ')}\n`);
  }
  // A move's cost of the second arm over the first, per round (the rounds interleave, so a busy machine slows both alike).
  const cost = median(rates[0].moves.map((m, r) => m / rates[1].moves[r]));
  const result = {
    recipe: 'coherence at rate 1, TD(λ 0.5) backward, restarts; 4 × 6-tuples; one thread',
    rounds: o.rounds,
    gamesPerMeasurement: o.games,
    warm: o.warm,
    ...Object.fromEntries(kinds.map((k, i) => [i === 0 ? 'oneStage' : o.smallPages ? 'oneStageSmallPages' : 'fourStages', { pages: pages[i], movesPerCpuSecond: Math.round(median(rates[i].moves)), gamesPerCpuSecond: median(rates[i].games) }])),
    [o.smallPages ? 'smallPagesCostPerMove' : 'fourOverOneCostPerMove']: cost,
  };
  if (o.json) console.log(JSON.stringify(result));
  else {
    console.log(`the recipe (${result.recipe}), ${o.rounds} interleaved rounds of ${o.games} games after ${o.warm} (medians):`);
    for (const [i, k] of kinds.entries()) console.log(`  ${k.name} (${pages[i]}): ${(median(rates[i].moves) / 1e6).toFixed(3)} M moves per CPU second, ${median(rates[i].games).toFixed(1)} games per CPU second`);
    console.log(`  ${kinds[1].name} cost${o.smallPages ? 's' : ''} ${cost.toFixed(2)}× one stage${o.smallPages ? ' with huge pages' : ''} a move`);
  }
  for (const k of kinds) await k.t.close();
}

async function main() {
  if (o.recipe) return recipe();
  // One network; a one-thread and a two-thread trainer take turns on it (the same memory, copied between them).
  const one = new NetworkTraining({ shape, threads: 1, seed: 1, learningRate: 0.1, heldOut: { games: 300, seed: 1e9 } });
  const two = new NetworkTraining({ shape, threads: 2, seed: 1, learningRate: 0.1, heldOut: { games: 300, seed: 1e9 } });
  const tc = o.coherence ? new NetworkTraining({ shape, threads: 1, seed: 1, learningRate: 1, heldOut: { games: 300, seed: 1e9 }, coherence: true }) : null;
  const td = o.lambda !== undefined ? new NetworkTraining({ shape, threads: 1, seed: 1, learningRate: 0.1, heldOut: { games: 300, seed: 1e9 }, lambda: o.lambda }) : null;
  const copy = (from: NetworkTraining, to: NetworkTraining) => {
    const src = from.machine.tables();
    to.machine.tables().forEach((t, k) => t.set(src[k]));
    to.games = from.games;
  };
  process.stderr.write(`warming up: ${o.warm} training games on one thread…\n`);
  await one.trainTo(o.warm);
  const rates: Record<'one' | 'two' | 'greedy' | 'coherent' | 'lambda', number[]> = { one: [], two: [], greedy: [], coherent: [], lambda: [] };
  const measure = async (t: NetworkTraining, games: number) => {
    const moves0 = t.movesDone();
    const start = performance.now();
    await t.trainTo(t.games + games);
    return (t.movesDone() - moves0) / ((performance.now() - start) / 1000);
  };
  for (let r = 0; r < o.rounds; r++) {
    rates.one.push(await measure(one, o.games));
    if (tc) {
      // The same tables and next game as the plain thread; the tables it leaves are not carried on.
      copy(one, tc);
      rates.coherent.push(await measure(tc, o.games));
    }
    if (td) {
      copy(one, td);
      rates.lambda.push(await measure(td, o.games));
    }
    copy(one, two);
    rates.two.push(await measure(two, o.games));
    copy(two, one);
    const start = performance.now();
    const held = await one.heldOut();
    rates.greedy.push(held.games > 0 ? sumMoves(one) / ((performance.now() - start) / 1000) : 0);
    process.stderr.write(`round ${r + 1}/${o.rounds}: one thread ${(rates.one[r] / 1e6).toFixed(3)} M moves/s, two threads ${(rates.two[r] / 1e6).toFixed(3)} M, greedy ${(rates.greedy[r] / 1e6).toFixed(3)} M${tc ? `, coherence (one thread) ${(rates.coherent[r] / 1e6).toFixed(3)} M` : ''}${td ? `, TD(λ) (one thread) ${(rates.lambda[r] / 1e6).toFixed(3)} M` : ''}\n`);
  }
  const result = {
    network: o.tuples === 'small' ? '4 × 4-tuples' : '4 × 6-tuples',
    rounds: o.rounds,
    gamesPerMeasurement: o.games,
    trainingMovesPerSecond: { oneThread: Math.round(median(rates.one)), twoThreads: Math.round(median(rates.two)), perThreadOfTwo: Math.round(median(rates.two) / 2) },
    greedyMovesPerSecond: Math.round(median(rates.greedy)),
    ...(tc ? { coherenceMovesPerSecond: { oneThread: Math.round(median(rates.coherent)), ratioToPlain: median(rates.coherent.map((c, k) => c / rates.one[k])) } } : {}),
    ...(td ? { lambdaMovesPerSecond: { lambda: o.lambda, oneThread: Math.round(median(rates.lambda)), ratioToPlain: median(rates.lambda.map((c, k) => c / rates.one[k])) } } : {}),
  };
  if (o.json) console.log(JSON.stringify(result));
  else {
    console.log(`${result.network} network, ${o.rounds} interleaved rounds of ${o.games} training games (medians):`);
    console.log(`  training, one thread:   ${(result.trainingMovesPerSecond.oneThread / 1e6).toFixed(3)} M moves/s`);
    console.log(`  training, two threads:  ${(result.trainingMovesPerSecond.twoThreads / 1e6).toFixed(3)} M moves/s (${(result.trainingMovesPerSecond.perThreadOfTwo / 1e6).toFixed(3)} M per thread)`);
    console.log(`  greedy play (held-out): ${(result.greedyMovesPerSecond / 1e6).toFixed(3)} M moves/s on one thread`);
    if (result.lambdaMovesPerSecond) console.log(`  TD(λ = ${o.lambda}), one thread:    ${(result.lambdaMovesPerSecond.oneThread / 1e6).toFixed(3)} M moves/s (× ${result.lambdaMovesPerSecond.ratioToPlain.toFixed(2)} of TD(0) online, median of the rounds' ratios)`);
    if (result.coherenceMovesPerSecond) console.log(`  temporal coherence, one thread: ${(result.coherenceMovesPerSecond.oneThread / 1e6).toFixed(3)} M moves/s (× ${result.coherenceMovesPerSecond.ratioToPlain.toFixed(2)} of plain, median of the rounds' ratios)`);
  }
  await tc?.close();
  await td?.close();
  await one.close();
  await two.close();
}

/** Moves of the last held-out games (their results are in the evaluation area). */
function sumMoves(t: NetworkTraining): number {
  let moves = 0;
  for (let i = 0; i < t.settings.heldOut.games; i++) moves += t.machine.evalGame(i).moves;
  return moves;
}

main().catch((e) => {
  console.error(`bench:learn: ${(e as Error).message}`);
  process.exit(1);
});
