/**
 * A run's problem: the validated config, the resolved start point, the parameter space and the optimizer.
 * A run stores its config and start point (the start preset, or an external program, may change later;
 * the run must not); everything else is rebuilt from them, here and only here.
 *
 * Three kinds of player are tuned: tune2048's own heuristic (a ParameterSpace over weights), an external
 * program (an ExternalSpace over the parameters it announced, stored with the run) and a learned network (a
 * NetworkSpace over what sits on it; the network's hash and start settings stored with the run).
 */
import * as v from 'valibot';
import { loadWeights, parseWeights, type Weights } from '../../heuristic/weights';
import { definitionAt } from '../../player/external/definition';
import { loadParamsFile, paramsFor } from '../../player/external/params-file';
import { readAnnouncement, replayDiffers } from '../../player/external/play';
import { programHash } from '../../player/external/program-hash';
import { announcementHash, AnnouncementReader, defaultParams, type Announcement } from '../../player/external/protocol';
import { fileSha256 } from '../../player/network-player';
import { depthRuleSchema, leafHeuristic, loadNetworkSettings } from '../../player/network-settings';
import type { ExternalPlayerSpec, Launch, NetworkPlayerSpec, PlayerSpec } from '../../player/spec';
import { readNetworkShape } from '../../learn/ntuple/network-file';
import type { Run, Store } from '../../store/store';
import { InputError } from '../../util/errors';
import { cliName, shellWord } from '../../util/command-hint';
import { describeIssues } from '../../util/valibot-issues';
import { configHash, externalPlayerOf, networkPlayerOf, parseConfig, type ExternalPlayerConfig, type RunConfig } from '../config/config';
import { ExternalSpace } from '../space/external-space';
import { networkStart, NetworkSpace, type NetworkStart } from '../space/network-space';
import { fitnessPlayer } from '../objective/fitness';
import type { Optimizer } from '../optimizers/optimizer';
import { createOptimizer } from '../optimizers/create';
import { checkCeilingReachable } from '../objective/cost-ceiling';
import { BoundedSpace, ParameterSpace, searchCprobOf, searchDepthOf } from '../space/space';
import { pointKeyOf } from '../space/point';

/** An external player as a run stores it: what it announced when the run began, the start values, and the hash of its program's files (resolve.ts programHash; absent in runs stored before it was kept). */
export interface StoredExternal {
  announcement: Announcement;
  start: Record<string, number>;
  program?: string;
  /** Changes of the program accepted on resume (`resume --accept-changed`): the games before and after mix, and this says where. */
  changes?: ProgramChange[];
}

/** One accepted change of a run's external program: when, after how many of the run's games, and from what to what. */
export interface ProgramChange {
  acceptedAt: number;
  games: number;
  /** The generation that was open when it was accepted (its games may be of both programs), absent when only validation was left. */
  generation?: number;
  before: { version: string; announced: string; program?: string };
  after: { version: string; announced: string; program?: string };
}

/** A network as a run stores it: its file's hash when the run began, its stage count and the start settings. */
export interface StoredNetwork {
  sha256: string;
  stages: number;
  start: NetworkStart;
}

/** What a run stores as its config: the validated config and the resolved start point. */
export interface StoredConfig {
  config: RunConfig;
  /** tune2048's own heuristic: the start weights. */
  startWeights?: Weights;
  /** An external player: its announcement and start values. */
  external?: StoredExternal;
  /** A learned network: its hash, stages and start settings. */
  network?: StoredNetwork;
}

export interface RunProblem extends StoredConfig {
  run: Run;
  space: BoundedSpace;
  optimizer: Optimizer;
  /** The player of a genome (its weights with the run's search settings, or the external program with its values). */
  playerOf(genome: readonly number[]): PlayerSpec;
  /** The point a genome is (space/point.ts): equal for two genomes that play as one player. */
  pointKey(genome: readonly number[]): string;
}

