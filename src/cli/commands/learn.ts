import { Command } from 'commander';
import { resolve } from 'node:path';
import type { Board } from '../../engine/board';
import { loadWeights } from '../../heuristic/weights';
import { learnedWeights } from '../../learn/learned-weights';
import { loadLearnConfig, parseLearnConfig, type LearnConfig } from '../../learn/config';
import { learnState, resumePlan, runLearning, type LearnOutcome } from '../../learn/learn-run';
import { checkCheckpointFiles, checkNetworkResources, describeNetworkRun, keptNetworks, networkAt, type CheckpointStats } from '../../learn/ntuple/network-run';
import { RATE_TILES, type GamesSummary } from '../../learn/ntuple/training';
import { copyNetworkFile, readNetworkFile, readStoredNetworkFile, writeNetworkFile, writeRawTables } from '../../learn/ntuple/network-file';
import { readZiapWeights, toZiapTables, ZIAP_STRUCTURES } from '../../learn/ntuple/ziap-format';
import { describeShape, type NetworkShape } from '../../learn/ntuple/shape';
import { textChart } from '../text-chart';
import { table } from '../format';
import { encodeNetwork, sha256 } from '../../learn/table-file';
import { lateBoards } from '../../player/late-boards';
import { statusOf, type LearnRun, type RunStatus, type Store } from '../../store/store';
import { freeOutputName, suggest } from '../../util/command-hint';
import { InputError } from '../../util/errors';
import { dbOption, withLearnStore } from '../db';
import { parseCprob, parseIntegerOption, parseNumberOption } from '../options';
import { MAX_DEPTH } from '../../player/limits';
import { networkPlayerSpec } from '../../player/network-player';
import { depthRuleProblem, networkSettingsFile } from '../../player/network-settings';
import { downgradeProblem } from '../../player/downgrade';
import { EXIT_FAILURE, EXIT_INTERRUPTED } from '../exit-codes';
import { buildLearnReport } from '../../report/learn-report';
import { reportCommand } from '../report-command';
import { handleInterrupts } from '../interrupt';
import { parseRunId } from '../options';
import { checkOutputPath, writeOutputFile } from '../output';
import { createProgress } from '../progress';

/** The late-start boards, with progress on stderr (collecting takes seconds to minutes); null when stopped. */
async function collectStarts(starts: NonNullable<LearnConfig['starts']>, seed: number, on: { shouldStop?: () => boolean } = {}): Promise<Board[] | null> {
  const progress = createProgress('boards', starts.positions, `collecting start boards holding ${starts.maxTile} [{bar}] {value}/{total} | {games} games of ${starts.weights} at depth ${starts.depth} | ETA {eta_formatted}`, { games: 0 });
  let boards: Board[] | null;
  try {
    boards = await lateBoards(starts, seed, { onGame: (found, games) => progress.update(found, { games }), shouldStop: on.shouldStop });
  } finally {
    progress.stop();
  }
  if (boards) console.error(`collected ${boards.length} start boards holding ${starts.maxTile} (${starts.weights} at depth ${starts.depth})`);
  return boards;
}

const pct = (x: number) => `${(100 * x).toFixed(x > 0 && x < 0.01 ? 1 : 0)}%`;

/** "8192 43% 16384 0.4%": the rates of a summary's larger tiles. */
export function ratesText(s: GamesSummary, from = 0): string {
  return RATE_TILES.slice(from).map((tile, k) => `${tile} ${pct(s.rates[k + from])}`).join(' ');
}

