/**
 * The root split on threads (src/player/threads.ts) on the 50 bench positions: interleaved passes of the
 * default search (root moves share a table), the root split on one thread and on N threads; median ms per
 * decision and the speed-ups, and a check that N threads choose exactly the moves of one.
 *
 * Then where splitting deeper would pay: each root move of each position timed alone on one thread, and
 * the root split's best case on 2, 3, 4 and 8 threads computed from those times (tasks handed out in move
 * order to whichever thread is free first, no overhead) against a perfect split of the same work (work / N).
 *
 *   npm run bench:threads -- [--depths 2,3,auto] [--threads 2] [--passes 7] [--weights nneonneo]
 *   (TUNE2048_SPIN_MS=0 turns off the threads' short spin before sleeping, to see what it buys)
 */
import { installProcessGuards } from '../src/cli/process';
import { parseArgs } from 'node:util';
import { loadBenchPositions, timePass } from '../src/bench/bench';
import type { Board } from '../src/engine/board';
import { buildHeuristicTables } from '../src/heuristic/tables';
import { loadWeights } from '../src/heuristic/weights';
import { createExpectimaxPlayer, type DepthSetting, type ExpectimaxPlayer } from '../src/player/expectimax';
import { closeSearchThreads } from '../src/player/threads';
import { median } from '../src/util/stats';
import { searchModule } from '../src/wasm/module';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values } = parseArgs({ options: { depths: { type: 'string', default: '2,3,auto' }, threads: { type: 'string', default: '2' }, passes: { type: 'string', default: '7' }, weights: { type: 'string', default: 'nneonneo' } } });
const boards = loadBenchPositions() as Board[];
const tables = buildHeuristicTables(loadWeights(values.weights!));
const threads = Number(values.threads);
const passes = Number(values.passes);

const pass = (player: { chooseMove(board: Board): unknown }, minMs: number) => timePass(player, boards, minMs).msPerDecision;

/** Each legal root move of a board timed alone (ms), on the calling thread's instance. */
function rootMoveTimes(split1: ExpectimaxPlayer, board: Board): number[] {
  split1.decide(board); // makes the instance hold this searcher's tables and settings
  const e = searchModule().exports;
  e.setSearch(split1.depthFor(board), split1.settings.cprob);
  const times: number[] = [];
  for (let dir = 0; dir < 4; dir++) {
    const t0 = performance.now();
    const v = e.searchMove(board.lo, board.hi, dir);
    if (!Number.isNaN(v)) times.push(performance.now() - t0);
  }
  return times;
}

/** The makespan of tasks claimed in order by `n` threads, each taking the next task when free. */
function makespan(times: number[], n: number): number {
  const free = new Array<number>(n).fill(0);
  for (const t of times) {
    const i = free.indexOf(Math.min(...free));
    free[i] += t;
  }
  return Math.max(...free);
}

const MODEL_THREADS = [2, 3, 4, 8];
const rows: string[][] = [];
const balance: string[][] = [];
for (const text of values.depths!.split(',')) {
  const depth: DepthSetting = text === 'auto' ? 'auto' : Number(text);
  const shared = createExpectimaxPlayer(tables, { depth });
  const split1 = createExpectimaxPlayer(tables, { depth, threads: 1 });
  const splitN = createExpectimaxPlayer(tables, { depth, threads });
  let same = 0;
  let differFromDefault = 0;
  for (const b of boards) {
    const one = split1.decide(b);
    const many = splitN.decide(b);
    if (one.move === many.move && one.values.every((v, i) => Object.is(v, many.values[i]))) same++;
    if (one.move !== shared.chooseMove(b)) differFromDefault++;
  }
  const minMs = 1500;
  const t = { shared: [] as number[], one: [] as number[], many: [] as number[] };
  pass(splitN, minMs); // warm-up (and the helpers started)
  for (let p = 0; p < passes; p++) {
    t.shared.push(pass(shared, minMs));
    t.one.push(pass(split1, minMs));
    t.many.push(pass(splitN, minMs));
  }
  const [ms0, ms1, msN] = [median(t.shared), median(t.one), median(t.many)];
  rows.push([text, ms0.toFixed(3), ms1.toFixed(3), msN.toFixed(3), (ms1 / msN).toFixed(2), (ms0 / msN).toFixed(2), `${same}/${boards.length}`, `${differFromDefault}/${boards.length}`]);

  let work = 0;
  const root = MODEL_THREADS.map(() => 0);
  for (const b of boards) {
    // The median of 3 timings of each root move, against timer noise.
    const runs = [rootMoveTimes(split1, b), rootMoveTimes(split1, b), rootMoveTimes(split1, b)];
    const times = runs[0].map((_, i) => median(runs.map((r) => r[i])));
    work += times.reduce((a, x) => a + x, 0);
    MODEL_THREADS.forEach((n, i) => (root[i] += makespan(times, n)));
  }
  balance.push([text, ...MODEL_THREADS.map((n, i) => `${(work / root[i]).toFixed(2)} (${((root[i] / (work / n) - 1) * 100).toFixed(0)}%)`)]);
}
console.log(`| depth | default ms/decision | root split, 1 thread | root split, ${threads} threads | ${threads} threads / 1 | ${threads} threads / default | same as 1 thread | moves ≠ default |`);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log();
console.log(`| depth | ${MODEL_THREADS.map((n) => `root split's best speed-up on ${n} threads (time over a perfect split's)`).join(' | ')} |`);
console.log(`|---|${MODEL_THREADS.map(() => '---|').join('')}`);
for (const r of balance) console.log(`| ${r.join(' | ')} |`);
void closeSearchThreads();