/** How a config's external player starts here (its cwd made absolute when the config was loaded). */
function launchOf(player: ExternalPlayerConfig): Launch {
  return definitionAt(player, player.cwd ?? '.').launch;
}

/** The stored external player with some values, started from `launch` (local workers start it). */
export function externalSpec(stored: StoredExternal, params: Record<string, number>, launch: Launch): ExternalPlayerSpec {
  const { announcement } = stored;
  return { kind: 'external', external: { name: announcement.name, version: announcement.version, announced: announcementHash(announcement), params, launch, ...(stored.program ? { program: stored.program } : {}) } };
}

/**
 * Before a run goes on (resume): its external player is the program it began with — the same announcement and
 * the same files — or the run is refused in one line saying what changed and how to go on, and nothing of it is
 * touched (a run marked failed by it would fail the same way on every resume). Workers check again before they
 * play (remote ones start their own registered program).
 */
export async function checkExternalUnchanged(stored: StoredConfig, runId: number, db: string, accept?: { games: number; generation: number | null; queue: boolean }): Promise<StoredExternal | null> {
  const player = externalPlayerOf(stored.config);
  if (!player || !stored.external) return null;
  const launch = launchOf(player);
  const then = stored.external;
  const now = await readAnnouncement(player.name, launch);
  const program = programHash(launch);
  const announced = announcementHash(now) !== announcementHash(then.announcement);
  const filesChanged = then.program !== undefined && program !== then.program;
  if (!announced && !filesChanged) return null;
  const what = announced
    ? `player ${player.name} now announces version ${now.version} (hash ${announcementHash(now)}), not the version ${then.announcement.version} the run began with (hash ${announcementHash(then.announcement)})`
    : `player ${player.name}'s program changed since the run began (the files its command names, ${launch.command.join(' ')} in ${launch.cwd}, hash ${program} now, ${then.program} then; its version line says ${now.version} still)`;
  // What the run tunes must still be there: the same parameters (by name, range and scale; a default no longer matters once the run has its start) and the same cost line.
  const spaceChange = spaceChangeOf(then.announcement, now);
  const newRun = `a new run of the changed program: ${cliName()} tune -c CONFIG --db ${shellWord(db)}`;
  if (!accept) {
    const acceptHint = spaceChange === null ? `, accept the change with: ${cliName()} resume ${runId} --db ${shellWord(db)} --accept-changed (recorded in the run; its games before and after mix)` : '';
    throw new InputError(`run ${runId}: ${what}: its games would mix two programs; put the old one back${acceptHint}, or ${newRun}`);
  }
  if (spaceChange !== null) throw new InputError(`run ${runId}: ${what}, and ${spaceChange}, so the run's space no longer fits it: --accept-changed cannot go on with it; ${newRun}`);
  // Remote workers name their program by its announcement alone: a change of files they cannot tell from the old program.
  if (accept.queue && !announced) throw new InputError(`run ${runId}: ${what}: this run plays on a Redis queue, whose workers name their program by its version line alone and could not tell the old from the new; bump the program's version line, then resume with --accept-changed`);
  // A changed program is checked as a new run's is: a function of its seeds.
  const warning = await checkReplay({ ...stored, external: { ...then, announcement: now, program } });
  if (warning) console.error(`tune2048: ${warning}`);
  const side = (a: Announcement, p: string | undefined) => ({ version: a.version, announced: announcementHash(a), ...(p !== undefined ? { program: p } : {}) });
  const change: ProgramChange = { acceptedAt: Date.now(), games: accept.games, ...(accept.generation !== null ? { generation: accept.generation } : {}), before: side(then.announcement, then.program), after: side(now, program) };
  return { ...then, announcement: now, program, changes: [...(then.changes ?? []), change] };
}