/** Trains a learning run to its end or to a stop (Ctrl-C: at the next game boundary, stored). */
async function drive(store: Store, runId: number, json: boolean, threads?: number): Promise<void> {
  let stopping = false;
  const config = parseLearnConfig(store.requireLearnRun(runId).storedConfig, `learning run ${runId}'s stored config`);
  if (threads !== undefined && !config.network) throw new InputError(`--threads is for n-tuple networks; learning run ${runId} learns line tables, on one thread`);
  const from = store.lastLearnCheckpoint(runId)?.games ?? 0;
  const progress = config.network
    ? createProgress('games', config.games, 'learn [{bar}] {value}/{total} games | {mps} moves/s | last 1000: {mean} {rates} | held-out {held} | ETA {eta_formatted}', { mps: '-', mean: '-', rates: '', held: '-' })
    : createProgress('games', config.games, 'learn [{bar}] {value}/{total} games | recent mean {mean} | ETA {eta_formatted}', { mean: '-' });
  if (from > 0) progress.already(from);
  const interrupts = handleInterrupts(
    { stop: () => (stopping = true), abandon: () => undefined, inFlight: () => 1 },
    { stopping: 'stopping', stoppedAtOnce: () => `learning run ${runId} stopped; it goes on from its last checkpoint with: ${suggest(`learn resume ${runId}`, store.path)}`, waitingFor: () => 'the games under way to end and a checkpoint to be stored' },
  );
  let outcome: LearnOutcome;
  let pipeClosed = false;
  try {
    outcome = await runLearning(store, runId, {
      startBoards: collectStarts,
      shouldStop: () => stopping,
      threads,
      onProgress: (p) => progress.update(p.games, { mean: Math.round(p.recentMean) }),
      onNetworkProgress: (p) =>
        progress.update(p.games, {
          mps: p.movesPerSecond > 0 ? `${(p.movesPerSecond / 1e6).toFixed(2)}M` : '-',
          mean: p.recent.games > 0 ? Math.round(p.recent.mean) : '-',
          rates: p.recent.games > 0 ? ratesText(p.recent) : '',
          held: p.heldOut ? `${Math.round(p.heldOut.mean)} (${p.heldOut.games} games)` : '-',
        }),
    });
  } finally {
    progress.stop();
    pipeClosed = interrupts.pipeClosed();
    interrupts.uninstall();
  }
  // A closed stdout stops the run quietly (exit 0, as every command); a signal exits 130.
  if (pipeClosed) return;
  if (outcome.status === 'stopped') process.exitCode = EXIT_INTERRUPTED;
  const out = freeOutputName(config.network ? `network-${runId}` : `lines-${runId}`, 'bin');
  const hint = outcome.status === 'finished' ? suggest(`learn export ${runId} --out ${out}`, store.path) : suggest(`learn resume ${runId}`, store.path);
  // The held-out mean of the latest checkpoint is the figure to quote (the training games' mean is of other, restarted or late-started, games).
  const heldOut = ((store.learnCurve(runId).at(-1)?.stats ?? null) as CheckpointStats | null)?.heldOut ?? null;
  if (json) console.log(JSON.stringify({ run: runId, ...outcome, config: undefined, name: outcome.config.name, total: outcome.config.games, heldOut: heldOut && { mean: heldOut.mean, games: heldOut.games }, next: hint }));
  else {
    const held = heldOut ? `held-out greedy mean ${Math.round(heldOut.mean).toLocaleString('en-US')} (${heldOut.games} games) at the latest checkpoint; ` : '';
    console.log(`learning run ${runId} (${outcome.config.name}) ${outcome.status} at ${outcome.games}/${outcome.config.games} games; ${held}mean score of the last ${config.network ? '1,000 training games' : "checkpoint's games"} ${Math.round(outcome.recentMean).toLocaleString('en-US')}\nnext: ${hint}`);
  }
}

