/**
 * tune2048 beside ziap/2048-tdl, one core each at once (run by hand, never by the suite): both train the
 * same recipe for N games, ziap's network is imported (learn import --from ziap), and both networks play
 * greedily on the same held-out seeds through tune2048's player; then both programs search ziap's network
 * at one depth (ziap `agent -d D`, tune2048 `play -d D`), side by side.
 *
 * The recipe is ziap's `train -a 1 -l 0.5 -c -r` (the default four 6-tuples = its nw4x6, one stage, TD(λ 0.5)
 * backward, temporal coherence at rate 1, restarts at the middle while an episode made more than 10 moves),
 * and tune2048's learn config with the same fields. ziap is not part of this project: fetch
 * github.com/ziap/2048-tdl yourself, build it outside this repository (`make ENABLE_GUI=false`, after
 * `touch src/webview.h`: its makefile otherwise downloads one) and pass its binary.
 *
 *   npx tsx scripts/ziap-side-by-side.ts --ziap /path/to/2048 --games 10000 [--runs 3] [--held-out 1000]
 *     [--held-seed 1000000000] [--search-games 10] [--depth 2] [--work DIR] [--chunk N] [--skip-training]
 *     [--retrain-tune2048] [--json]
 *
 * Per run k (seed k for tune2048; ziap seeds itself at random): CPU seconds of each trainer's process
 * (user + system, /usr/bin/time), games and moves per CPU second, held-out greedy mean and rates; then the
 * search's ms per move on ziap's network of run 1 (tune2048 at its default cprob and at cprob 0, which is
 * ziap's tree). Ratios are tune2048 over ziap. Everything lands in --work (default: a temporary folder),
 * which a second call reuses: it trains only the runs without a finished record (trained-K.json) and plays
 * only the held-out games not yet recorded (greedy-K.json), so a long comparison stopped between runs carries on; --skip-training trains none.
 * --chunk N trains each run N games at a time (ziap `-i` from a copy of its files made after each chunk,
 * tune2048 `learn resume --games`), so a run of hours stopped part way (Ctrl-C, a session's end) carries on
 * from the last chunk each side finished; the processor time of finished chunks is summed.
 * --retrain-tune2048 trains tune2048's side again, alone on one core, in every run whose record another commit
 * of tune2048 made (after a change to training: ziap's runs and held-out games are kept, and a retraining
 * stopped part way carries on); its CPU seconds are then not side by side with ziap's, and the table says so.
 *
 * Bad input (no --ziap, a path that is not ziap's program, --games not in thousands) and a program that fails
 * (either trainer, an import, a held-out run) end in one line on stderr and exit 2, every program this script
 * started stopped; Ctrl-C stops them too (exit 130). Nothing is written before the input is checked.
 */
import { installProcessGuards, onStop } from '../src/cli/process';
import { Command } from 'commander';
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

/** Programs this script started and that still run: stopped when it fails, so no trainer outlives it. */
const live = new Set<ReturnType<typeof spawn>>();

/**
 * Stops every program still running, with what /usr/bin/time started under it (each runs in a process group of
 * its own). Killed outright: a chunk cut short is trained again from the last one both finished, and its
 * processor time is counted once, when it finishes (tune2048 resumes a killed run exactly; ziap's weights
 * are restored from the copy made after the last chunk).
 */