/** How a program's new announcement changes the run's space, in words, or null where it does not. */
function spaceChangeOf(then: Announcement, now: Announcement): string | null {
  const before = new Map(then.params.map((p) => [p.name, p]));
  const after = new Map(now.params.map((p) => [p.name, p]));
  for (const [name, p] of before) {
    const q = after.get(name);
    if (!q) return `it no longer announces the parameter ${name}`;
    if (q.min !== p.min || q.max !== p.max || q.scale !== p.scale) return `its parameter ${name} is now ${q.min}…${q.max} (${q.scale}), not ${p.min}…${p.max} (${p.scale})`;
  }
  const added = now.params.find((p) => !before.has(p.name));
  if (added) return `it announces a new parameter, ${added.name}`;
  if (now.cost !== then.cost) return now.cost ? 'it now reports its cost a move' : 'it no longer reports its cost a move';
  return null;
}

/** One line for an accepted change (resume says it, show lists it). */
export function describeProgramChange(name: string, c: ProgramChange): string {
  const version = c.before.version === c.after.version ? `version ${c.after.version}` : `version ${c.before.version} → ${c.after.version}`;
  const files = c.before.program !== c.after.program ? `, program hash ${c.before.program ?? 'unknown'} → ${c.after.program ?? 'unknown'}` : '';
  const where = c.generation !== undefined ? `, in generation ${c.generation} (its games may be of both)` : ', in validation';
  return `player ${name} changed after ${c.games} of the run's games${where} (${version}${files}), accepted on ${new Date(c.acceptedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC with --accept-changed: the games before and after are of two programs`;
}

/**
 * Resolves the start point and checks the space against it: everything a run needs, before any file is
 * touched. An external player is started once to read what it announces.
 */
export async function prepareRun(config: RunConfig, origin?: string): Promise<StoredConfig> {
  try {
    return await prepare(config);
  } catch (e) {
    // A space that does not fit its start is the config's mistake: said with the config's name, as its other fields are.
    if (origin && e instanceof InputError && /^(space|fitness|optimizer|validation)\./.test(e.message)) throw new InputError(`${origin}: ${e.message}`);
    throw e;
  }
}

async function prepare(config: RunConfig): Promise<StoredConfig> {
  const player = externalPlayerOf(config);
  if (!player) {
    const stored = networkPlayerOf(config) ? prepareNetworkRun(config) : prepareHeuristicRun(config);
    // A budget no setting keeps within: said before anything is stored (one game of the cheapest setting).
    const { space, playerOf } = problemOf(stored);
    await checkCeilingReachable(config, space, playerOf);
    return stored;
  }
  const announcement = await readAnnouncement(player.name, launchOf(player));
  if (config.fitness.cost !== undefined && announcement.cost !== 'nodes') throw new InputError(`the external player ${player.name} reports no cost per move: ${config.fitness.maxCost !== undefined ? 'a budget of cost per move (fitness.maxCost)' : 'a two-objective run (fitness.cost)'} needs a "cost nodes" line in its announcement and "nodes K" after each move (docs/protocol.md); or remove fitness.cost`);
  const start = config.space.start === 'defaults' ? defaultParams(announcement) : paramsFor(announcement, loadParamsFile(config.space.start), `space.start "${config.space.start}"`);
  const external = { announcement, start, program: programHash(launchOf(player)) };
  new ExternalSpace(announcement, start, config.space.params);
  return { config, external };
}

/** A network's run: its file read whole once (the hash workers check), the start from space.start ("defaults" or a network player file for it). */
function prepareNetworkRun(config: RunConfig): StoredConfig {
  const { file } = networkPlayerOf(config)!;
  const stages = readNetworkShape(file).stages.length;
  const sha256 = fileSha256(file);
  let settings;
  if (config.space.start !== 'defaults') {
    settings = loadNetworkSettings(config.space.start);
    if (settings.network.sha256 !== sha256) throw new InputError(`space.start "${config.space.start}" is for the network with sha256 ${settings.network.sha256.slice(0, 12)}…, not "${file}" (${sha256.slice(0, 12)}…)`);
  }
  const start = networkStart(stages, config.fitness.cprob, settings);
  new NetworkSpace(stages, start, config.space.params, sha256); // validates the space against the network
  return { config, network: { sha256, stages, start } };
}