export function command(): Command {
  const learn = new Command('learn').description('learn an evaluation by TD learning from greedy games: an n-tuple network that plays on its own (docs/networks.md), or line tables that weights add (docs/players.md, "Learned line tables")');
  learn
    .command('start')
    .description('start a learning run from a learning config')
    .requiredOption('-c, --config <file>', 'learning config: a file, or a shipped one by name (learn-ntuple-restarts: the strongest network, restarts, TD(λ) and four stages over 400,000 games; learn-ntuple-staged: two stages; learn-ntuple-small: a 40,000-game demo; learn-ziap-nw5x4: the demo on ziap\'s nw5x4 tuples; learn-lines: line tables)')
    .addOption(dbOption())
    .option('--threads <n>', "n-tuple networks: training threads over one shared network (default: the config's, else 1; one thread is exact to the bit, several are not)", parseIntegerOption('--threads', 1, 64))
    .option('--json', 'one JSON object on stdout when it ends')
    .action(async (opts: { config: string; db: string; json?: boolean; threads?: number }) => {
      const config = loadLearnConfig(opts.config);
      if (config.starts) loadWeights(config.starts.weights); // a bad name fails before anything is written
      checkNetworkResources(config, opts.db);
      await withLearnStore(opts.db, 'write', async (store) => {
        if (opts.threads !== undefined && !config.network) throw new InputError('--threads is for n-tuple networks (a config with "network"); line tables train on one thread');
        const runId = store.createLearnRun({ name: config.name, storedConfig: config });
        console.error(`learning run ${runId} created in ${store.path}${config.network ? `: ${describeNetworkRun(config)}` : ''}`);
        await drive(store, runId, !!opts.json, opts.threads);
      });
    });
  learn
    .command('resume')
    .description('go on with a stopped or killed learning run from its latest checkpoint')
    .argument('<run>', 'learning run id', parseRunId)
    .addOption(dbOption())
    .option('--threads <n>', "n-tuple networks: training threads (default: the config's)", parseIntegerOption('--threads', 1, 64))
    .option('--games <n>', 'train on to N games in all (raises the run\'s target; a finished run goes on)', parseIntegerOption('--games', 1, 1e9))
    .option('--learning-rate <r>', 'n-tuple networks: train at this rate from the latest checkpoint on (kept in the run\'s config as a rate change)', parseNumberOption('--learning-rate', 1e-6, 1))
    .option('--json', 'one JSON object on stdout when it ends')
    .action(async (runId: number, opts: { db: string; json?: boolean; threads?: number; games?: number; learningRate?: number }) => {
      await withLearnStore(opts.db, 'write-existing', async (store) => {
        const run = store.requireLearnRun(runId);
        const config = parseLearnConfig(run.storedConfig, `learning run ${runId}'s stored config`);
        // A missing, foreign or changed file: one line, before anything changes (a run another process trains is refused below, unread).
        if (statusOf(run).status !== 'running') checkCheckpointFiles(store, runId, config, { whole: true });
        const done = store.lastLearnCheckpoint(runId)?.games ?? 0;
        const { games, rateChanges } = resumePlan(runId, config, done, opts);
        if (games !== config.games || rateChanges !== config.rateChanges) store.updateLearnConfig(runId, (stored) => ({ ...stored, games, ...(rateChanges ? { rateChanges } : {}) }));
        if (store.requireLearnRun(runId).status === 'finished') {
          console.error(`tune2048: learning run ${runId} is already finished; nothing to do`);
          return;
        }
        await drive(store, runId, !!opts.json, opts.threads);
      });
    });
  learn
    .command('show')
    .description('the learning runs of a database, or one run\'s curve')
    .argument('[run]', 'learning run id', parseRunId)
    .addOption(dbOption())
    .option('--json', 'JSON on stdout')
    .option('--follow', "with a run: keep showing it while it trains, each new checkpoint as it is stored (on a terminal the whole view is drawn again; --json: one JSON line a checkpoint), until it stops")
    .action(async (runId: number | undefined, opts: { db: string; json?: boolean; follow?: boolean }) => {
      if (opts.follow && runId === undefined) throw new InputError(`--follow follows one run: give its id (${suggest('learn show', opts.db)} lists them)`);
      if (opts.follow) return followRun(opts.db, runId!, !!opts.json);
      await withLearnStore(opts.db, 'read', async (store) => {
        if (runId === undefined) {
          const stored = store.listLearnRuns();
          const runs = stored.map((r) => ({ ...r, ...statusFields(r), games: store.learnCurve(r.id).at(-1)?.games ?? 0, total: (r.storedConfig as LearnConfig).games }));
          if (opts.json) return console.log(JSON.stringify(runs));
          if (runs.length === 0) return console.log(`no learning runs in ${store.path} (start one: ${suggest(['learn', 'start', '-c', 'learn-ntuple-small'], store.path)})`);
          console.log(table([['id', 'name', 'status', 'games'], ...runs.map((r, k) => [String(r.id), r.name, learnStatus(stored[k]), `${r.games}/${r.total}`])]));
          const resumable = runs.filter((r) => r.games < r.total && (r.status !== 'running' || r.processGone));
          if (resumable.length > 0) console.log(`\nresume one with: ${suggest(`learn resume ${resumable[0].id}`, store.path)}`);
          return;
        }
        const run = store.requireLearnRun(runId);
        const config = run.storedConfig as LearnConfig;
        if (config.network) return showNetworkRun(store, runId, !!opts.json);
        const curve = store.learnCurve(runId).map(({ games, meanScore, maxTile, at }) => ({ games, meanScore, maxTile, at }));
        if (opts.json) return console.log(JSON.stringify({ ...run, ...statusFields(run), curve }));
        console.log(`learning run ${run.id} (${run.name}): ${learnStatus(run)}${run.error ? ` (${run.error})` : ''}`);
        console.log('games\tmean score\tmax tile');
        for (const c of curve) console.log(`${c.games}\t${Math.round(c.meanScore)}\t${c.maxTile}`);
        resumeHint(store, run, curve.at(-1)?.games ?? 0);
      });
    });
  learn.addCommand(
    reportCommand(
      'report',
      {
        description: "write a self-contained offline HTML report of a learning run (its training curve, held-out tile rates and checkpoints; charts drawn by a script inlined in the page) and print its path",
        run: 'learning run id',
        prefix: 'learn',
        purpose: 'learning',
        again: 'a report written again after more checkpoints',
      },
      buildLearnReport,
    ),
  );
  learn
    .command('player-file')
    .description('write a network player file (tune2048/network-player, docs/networks.md): a network with the settings it plays with (cprob, depth rule, tile-downgrading), its SHA-256 computed for you')
    .argument('<network>', 'the network file (tune2048 learn export)')
    .requiredOption('-o, --out <file>', 'the player file to write (JSON); the network is named relative to it')
    .option('-d, --depth <d>', 'the depth it plays at when a command gives none (play, compare, hint: their -d or @dN say otherwise); absent: the command\'s', parseIntegerOption('--depth', 0, MAX_DEPTH))
    .option('--cprob <p>', 'the search\'s probability cutoff (default: the command\'s --cprob)', parseCprob)
    .option('--deeper-at-empty <n>', 'depth rule: one chance layer deeper on boards with at most n empty cells', parseIntegerOption('--deeper-at-empty', 0, 16))
    .option('--shallower-at-empty <n>', 'depth rule: one shallower on boards with at least n empty cells', parseIntegerOption('--shallower-at-empty', 0, 16))
    .option('--downgrade-at <tile>', 'tile-downgrading: boards holding a tile at least this large are decided one or two ranks down (e.g. 16384)', parseIntegerOption('--downgrade-at', 8, 32768))
    .option('--name <name>', 'a name for the player')
    .option('--force', 'overwrite --out when it exists')
    .action((network: string, opts: { out: string; depth?: number; cprob?: number; deeperAtEmpty?: number; shallowerAtEmpty?: number; downgradeAt?: number; name?: string; force?: boolean }) => {
      const rule = { ...(opts.deeperAtEmpty !== undefined ? { deeperAtEmpty: opts.deeperAtEmpty } : {}), ...(opts.shallowerAtEmpty !== undefined ? { shallowerAtEmpty: opts.shallowerAtEmpty } : {}) };
      const ruleProblem = depthRuleProblem(rule);
      if (ruleProblem) throw new InputError(`--shallower-at-empty and --deeper-at-empty: ${ruleProblem}`);
      const tileProblem = opts.downgradeAt === undefined ? null : downgradeProblem(opts.downgradeAt);
      if (tileProblem) throw new InputError(`--downgrade-at: ${tileProblem}`);
      checkOutputPath(opts.out, { force: opts.force });
      // The network checked whole (a truncated or damaged file is refused here, not at the first game).
      const spec = networkPlayerSpec(network, { depth: 0, cprob: 1e-4 });
      const file = networkSettingsFile(opts.out, {
        network: { file: resolve(network), sha256: spec.network.sha256 },
        ...(opts.name !== undefined ? { name: opts.name } : {}),
        ...(opts.depth !== undefined ? { depth: opts.depth } : {}),
        ...(opts.cprob !== undefined ? { cprob: opts.cprob } : {}),
        ...(Object.keys(rule).length > 0 ? { depthRule: rule } : {}),
        ...(opts.downgradeAt !== undefined ? { downgradeAt: opts.downgradeAt } : {}),
      });
      writeOutputFile(opts.out, JSON.stringify(file, null, 2) + '\n', { force: opts.force });
      console.error(`wrote ${opts.out} (network ${network}, sha256 ${spec.network.sha256.slice(0, 12)}…)`);
      // The hint plays what the file says: at its own depth when it has one (a -d would play another setting).
      console.log(`next: ${suggest(['play', '--player', `network:${opts.out}`, ...(opts.depth === undefined ? ['-d', '1'] : []), '-n', '100'])}`);
    });
  learn
    .command('export')
    .description("write a learning run's tables (its latest checkpoint, or with --at one it kept): an n-tuple network's network file, or a line-table file and optionally weights that add it; with --format ziap, a run's or a network file's network in ziap/2048-tdl's layout")
    .argument('<run>', 'learning run id (with --format ziap, also a network file)', (s: string) => (/^\d+$/.test(s) ? parseRunId(s) : s))
    .addOption(dbOption())
    .requiredOption('-o, --out <file>', 'the network or line-table file to write')
    .option('--base <weights>', 'also write weights: this weights file or preset with the learned term added')
    .option('--weight <w>', 'the learned term\'s weight in those weights', (s) => {
      const w = Number(s);
      if (!Number.isFinite(w)) throw new InputError(`--weight: "${s}" is not a number`);
      return w;
    })
    .option('--weights-out <file>', 'where to write those weights (default: stdout)')
    .option('--format <format>', "n-tuple networks: tune2048 (a network file, the default) or ziap (ziap/2048-tdl's STRUCTURE/weights.bin: raw float32 tables, for a one-stage network of one of its structures, e.g. the default four 6-tuples = nw4x6)", 'tune2048')
    .option('--at <games>', "n-tuple networks: the network the run kept at this many games (its config's keepNetworkEvery; learn show lists them) instead of its latest", parseIntegerOption('--at', 1))
    .option('--force', 'overwrite --out (and --weights-out) when they exist: a network written over another breaks every player file that names it')
    .option('--json', 'one JSON object on stdout: {run, out, sha256, games, weights}')
    .action(async (runId: number | string, opts: { db: string; out: string; base?: string; weight?: number; weightsOut?: string; json?: boolean; format: string; force?: boolean; at?: number }) => {
      if (opts.format !== 'tune2048' && opts.format !== 'ziap') throw new InputError(`--format: "${opts.format}" is not a format (tune2048 or ziap)`);
      if (opts.format === 'ziap') return exportZiap(runId, opts);
      if (typeof runId === 'string') throw new InputError(`<run>: "${runId}" is not a learning run id (a network file is exported only --format ziap; it is already a tune2048 network file)`);
      if ((opts.base === undefined) !== (opts.weight === undefined)) throw new InputError('--base and --weight go together: the weights to add the learned term to, and its weight');
      if (opts.weightsOut && !opts.base) throw new InputError('--weights-out needs --base and --weight');
      const base = opts.base ? loadWeights(opts.base) : null;
      checkOutputPath(opts.out, { force: opts.force });
      if (opts.weightsOut) checkOutputPath(opts.weightsOut, { option: '--weights-out', force: opts.force });
      await withLearnStore(opts.db, 'read', async (store) => {
        const run = store.requireLearnRun(runId);
        if ((run.storedConfig as LearnConfig).network) {
          if (base) throw new InputError(`learning run ${runId} is an n-tuple network: it plays on its own (--player network:FILE), not as a term added to weights`);
          const last = networkOf(store, runId, opts.at);
          const hash = await copyNetworkFile(last.path, opts.out, last.sha256);
          console.error(`wrote ${opts.out} (sha256 ${hash})`);
          if (opts.json) console.log(JSON.stringify({ run: runId, out: opts.out, sha256: hash, games: last.games, weights: null }));
          else console.log(`next: ${suggest(['play', '--player', `network:${opts.out}`, '-n', '100'])}`);
          return;
        }
        if (opts.at !== undefined) throw new InputError(`--at is for n-tuple networks; learning run ${runId} learns line tables and keeps only its latest`);
        const { net, games } = learnState(store, runId);
        if (games === 0) throw new InputError(`learning run ${runId} has no checkpoint yet: resume it first (${suggest(`learn resume ${runId}`, store.path)})`);
        if (run.status !== 'finished') console.error(`tune2048: learning run ${runId} is ${run.status}: writing its tables after ${games} games`);
        const bytes = encodeNetwork(net);
        const hash = sha256(bytes);
        writeOutputFile(opts.out, bytes, { force: opts.force });
        console.error(`wrote ${opts.out} (sha256 ${hash})`);
        let weights: unknown = null;
        if (base) {
          weights = learnedWeights({ base, baseName: opts.base!, weight: opts.weight!, table: opts.out, weightsFile: opts.weightsOut, sha256: hash, run, games, database: store.path });
          const text = JSON.stringify(weights, null, 2) + '\n';
          if (opts.weightsOut) {
            writeOutputFile(opts.weightsOut, text, { option: '--weights-out', force: opts.force });
            console.error(`wrote ${opts.weightsOut}`);
          } else if (!opts.json) process.stdout.write(text);
        }
        if (opts.json) console.log(JSON.stringify({ run: runId, out: opts.out, sha256: hash, games, weights }));
        else if (!base) console.log(`"learned": { "table": ${JSON.stringify(opts.out)}, "sha256": "${hash}", "weight": 1 }`);
      });
    });
  learn
    .command('import')
    .description("write a tune2048 network file from another program's weights: ziap/2048-tdl's STRUCTURE/weights.bin (raw float32 tables, one per tuple in its structure's order, 16^n entries each, a tuple's first cell the index's most significant hex digit; docs/networks.md, \"ziap/2048-tdl's files\")")
    .requiredOption('--from <program>', 'the program that wrote the file: ziap')
    .argument('<file>', "the weights file (ziap's weights.bin, not its .tc accumulators)")
    .requiredOption('-o, --out <file>', 'the network file to write')
    .option('--structure <name>', `ziap's STRUCTURE the file was trained with (${Object.keys(ZIAP_STRUCTURES).join(', ')}; default: the one of the file's size, as their sizes all differ)`)
    .option('--force', 'overwrite --out when it exists')
    .option('--json', 'one JSON object on stdout: {out, sha256, structure, tuples}')
    .action((file: string, opts: { from: string; out: string; structure?: string; force?: boolean; json?: boolean }) => {
      if (opts.from !== 'ziap') throw new InputError(`--from: "${opts.from}" is not a program tune2048 reads weights of (ziap)`);
      checkOutputPath(opts.out, { force: opts.force });
      const { structure, shape, tables } = readZiapWeights(file, opts.structure);
      const hash = writeNetworkFile(opts.out, shape, tables);
      console.error(`wrote ${opts.out} (${describeShape(shape)}, from ziap/2048-tdl's ${structure}; sha256 ${hash})`);
      if (opts.json) console.log(JSON.stringify({ out: opts.out, sha256: hash, structure, tuples: shape.tuples }));
      else console.log(`next: ${suggest(['play', '--player', `network:${opts.out}`, '-d', '0', '-n', '100'])}`);
    });
  return learn;
}