function stopAll(): void {
  for (const child of live) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** One line on stderr, every program it started stopped, exit 2: bad input, or a program that failed. */
function fail(message: string): never {
  stopAll();
  console.error(`ziap-side-by-side: ${message}`);
  process.exit(2);
}

// Ctrl-C (or a closed stdout): the programs run in process groups of their own, so the terminal's signal does not reach them.
onStop((reason) => {
  stopAll();
  if (reason.kind === 'pipe') process.exit(0);
  console.error(`ziap-side-by-side: stopped (${reason.signal}); the same command carries on from the runs recorded in --work`);
  process.exit(130);
});

const o = new Command()
  .exitOverride((e) => (e.exitCode === 0 ? process.exit(0) : fail(e.message.replace(/^error: /, ''))))
  .configureOutput({ outputError: () => {} })
  .requiredOption('--ziap <binary>', "ziap/2048-tdl's built program (its `2048`)")
  .option('--games <n>', 'training games of each run', Number, 10000)
  .option('--runs <n>', 'training runs of each program (tune2048: seeds 1..n)', Number, 1)
  .option('--held-out <n>', 'greedy games on held-out seeds', Number, 1000)
  .option('--held-seed <s>', 'the first held-out seed', Number, 1_000_000_000)
  .option('--search-games <n>', 'games of each search', Number, 10)
  .option('--depth <d>', 'the search depth (tune2048 counts chance layers: 2 is 3-ply, ziap -d 2)', Number, 2)
  .option('--work <dir>', 'where the runs, networks and results go')
  .option('--skip-training', 'reuse the networks already in --work')
  .option('--chunk <n>', 'train in chunks of this many games (a multiple of 1000 dividing --games): a call stopped mid-run carries on from the last chunk both finished', Number)
  .option('--retrain-tune2048', "train tune2048's side again (alone) in the runs another commit of tune2048 trained; ziap's runs are kept")
  .option('--json', 'one JSON object on stdout')
  .parse()
  .opts<{ ziap: string; games: number; runs: number; heldOut: number; heldSeed: number; searchGames: number; depth: number; work?: string; skipTraining?: boolean; retrainTune2048?: boolean; chunk?: number; json?: boolean }>();

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const ziap = resolve(o.ziap);
// Checked before anything is written: a path that is no program, or a program that is not ziap's.
try {
  if (!statSync(ziap).isFile()) fail(`--ziap ${ziap}: not a file (the \`2048\` that ziap/2048-tdl's make builds)`);
  accessSync(ziap, constants.X_OK);
} catch (e) {
  fail(`--ziap ${ziap}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not executable'}`);
}
if (!/2048 TDL by Zap/.test(spawnSync(ziap, ['-h'], { encoding: 'utf8', timeout: 10_000 }).stdout ?? '')) fail(`--ziap ${ziap}: not ziap/2048-tdl's program (its -h does not say "2048 TDL by Zap")`);
if (!(Number.isInteger(o.games) && o.games > 0 && o.games % 1000 === 0)) fail(`--games ${o.games}: a positive multiple of 1000 (ziap trains in thousands: -e N means N·1000 games)`);
if (o.skipTraining && o.retrainTune2048) fail('--skip-training and --retrain-tune2048: give one');
const CHUNK = o.chunk ?? o.games;
if (!(Number.isInteger(CHUNK) && CHUNK > 0 && CHUNK % 1000 === 0 && o.games % CHUNK === 0)) fail(`--chunk ${o.chunk}: a multiple of 1000 that divides --games ${o.games}`);
if (!existsSync(CLI)) fail('dist/cli/main.js is missing: run npm run build first');
const work = resolve(o.work ?? mkdtempSync(join(tmpdir(), 'ziap-side-by-side-')));
mkdirSync(work, { recursive: true });
/** The commit of this checkout, recorded with tune2048's side of each run (what --retrain-tune2048 compares). */
const COMMIT = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';

interface Ran {
  stdout: string;
  stderr: string;
  cpuSeconds: number;
  wallSeconds: number;
}

/** Runs a command on one core, timed by /usr/bin/time (its last stderr line: user system elapsed). */
function run(core: number, cmd: string[], cwd: string): Promise<Ran> {
  return new Promise((done, reject) => {
    const child = spawn('taskset', ['-c', String(core), '/usr/bin/time', '-f', 'TIME %U %S %e', ...cmd], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      live.delete(child);
      const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      if (code !== 0 || !m) {
        // The program's own last words, not time's lines nor a progress bar's.
        const said = stderr.split(/[\r\n]+/).filter((l) => l.trim() !== '' && !/^(TIME |Command exited with non-zero status)/.test(l)).at(-1) ?? '';
        return reject(new Error(`${cmd[0] === process.execPath ? 'tune2048' : cmd[0]} ${cmd.slice(cmd[0] === process.execPath ? 2 : 1).join(' ')} exited ${code}${said ? `: ${said.trim()}` : ''}`));
      }
      done({ stdout, stderr, cpuSeconds: Number(m[1]) + Number(m[2]), wallSeconds: Number(m[3]) });
    });
  });
}

const tune2048 = (args: string[]) => [process.execPath, CLI, ...args];
const progress = (s: string) => process.stderr.write(`${s}\n`);