/** The network player of a run's settings. */
export function networkSpec(config: RunConfig, stored: StoredNetwork, settings: NetworkStart, depth: number | 'auto' = config.fitness.depth): NetworkPlayerSpec {
  return { kind: 'network', network: { file: networkPlayerOf(config)!.file, sha256: stored.sha256 }, search: { depth, cprob: settings.cprob, stageWeights: settings.stageWeights, ...(settings.depthRule ? { depthRule: settings.depthRule } : {}), ...(settings.downgradeAt ? { downgradeAt: settings.downgradeAt } : {}) }, ...(settings.heuristic ? { heuristic: settings.heuristic } : {}) };
}

/** The synchronous preparation of a run of tune2048's own heuristic (an external player's needs prepareRun: it starts the program). */
export function prepareHeuristicRun(config: RunConfig): StoredConfig {
  if (networkPlayerOf(config)) return prepareNetworkRun(config);
  if (externalPlayerOf(config)) throw new InputError('a run of an external player is prepared with prepareRun (it starts the program to read its parameters)');
  const startWeights = loadWeights(config.space.start);
  new ParameterSpace(startWeights, config.space.params!, config.space.matrix, config.space.stages); // validates the space against the start point
  return { config, startWeights };
}

/** Stores a new run: a prepared config, or a config of tune2048's own heuristic (prepared here). */
/**
 * An external player must play a seed the same way twice (else paired comparisons and resume are unfair):
 * one replay on a fixed seed with the start values, before the run is stored. Refuses (InputError) or,
 * as the config's player says, returns the warning to print; null for a deterministic or built-in player.
 */
export async function checkReplay(stored: StoredConfig): Promise<string | null> {
  const player = externalPlayerOf(stored.config);
  if (!player) return null;
  const spec = externalSpec(stored.external!, stored.external!.start, launchOf(player));
  const differs = await replayDiffers(spec.external, spec.external.launch!, REPLAY_SEED);
  if (!differs) return null;
  const message = `player ${player.name} ${differs}: its games are not a function of the seed`;
  if (player.nondeterministic === 'refuse') throw new InputError(`${message} (set fitness.player.nondeterministic to "warn" to tune it anyway)`);
  return `warning: ${message}; tuning it anyway (nondeterministic: "warn")`;
}
const REPLAY_SEED = 20_480_000;

export function createRun(store: Store, what: RunConfig | StoredConfig, name?: string): number {
  const stored = 'config' in what ? what : prepareHeuristicRun(what);
  return store.createRun({ name: name ?? stored.config.name ?? 'run', storedConfig: stored, configHash: configHash(stored.config), seed: stored.config.seed });
}

const storedNetworkSchema = v.object({
  sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  stages: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(8)),
  start: v.object({
    cprob: v.pipe(v.number(), v.minValue(0), v.ltValue(1)),
    stageWeights: v.array(v.pipe(v.number(), v.finite(), v.gtValue(0))),
    depthRule: v.optional(depthRuleSchema()),
    heuristic: v.optional(v.unknown()),
    downgradeAt: v.optional(v.number()),
  }),
});

const programSide = v.object({ version: v.string(), announced: v.string(), program: v.optional(v.string()) });
const storedExternalSchema = v.object({
  announcement: v.object({ name: v.string(), version: v.string(), params: v.array(v.object({ name: v.string(), default: v.number(), min: v.number(), max: v.number(), scale: v.picklist(['linear', 'log']) })), cost: v.optional(v.literal('nodes')) }),
  start: v.record(v.string(), v.number()),
  program: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/))),
  changes: v.optional(v.array(v.object({ acceptedAt: v.number(), games: v.number(), generation: v.optional(v.number()), before: programSide, after: programSide }))),
});