/** A network run's network file (networkAt), saying on stderr when it is a run not finished. */
function networkOf(store: Store, runId: number, at?: number): { path: string; sha256: string; games: number } {
  const network = networkAt(store, runId, at);
  if (network.unfinished) console.error(`tune2048: learning run ${runId} is ${store.requireLearnRun(runId).status}: writing its network after ${network.games} games`);
  return network;
}

/** learn export RUN|NET.bin --format ziap: the network (a run's latest checkpoint's, or a network file's) in ziap/2048-tdl's layout. */
async function exportZiap(runId: number | string, opts: { db: string; out: string; base?: string; force?: boolean; json?: boolean; at?: number }): Promise<void> {
  if (opts.base !== undefined) throw new InputError('--base is for line tables; --format ziap writes a network');
  if (typeof runId === 'string' && opts.at !== undefined) throw new InputError('--at picks a checkpoint of a learning run; a network file is one network');
  checkOutputPath(opts.out, { force: opts.force });
  const write = (file: { shape: NetworkShape; tables: Float32Array[] }) => {
    const { structure, tables } = toZiapTables(file.shape, file.tables);
    const hash = writeRawTables(opts.out, tables, 'ziap weights file');
    console.error(`wrote ${opts.out} (ziap/2048-tdl ${structure}; sha256 ${hash})`);
    return { structure, hash };
  };
  if (typeof runId === 'string') {
    const { structure, hash } = write(readNetworkFile(runId));
    if (opts.json) console.log(JSON.stringify({ network: runId, out: opts.out, sha256: hash, structure }));
    else console.log(`ziap/2048-tdl reads it as ${structure}/weights.bin (built with STRUCTURE=${structure})`);
    return;
  }
  await withLearnStore(opts.db, 'read', (store) => {
    if (!(store.requireLearnRun(runId).storedConfig as LearnConfig).network) throw new InputError(`learning run ${runId} learns line tables; --format ziap writes an n-tuple network`);
    const last = networkOf(store, runId, opts.at);
    const { structure, hash } = write(readStoredNetworkFile(last.path, last.sha256));
    if (opts.json) console.log(JSON.stringify({ run: runId, out: opts.out, sha256: hash, games: last.games, structure }));
    else console.log(`ziap/2048-tdl reads it as ${structure}/weights.bin (built with STRUCTURE=${structure})`);
  });
}