function recipe(seed: number): string {
  const path = join(work, `recipe-${seed}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      format: 'tune2048/learn',
      name: `ziap-recipe-${seed}`,
      seed,
      games: CHUNK,
      learningRate: 1,
      coherence: true,
      lambda: 0.5,
      restarts: {},
      checkpointEvery: CHUNK,
      network: {},
      threads: 1,
      heldOut: { games: 0, seed: o.heldSeed },
    }),
  );
  return path;
}

interface Greedy {
  mean: number;
  rate16384: number;
  moves: number;
}

async function greedy(core: number, net: string): Promise<Greedy> {
  const r = await run(core, tune2048(['play', '--player', `network:${net}`, '-d', '0', '-n', String(o.heldOut), '-s', String(o.heldSeed), '--workers', '1', '--json']), work);
  const s = JSON.parse(r.stdout).summary;
  return { mean: s.meanScore, rate16384: s.reach['16384'], moves: s.movesPerGame };
}

/** A run's record (trained-K.json); tuneCommit and sideBySide are missing from records of older versions of this script. */
interface Trained {
  ziapCpu: number;
  ziapMovesPerSecond: number;
  tuneCpu: number;
  tuneTrainCpu: number;
  tuneMoves: number;
  tuneCommit?: string;
  sideBySide?: boolean;
}

/** Games trained so far and the processor seconds of the finished chunks (a side's progress file). */
interface Progress {
  games: number;
  cpu: number;
  movesPerSecond?: number;
}

const readProgress = (file: string): Progress => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Progress) : { games: 0, cpu: 0 });

/** tune2048's side, chunk by chunk (learn start for the first, then learn resume --games): its summed processor seconds. */
async function trainTune2048(core: number, seed: number, db: string): Promise<number> {
  const file = `${db}.progress.json`;
  let p = readProgress(file);
  if (p.games === 0) for (const f of [db, `${db}-wal`, `${db}-shm`, `${db}.networks`]) rmSync(f, { force: true, recursive: true });
  while (p.games < o.games) {
    const t = await run(core, tune2048(p.games === 0 ? ['learn', 'start', '-c', recipe(seed), '--db', db, '--json'] : ['learn', 'resume', '1', '--db', db, '--games', String(p.games + CHUNK), '--json']), work);
    p = { games: p.games + CHUNK, cpu: p.cpu + t.cpuSeconds };
    writeFileSync(file, JSON.stringify(p));
  }
  return p.cpu;
}

/**
 * ziap's side, chunk by chunk (-i after the first, from a copy of its files made after each chunk, in a folder
 * named by the games it holds, so a stop between the copy and the progress file trains no chunk twice):
 * summed processor time and its last moves a second.
 */
async function trainZiap(core: number, zdir: string): Promise<{ cpuSeconds: number; movesPerSecond: number }> {
  const file = join(zdir, 'progress.json');
  const files = ['weights.bin', 'weights.bin.tc'];
  const saved = (games: number) => join(zdir, `saved-${games}`);
  let p = readProgress(file);
  for (const f of files) {
    rmSync(join(zdir, 'nw4x6', f), { force: true });
    if (p.games > 0) copyFileSync(join(saved(p.games), f), join(zdir, 'nw4x6', f));
  }
  while (p.games < o.games) {
    const z = await run(core, [ziap, 'train', '-a', '1', '-l', '0.5', '-e', String(CHUNK / 1000), '-c', '-r', '-o', ...(p.games > 0 ? ['-i'] : [])], zdir);
    const next = p.games + CHUNK;
    mkdirSync(saved(next), { recursive: true });
    for (const f of files) copyFileSync(join(zdir, 'nw4x6', f), join(saved(next), f));
    // ziap prints moves a second of its last 1,000 games ("m/s: N"), wall time on its one core.
    const mps = [...z.stdout.matchAll(/m\/s:\s+(\d+)/g)].map((m) => Number(m[1]));
    writeFileSync(file, JSON.stringify({ games: next, cpu: p.cpu + z.cpuSeconds, movesPerSecond: mps.at(-1) ?? NaN } satisfies Progress));
    rmSync(saved(p.games), { force: true, recursive: true });
    p = readProgress(file);
  }
  return { cpuSeconds: p.cpu, movesPerSecond: p.movesPerSecond ?? NaN };
}

/** tune2048's side of a run's record, its network exported. */
async function tuneRecord(cpuSeconds: number, db: string, tbin: string): Promise<Pick<Trained, 'tuneCpu' | 'tuneTrainCpu' | 'tuneMoves' | 'tuneCommit'>> {
  await run(0, tune2048(['learn', 'export', '1', '--db', db, '--out', tbin, '--force']), work);
  const last = JSON.parse((await run(0, tune2048(['learn', 'show', '1', '--db', db, '--json']), work)).stdout).curve.at(-1);
  return { tuneCpu: cpuSeconds, tuneTrainCpu: last.cpuSeconds, tuneMoves: last.moves, tuneCommit: COMMIT };
}

async function main() {
  const runs = [];
  for (let k = 1; k <= o.runs; k++) {
    const zdir = join(work, `ziap-${k}`);
    mkdirSync(join(zdir, 'nw4x6'), { recursive: true });
    const db = join(work, `tune2048-${k}.sqlite`);
    const zbin = join(work, `ziap-${k}.bin`);
    const tbin = join(work, `tune2048-${k}.bin`);
    const trainedFile = join(work, `trained-${k}.json`);
    const record = existsSync(trainedFile) ? (JSON.parse(readFileSync(trainedFile, 'utf8')) as Trained) : null;
    // The run's record after this call: the one found, or the one written when either side trained now.
    let saved = record;
    const keep = (r: Trained) => writeFileSync(trainedFile, JSON.stringify((saved = r)));
    if (!o.skipTraining && record === null) {
      // A run stopped part way carries on from the last chunk each side finished (with no --chunk, one chunk: afresh).
      const done = Math.min(readProgress(join(zdir, 'progress.json')).games, readProgress(`${db}.progress.json`).games);
      progress(`run ${k}/${o.runs}: both train ${o.games} games${done > 0 ? ` (on from ${done})` : ''}${CHUNK < o.games ? ` in chunks of ${CHUNK}` : ''}, one core each…`);
      const [z, t] = await Promise.all([trainZiap(0, zdir), trainTune2048(1, k, db)]);
      await run(0, tune2048(['learn', 'import', '--from', 'ziap', join(zdir, 'nw4x6', 'weights.bin'), '--out', zbin, '--force']), work);
      keep({ ziapCpu: z.cpuSeconds, ziapMovesPerSecond: z.movesPerSecond, ...(await tuneRecord(t, db, tbin)), sideBySide: true });
    } else if (o.retrainTune2048 && record !== null && record.tuneCommit !== COMMIT) {
      // Without its progress file tune2048's side starts afresh (trainTune2048 clears the old database).
      rmSync(`${db}.progress.json`, { force: true });
      progress(`run ${k}/${o.runs}: tune2048 (${COMMIT.slice(0, 7)}) trains ${o.games} games again, alone on one core…`);
      const t = await trainTune2048(1, k, db);
      keep({ ...record, ...(await tuneRecord(t, db, tbin)), sideBySide: false });
    }
    const trained = saved !== record;
    // Kept as each run ends (a comparison stopped in a later run still has this one's figures) and reused
    // by the next call unless the run was trained again.
    const heldFile = join(work, `greedy-${k}.json`);
    const held = existsSync(heldFile) ? (JSON.parse(readFileSync(heldFile, 'utf8')) as { ziap: Greedy; tune2048: Greedy; games?: number; seed?: number; tuneCommit?: string }) : null;
    const sameGames = held !== null && held.games === o.heldOut && held.seed === o.heldSeed;
    // tune2048's games stand while they are of the network its record names (a retraining may have stopped before them).
    const sameTune = sameGames && !trained && held.tuneCommit === saved?.tuneCommit;
    let zg: Greedy, tg: Greedy;
    if (sameTune) ({ ziap: zg, tune2048: tg } = held);
    else if (sameGames && record !== null) {
      // Only tune2048's network is new: ziap's held-out games stand.
      progress(`run ${k}/${o.runs}: ${o.heldOut} held-out greedy games of tune2048's new network…`);
      zg = held.ziap;
      tg = await greedy(1, tbin);
    } else {
      progress(`run ${k}/${o.runs}: ${o.heldOut} held-out greedy games of each network, one core each…`);
      [zg, tg] = await Promise.all([greedy(0, zbin), greedy(1, tbin)]);
    }
    if (!sameTune) writeFileSync(heldFile, JSON.stringify({ ziap: zg, tune2048: tg, games: o.heldOut, seed: o.heldSeed, tuneCommit: saved?.tuneCommit }));
    runs.push({
      run: k,
      games: o.games,
      ziap: { cpuSeconds: saved?.ziapCpu, gamesPerCpuSecond: saved ? o.games / saved.ziapCpu : null, movesPerSecond: saved?.ziapMovesPerSecond, greedy: zg },
      sideBySide: saved?.sideBySide !== false,
      tune2048: { seed: k, commit: saved?.tuneCommit, cpuSeconds: saved?.tuneCpu, trainCpuSeconds: saved?.tuneTrainCpu, gamesPerCpuSecond: saved ? o.games / saved.tuneCpu : null, movesPerCpuSecond: saved ? saved.tuneMoves / saved.tuneTrainCpu : null, greedy: tg },
    });
  }
  // The search on ziap's network of run 1, side by side, then the other way round (cores swapped).
  progress(`search: ziap agent -d ${o.depth} and tune2048 play -d ${o.depth} on ziap's network, ${o.searchGames} games each, one core each…`);
  const zdir = join(work, 'ziap-1');
  const zbin = join(work, 'ziap-1.bin');
  const tunePlay = (cprob: string) => tune2048(['play', '--player', `network:${zbin}`, '-d', String(o.depth), '--cprob', cprob, '-n', String(o.searchGames), '-s', String(o.heldSeed), '--workers', '1', '--json']);
  const search = [];
  for (const [zc, tc, cprob] of [[0, 1, '1e-4'], [1, 0, '0']] as const) {
    const [z, t] = await Promise.all([run(zc, [ziap, 'agent', '-d', String(o.depth), '-e', String(o.searchGames)], zdir), run(tc, tunePlay(cprob), work)]);
    const zm = [...z.stdout.matchAll(/m\/s:\s+(\d+)/g)].map((m) => Number(m[1])).at(-1)!;
    const zmean = [...z.stdout.matchAll(/avg:\s+(\d+)/g)].map((m) => Number(m[1])).at(-1)!;
    const ts = JSON.parse(t.stdout).summary;
    search.push({ cprob: Number(cprob), ziap: { msPerMove: 1000 / zm, mean: zmean }, tune2048: { msPerMove: ts.msPerMove, nodesPerMove: ts.nodesPerMove, mean: ts.meanScore }, ratio: ts.msPerMove / (1000 / zm) });
  }
  const result = { ziap, work, recipe: 'nw4x6, one stage, TD(λ 0.5) backward, coherence, rate 1, restarts', depth: o.depth, runs, search };
  writeFileSync(join(work, 'result.json'), JSON.stringify(result, null, 2));
  if (o.json) return console.log(JSON.stringify(result));
  const f = (x: number | null | undefined, d = 0) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));
  console.log(`| run | games | ziap CPU s | tune2048 CPU s | games/CPU s ziap · tune2048 | greedy ziap · tune2048 | 16384 ziap · tune2048 |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const r of runs) {
    console.log(`| ${r.run}${r.sideBySide ? '' : ' (CPU apart)'} | ${r.games} | ${f(r.ziap.cpuSeconds)} | ${f(r.tune2048.cpuSeconds)} | ${f(r.ziap.gamesPerCpuSecond, 1)} · ${f(r.tune2048.gamesPerCpuSecond, 1)} | ${f(r.ziap.greedy.mean)} · ${f(r.tune2048.greedy.mean)} | ${f(100 * r.ziap.greedy.rate16384, 1)} % · ${f(100 * r.tune2048.greedy.rate16384, 1)} % |`);
  }
  console.log('');
  for (const s of search) console.log(`depth ${o.depth} on ziap's network: ziap ${f(s.ziap.msPerMove, 3)} ms a move (mean ${f(s.ziap.mean)}), tune2048 at cprob ${s.cprob} ${f(s.tune2048.msPerMove, 3)} ms (${f(s.tune2048.nodesPerMove)} nodes, mean ${f(s.tune2048.mean)}): ${f(s.ratio, 2)}× ziap's time`);
  console.log(`\n(everything in ${work})`);
}

main().catch((e) => fail((e as Error).message));