/** A run's stored config, checked as a config file is (a hand-edited or damaged one gets one line naming the field). */
export function decodeStoredConfig(stored: unknown): StoredConfig {
  const raw = (stored ?? {}) as Partial<StoredConfig>;
  const config = parseConfig(raw.config, 'stored config');
  if (networkPlayerOf(config)) {
    const r = v.safeParse(storedNetworkSchema, raw.network);
    if (!r.success || r.output.start.stageWeights.length !== r.output.stages) throw new InputError(`stored network: ${r.success ? 'a stage weight per stage' : describeIssues(r.issues)}`);
    const { heuristic, ...start } = r.output.start;
    return { config, network: { ...r.output, start: { ...start, ...(heuristic !== undefined ? { heuristic: leafHeuristic(parseWeights(heuristic, 'stored network heuristic'), 'stored network heuristic') } : {}) } } };
  }
  if (!externalPlayerOf(config)) return { config, startWeights: parseWeights(raw.startWeights, 'stored start weights') };
  const r = v.safeParse(storedExternalSchema, raw.external);
  if (!r.success) throw new InputError(`stored external player: ${describeIssues(r.issues)}`);
  checkAnnouncement(r.output.announcement);
  return { config, external: r.output };
}

/** A stored announcement passes the same rules as one read from a program. */
function checkAnnouncement(a: Announcement): void {
  const reader = new AnnouncementReader();
  try {
    reader.read(`name ${a.name}`);
    reader.read(`version ${a.version}`);
    for (const p of a.params) reader.read(`param ${p.name} ${p.default} ${p.min} ${p.max} ${p.scale}`);
    if (a.cost) reader.read(`cost ${a.cost}`);
  } catch (e) {
    throw new InputError(`stored external player: ${(e as Error).message}`);
  }
}

/** The problem of a stored config (a run's, or a race contender's before it is stored). */
export function problemOf(stored: StoredConfig): Omit<RunProblem, 'run'> {
  const { config } = stored;
  if (stored.network) {
    const space = new NetworkSpace(stored.network.stages, stored.network.start, config.space.params, stored.network.sha256);
    return withOptimizer(stored, space, (genome) => networkSpec(config, stored.network!, space.toSettings(genome), searchDepthOf(space, genome)));
  }
  const player = externalPlayerOf(config);
  if (player) {
    const space = new ExternalSpace(stored.external!.announcement, stored.external!.start, config.space.params);
    const launch = launchOf(player);
    return withOptimizer(stored, space, (genome) => externalSpec(stored.external!, space.toParams(genome), launch));
  }
  const space = new ParameterSpace(stored.startWeights!, config.space.params!, config.space.matrix, config.space.stages);
  return withOptimizer(stored, space, (genome) => fitnessPlayer(searchAt(config.fitness, space, genome), space.toWeights(genome)));
}

/** A run's problem from its space and player of a genome: the point key and the optimizer follow from them. */
function withOptimizer(stored: StoredConfig, space: BoundedSpace, playerOf: (genome: readonly number[]) => PlayerSpec): Omit<RunProblem, 'run'> {
  const pointKey = pointKeyOf(playerOf);
  return { ...stored, space, playerOf, pointKey, optimizer: createOptimizer(stored.config, space, pointKey) };
}

/** The fitness settings with a genome's tuned search depth and (the heuristic's) cutoff, or as they are. */
export function searchAt(fitness: RunConfig['fitness'], space: BoundedSpace, genome: readonly number[]): RunConfig['fitness'] {
  const depth = searchDepthOf(space, genome);
  const cprob = searchCprobOf(space, genome);
  return { ...fitness, ...(depth !== undefined ? { depth } : {}), ...(cprob !== undefined ? { cprob } : {}) };
}

/** The problem of a run in the store (an InputError names a missing run). */
export function loadRunProblem(store: Store, runId: number): RunProblem {
  const run = store.requireRun(runId);
  return { run, ...problemOf(decodeStoredConfig(run.storedConfig)) };
}