/** learn show RUN of an n-tuple network: its checkpoints and the held-out curve drawn against training minutes. */
function showNetworkRun(store: Store, runId: number, json: boolean): void {
  const run = store.requireLearnRun(runId);
  const curve = store.learnCurve(runId).map((c) => ({ games: c.games, at: c.at, ...(c.stats as CheckpointStats) }));
  const kept = keptNetworks(store.path, runId, curve);
  if (json) return console.log(JSON.stringify({ ...run, ...statusFields(run), curve, keptNetworks: kept }));
  console.log(`learning run ${run.id} (${run.name}): ${learnStatus(run)}${run.error ? ` (${run.error})` : ''}; ${describeNetworkRun(run.storedConfig as LearnConfig)}`);
  // With restarts a training game is several episodes: how many, on average, over the last 1,000 games.
  const episodes = curve.some((c) => c.recent.episodes !== undefined);
  const rows = [['games', ...(episodes ? ['episodes/game'] : []), 'minutes', 'cpu min', 'moves/s', 'last 1000', ...RATE_TILES.map(String), "held-out", ...RATE_TILES.map(String)]];
  for (const c of curve) {
    const r = c.recent;
    const h = c.heldOut;
    rows.push([
      String(c.games),
      ...(episodes ? [r.games > 0 ? ((r.episodes ?? r.games) / r.games).toFixed(1) : '-'] : []),
      (c.trainSeconds / 60).toFixed(1),
      c.cpuSeconds === undefined ? '-' : (c.cpuSeconds / 60).toFixed(1),
      String(Math.round(c.moves / Math.max(1e-9, c.trainSeconds))),
      String(Math.round(r.mean)),
      ...r.rates.map(pct),
      h ? `${Math.round(h.mean)} (${h.games})` : '-',
      ...(h ? h.rates.map(pct) : RATE_TILES.map(() => "-")),
    ]);
  }
  console.log(table(rows));
  const points = curve.filter((c) => c.heldOut).map((c) => ({ x: c.trainSeconds / 60, y: c.heldOut!.mean }));
  if (points.length >= 2) {
    console.log('');
    console.log(textChart(points, { xLabel: 'training minutes', yLabel: 'held-out greedy mean' }));
  }
  if (kept.length > 0) {
    const out = freeOutputName(`network-${runId}-${kept[0]}`, 'bin');
    console.log(`\nnetworks kept at ${kept.join(', ')} games; write one with: ${suggest(`learn export ${runId} --at ${kept[0]} --out ${out}`, store.path)}`);
  }
  resumeHint(store, run, curve.at(-1)?.games ?? 0);
}

