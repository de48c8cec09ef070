/**
 * A run started from another run's generations (`tune --fitness-from DB[:RUN]`): the generations, their
 * candidates and fitness games of a finished run whose config differs only in what comes after them (the
 * validation; name, description, pool and workers aside) are copied, and the new run plays only its own
 * validation. The generations are fixed by the config and seed, so the copy is what the run would have played
 * itself (test/fitness-from.test.ts checks it row for row): another validation — with or without the race, a
 * second held-out set, more finalists — tried on the same search without playing its games again, and an
 * ablation of the validation alone.
 *
 * Candidates keep their ids: optimizer states and parents name them (NSGA-II's population does), so the
 * target database must not hold those ids already (a new file never does). A held-out game the source's
 * candidate played on a seed the new validation asks of it is stored instead of played again (the same player,
 * the same seed: the same game), so a plain validation after a raced one plays only what the race cut short
 * (with an external player's kept moves, which the viewer replays).
 */
import { Store, type Candidate, type Game, type Generation } from '../../store/store';
import { canonicalJson } from '../../util/canonical-json';
import { InputError } from '../../util/errors';
import { suggest } from '../../util/command-hint';
import { decodeStoredConfig, type StoredConfig } from './run-problem';

/** A finished run's generations as copied: each with its candidates and their fitness games. */
export interface FitnessSource {
  path: string;
  runId: number;
  generations: { generation: Generation; candidates: Candidate[]; games: Game[] }[];
  /** The smallest and largest candidate id copied. */
  ids: [number, number];
  games: number;
  /** The source's held-out games (validation and second set) by candidate and seed: the same player on the same seed plays them again to the move. */
  heldOut: Map<string, Game>;
}

/** What the new run finds already played: a held-out game of the same candidate on the same seed in the source (only while this process runs: a resume plays what is missing). */
export function knownGames(source: FitnessSource): (candidate: number, seed: number) => Game | undefined {
  return (candidate, seed) => source.heldOut.get(`${candidate}:${seed}`);
}

/** `FILE` or `FILE:RUN` (a run number after the last colon). */
export function parseFitnessFrom(text: string): { path: string; runId?: number } {
  const m = /^(.+):(\d+)$/.exec(text);
  return m ? { path: m[1], runId: Number(m[2]) } : { path: text };
}

/**
 * The first place two stored configs differ outside the validation, as "field: A against B", or null when
 * they play the same generations. The network's file path is left out where its hash is stored: the hash is
 * what decides the games.
 */
export function generationsDiffer(mine: StoredConfig, theirs: StoredConfig): string | null {
  // A run stored before its program's files were hashed has no hash: the announcement alone names its program then.
  const hashed = mine.external?.program !== undefined && theirs.external?.program !== undefined;
  const phase = (stored: StoredConfig) => {
    const s = stored.external && !hashed ? { ...stored, external: { ...stored.external, program: undefined } } : stored;
    const { name: _name, description: _description, validation: _validation, pool: _pool, workers: _workers, ...rest } = s.config;
    const player = rest.fitness.player;
    const fitness = s.network && typeof player === 'object' && player !== null && 'file' in player ? { ...rest.fitness, player: { ...player, file: undefined } } : rest.fitness;
    return JSON.parse(canonicalJson({ ...s, config: { ...rest, fitness } })) as unknown;
  };
  return firstDifference(phase(mine), phase(theirs), '');
}

function firstDifference(a: unknown, b: unknown, at: string): string | null {
  if (canonicalJson(a) === canonicalJson(b)) return null;
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (isObject(a) && isObject(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDifference(a[key], b[key], at ? `${at}.${key}` : key);
      if (d) return d;
    }
  }
  const show = (x: unknown) => (x === undefined ? 'nothing' : JSON.stringify(x));
  return `${at.replace(/^config\./, '') || 'the config'}: ${show(a)} against ${show(b)}`;
}

/**
 * Reads the generations to copy, checked: the run exists and finished, and its config plays the same
 * generations as `stored`. Throws an InputError naming the problem otherwise; opens the source read-only.
 */
export function readFitnessSource(text: string, stored: StoredConfig): FitnessSource {
  const { path, runId: asked } = parseFitnessFrom(text);
  const source = Store.open(path, { readonly: true });
  try {
    const runId = asked ?? source.listRuns().at(-1)?.id;
    if (runId === undefined) throw new InputError(`--fitness-from: "${path}" holds no run to copy (see "${suggest('runs', path)}")`);
    const run = source.requireRun(runId);
    if (run.status !== 'finished') {
      throw new InputError(`--fitness-from: run ${runId} in "${path}" is ${run.status}, not finished: its generations may not be all there (finish it first: ${suggest(`resume ${runId}`, path)})`);
    }
    const differs = generationsDiffer(stored, decodeStoredConfig(run.storedConfig));
    if (differs) throw new InputError(`--fitness-from: run ${runId} in "${path}" played other generations than this config would: ${differs} (only validation, name, description and pool may differ)`);
    // Every game of the run in one read: the fitness games go with their generation, the held-out ones may be reused.
    const fitness = new Map<number, Game[]>();
    const heldOut = new Map<string, Game>();
    const moves = source.runMoves(runId);
    for (const { generation, candidateIdx: _i, ...g } of source.runGames(runId)) {
      const moveList = g.purpose === 'validation' ? moves.get(`${g.candidateId}:${g.seed}`) : undefined;
      if (g.purpose !== 'fitness') heldOut.set(`${g.candidateId}:${g.seed}`, moveList === undefined ? g : { ...g, moveList });
      else if (fitness.has(generation)) fitness.get(generation)!.push(g);
      else fitness.set(generation, [g]);
    }
    const generations = source.listGenerations(runId).map((generation) => ({ generation, candidates: source.getCandidates(runId, generation.idx), games: fitness.get(generation.idx) ?? [] }));
    const ids = generations.flatMap((g) => g.candidates.map((c) => c.id));
    return { path, runId, generations, ids: [Math.min(...ids), Math.max(...ids)], games: generations.reduce((n, g) => n + g.games.length, 0), heldOut };
  } finally {
    source.close();
  }
}

/** Refuses a target database that already holds candidates under the ids to copy (before any run is created there). */
export function checkFitnessTarget(store: Store, source: FitnessSource): void {
  const [lo, hi] = source.ids;
  if (store.candidateIdsTaken(lo, hi)) {
    throw new InputError(`--fitness-from: "${store.path}" already holds candidates numbered ${lo}–${hi}, as run ${source.runId} of "${source.path}" numbers its own (they keep their numbers): give --db a new file`);
  }
}

/** Copies the source's generations into run `runId`, each in one transaction: a run killed in between goes on from what was copied. */
export function copyGenerations(store: Store, runId: number, source: FitnessSource): void {
  for (const g of source.generations) store.copyGeneration(runId, g.generation, g.candidates, g.games);
}