/** How often `learn show --follow` looks for a new checkpoint (the run's own process writes them). */
const FOLLOW_POLL_MS = 1000;

/**
 * `learn show RUN --follow`: the run as it trains. On a terminal the whole view (table and chart) is drawn
 * again at each new checkpoint; into a pipe or file each new checkpoint is one more line (--json: one JSON
 * object). Ends when the run no longer trains (finished, stopped, failed, or its process gone), with its status.
 * The database is opened for each look and closed between them: a reader held open would keep the trainer
 * from taking the file out of WAL mode when it ends (a -wal and -shm left beside it, which a read-only copy
 * of the folder cannot open).
 */
async function followRun(db: string, runId: number, json: boolean): Promise<void> {
  const redraw = !json && process.stdout.isTTY === true;
  let shown = 0; // checkpoints printed so far
  let started = false; // the first look is printed whatever it found
  for (let look = 0; ; look++) {
    const done = await withLearnStore(db, 'read', (store) => {
      const run = store.requireLearnRun(runId);
      const config = run.storedConfig as LearnConfig;
      const curve = store.learnCurve(runId);
      if (curve.length > shown || !started) {
        if (redraw) {
          process.stdout.write('\x1b[2J\x1b[H');
          if (config.network) showNetworkRun(store, runId, false);
          else console.log(table([['games', 'mean score', 'max tile'], ...curve.map((c) => [String(c.games), String(Math.round(c.meanScore)), String(c.maxTile)])]));
        } else {
          if (!started && !json) console.log(`learning run ${run.id} (${run.name}): ${config.network ? describeNetworkRun(config) : 'line tables'}; ${curve.length} checkpoint${curve.length === 1 ? '' : 's'} so far`);
          for (const c of curve.slice(shown)) console.log(json ? JSON.stringify({ games: c.games, at: c.at, ...(c.stats ? (c.stats as CheckpointStats) : { meanScore: c.meanScore, maxTile: c.maxTile }) }) : checkpointLine(c.games, c.meanScore, (c.stats ?? null) as CheckpointStats | null));
        }
        shown = curve.length;
        started = true;
      }
      if (statusOf(run).status === 'running') return false;
      if (!json) console.log(`learning run ${run.id}: ${learnStatus(run)}${run.error ? ` (${run.error})` : ''}`);
      if (!redraw && !json) resumeHint(store, run, curve.at(-1)?.games ?? 0);
      if (run.status === 'failed') process.exitCode = EXIT_FAILURE;
      return true;
    }, { check: look === 0 });
    if (done !== false) return;
    await new Promise((wake) => setTimeout(wake, FOLLOW_POLL_MS));
  }
}

/** One checkpoint as a line of `learn show --follow` into a pipe. */
function checkpointLine(games: number, meanScore: number, stats: CheckpointStats | null): string {
  if (!stats) return `checkpoint at ${games} games: mean of the last games ${Math.round(meanScore)}`;
  const h = stats.heldOut;
  const cpu = stats.cpuSeconds === undefined ? '' : `, ${(stats.cpuSeconds / 60).toFixed(1)} cpu min`;
  return `checkpoint at ${games} games${cpu}: held-out ${h ? `${Math.round(h.mean)} (${h.games} games; ${ratesText(h, 2)})` : '-'}; last 1000 ${Math.round(stats.recent.mean)}`;
}

/** A learning run's status as a user needs it: one marked running whose process is gone (kill -9) is stopped. */
function learnStatus(run: LearnRun): string {
  const { status, processGone } = statusOf(run);
  return processGone ? `stopped (its process, pid ${run.ownerPid}, is gone: it goes on from its last checkpoint)` : status;
}

/** A run's status for --json, as every view says it (statusOf): a run whose process is gone is stopped, with processGone. */
function statusFields(run: LearnRun): { status: RunStatus; processGone?: true } {
  const { status, processGone } = statusOf(run);
  return { status, ...(processGone ? { processGone: true as const } : {}) };
}

/** How to carry on a run that is not finished and not training. */
function resumeHint(store: Store, run: LearnRun, games: number): void {
  if (games < (run.storedConfig as LearnConfig).games && statusOf(run).status !== 'running') console.log(`\nresume it with: ${suggest(`learn resume ${run.id}`, store.path)}`);
}
