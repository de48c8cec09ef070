/**
 * Paired comparison of weight sets: every contender plays the same game seeds
 * (on the game runner it is given: local workers or a Redis queue), so each
 * seed gives a pair of scores per two contenders and the test is on their
 * differences.
 */
import seedrandom from 'seedrandom';
import type { Weights } from '../heuristic/weights';
import type { PlayedGame } from '../engine/game';
import type { GameRunner } from '../runner/runner';
import type { DepthSetting } from '../player/expectimax';
import { gameSeed } from '../player/players';
import { playerKey, playerSpec, type ExternalPlayerSpec, type NetworkPlayerSpec, type PlayerKind, type PlayerSpec } from '../player/spec';
import { createHash } from 'node:crypto';
import { buildInfo, type BuildInfo } from '../util/build-info';
import { GameSummary, summarizeGames } from './summary';
import { bootstrapMeanCI95, gamesForPower, holmAdjust, meanWithCI95, smallestSignedRankP, wilcoxonSignedRank, WilcoxonResult } from '../util/stats';
import { sprtStep, type SprtSettings, type SprtState } from './sprt';
import { gamesToResolve, pairNoise } from './noise';
import { RunnerStoppedError } from '../util/errors';

/**
 * A contender: weights played by the comparison's player (at its own depth and cutoff, if it has them, so a
 * network at depth 1 may meet a heuristic at depth 3), a network with its search, or an external program with
 * its parameter values.
 */
export type Contender = { label: string; weights: Weights; depth?: DepthSetting; cprob?: number } | { label: string; external: ExternalPlayerSpec } | { label: string; network: NetworkPlayerSpec };

/** The player a contender's games are played by. */
export function contenderSpec(c: Contender, o: Pick<CompareOptions, 'player' | 'depth' | 'cprob' | 'iterations' | 'c' | 'rolloutDepth' | 'msPerMove'>): PlayerSpec {
  if ('network' in c) return c.network;
  return 'external' in c ? c.external : playerSpec(o.player ?? 'expectimax', c.weights, { ...o, depth: c.depth ?? o.depth, cprob: c.cprob ?? o.cprob });
}

/** The depth a contender searches (null: an external player's own setting). */
export function contenderDepthOf(c: Contender, o: Pick<CompareOptions, 'depth'>): DepthSetting | null {
  if ('network' in c) return c.network.search.depth;
  if ('external' in c) return null;
  return c.depth ?? o.depth;
}

export interface CompareOptions {
  games: number;
  seed: number;
  /** The seeds to play, when not the consecutive `games` from `seed` (compare --seeds: a run's held-out seeds, a list); with their source as given. */
  seeds?: { list: readonly number[]; source: string };
  depth: DepthSetting;
  cprob: number;
  /** The player every contender plays with (absent: expectimax), and MCTS's settings. */
  player?: PlayerKind;
  iterations?: number;
  c?: number;
  rolloutDepth?: number;
  /** expectimax: a time budget per move (iterative deepening up to the depth). */
  msPerMove?: number;
  runner: GameRunner;
  batchGames?: number;
  onProgress?: (done: number, total: number) => void;
  /** Games found in the memo (before any is played): counted in `done`, but played by no one now (a progress bar's ETA leaves them out). */
  onKnown?: (done: number, total: number) => void;
  /** Games already played by the same players on these seeds (an interrupted comparison), and where new ones go. */
  memo?: GameMemo;
}

/**
 * A comparison's memory of games (compare --db: the database's compare_games): a game depends only on the
 * player spec, the seed and the search build, so one played before need not be played again.
 */
export interface GameMemo {
  known(spec: PlayerSpec, seeds: readonly number[]): Map<number, PlayedGame>;
  keep(spec: PlayerSpec, games: readonly PlayedGame[]): void;
}

/** Games a comparison holds, each marked whether it was played now or came from the memo (another run's timing). */
type Remembered = PlayedGame & { stored?: true };

/**
 * Plays what `memo` does not know of `seeds` for every player (keeping each batch as it finishes); per player,
 * all the games in seed order. The batches are queued in turn (A's first, B's first, A's second, …), so a
 * comparison stopped at any point holds complete pairs of all but the last few batches.
 *
 * Stopped (the runner drained: Ctrl-C), it waits for the running batches (kept too) and answers only the
 * seeds every player finished, with `stopped` set.
 */
async function playRemembered(o: Pick<CompareOptions, 'runner' | 'memo' | 'msPerMove'>, specs: readonly PlayerSpec[], seeds: readonly number[], batch: number, onGames: (n: number, known?: boolean) => void): Promise<{ played: Remembered[][]; stopped: boolean }> {
  const budgeted = o.msPerMove !== undefined;
  const known = specs.map((spec) => new Map<number, Remembered>([...(o.memo?.known(spec, seeds) ?? new Map<number, PlayedGame>())].map(([seed, g]) => [seed, { ...g, stored: true as const }])));
  for (const k of known) if (k.size > 0) onGames(k.size, true);
  const missing = known.map((k) => seeds.filter((s) => !k.has(s)));
  const fresh = specs.map(() => new Map<number, PlayedGame>());
  const parts: Promise<void>[] = [];
  const rounds = Math.max(0, ...missing.map((m) => Math.ceil(m.length / batch)));
  for (let r = 0; r < rounds; r++) {
    specs.forEach((spec, c) => {
      const slice = missing[c].slice(r * batch, (r + 1) * batch);
      if (slice.length === 0) return;
      parts.push(
        o.runner.playBatch(spec, slice).then((games) => {
          o.memo?.keep(spec, games);
          onGames(games.length);
          // A comparison keeps scores, not moves (an external player's games carry theirs), nor the depths searched
          // (compare_games does not hold them: a comparison gone on from the database gives the same games) — but
          // under a time budget a move, how deep the search reached is what played, so those keep them.
          for (const { moveList: _moves, depths, ...g } of games) fresh[c].set(g.seed, budgeted && depths !== undefined ? { ...g, depths } : g);
        }).catch((e: unknown) => {
          // A batch that failed ends the comparison: the batches not started are cancelled, not waited for.
          if (!(e instanceof RunnerStoppedError)) o.runner.drain();
          throw e;
        }),
      );
    });
  }
  // Every batch settles before the answer: a stop keeps the running ones' games, and a failure is not hidden by a stop.
  const settled = await Promise.allSettled(parts);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof RunnerStoppedError));
  if (failed) throw failed.reason;
  const stopped = settled.some((r) => r.status === 'rejected');
  const complete = stopped ? seeds.filter((s) => specs.every((_, c) => known[c].has(s) || fresh[c].has(s))) : seeds;
  return { played: specs.map((_, c) => complete.map((s) => known[c].get(s) ?? fresh[c].get(s)!)), stopped };
}

export interface ContenderResult {
  label: string;
  /**
   * What played, whatever its label: the player's identity as games depend on it (playerKey: weights and search,
   * a network's hash and search, an external program's name, version, announcement, values and program hash) and
   * its short hash. Absent in comparisons stored before it.
   */
  player?: { hash: string; identity: unknown };
  /** The depth it searched (its own @dN or the comparison's; a network's), null for an external player (its own setting). Absent in comparisons stored before it. */
  depth?: DepthSetting | null;
  summary: GameSummary;
  meanCI95: { low: number; high: number };
  /** Per game, in seed order. */
  games: PlayedGame[];
  /**
   * The time per move of the games played in this run (compare --db takes others from the database: their
   * times are another run's, on a machine as loaded as it was then); null when every game came from there.
   */
  timing?: { msPerMove: number; games: number } | null;
}

export interface PairResult {
  a: string;
  b: string;
  /** Mean of (a − b) over the paired games, with its 95% interval (ciMethod says which). */
  meanDiff: number;
  ci95: { low: number; high: number };
  /**
   * How the interval was found: "bootstrap" (the percentile bootstrap of the mean difference, from 30 pairs) or
   * "t" (Student's t on the differences, below 30, where a bootstrap is too narrow). Absent in comparisons
   * stored before it (bootstrap).
   */
  ciMethod?: 'bootstrap' | 't';
  /** With three or more contenders, Wilcoxon's p adjusted by Holm's method over every pair of the comparison. */
  pHolm?: number;
  /** a's mean over b's, minus one. */
  relative: number;
  wilcoxon: WilcoxonResult;
  /**
   * How much the common seeds paired the two (src/compare/noise.ts): the correlation of their scores on a
   * seed, and the games per contender a 5% difference needs at this spread: to be 1.96 standard errors
   * (gamesFor5Percent: found half the time) and to be found by the test 80 % of the time
   * (gamesFor5PercentPower80). From 30 pairs only (a handful of games estimates neither); absent in comparisons
   * stored before it existed.
   */
  pairing?: { correlation: number; gamesFor5Percent: number; gamesFor5PercentPower80?: number };
}

/** Below this many pairs a comparison's intervals come from Student's t, and no correlation or sample size is estimated. */
export const FEW_PAIRS = 30;

/** One weight set at several depths, the same seeds at each (tune2048 sweep). */
export interface Sweep {
  kind: 'sweep';
  weights: string;
  games: number;
  seed: number;
  cprob: number;
  depths: { depth: DepthSetting; summary: GameSummary }[];
}

export interface Comparison {
  /**
   * games, seed (the first: games i plays seed + i), the search; `seeds` and `seedSource` when the seeds were a
   * list (compare --seeds: a run's held-out seeds), in the order played; `msPerMove` for a time-budgeted search.
   */
  settings: { games: number; seed: number; depth: DepthSetting; cprob: number; seeds?: number[]; seedSource?: string; msPerMove?: number };
  contenders: ContenderResult[];
  pairs: PairResult[];
  /** The tune2048 that made it: version, the WebAssembly builds, Node (absent in comparisons stored before it). */
  tool?: BuildInfo;
  /**
   * Set when the comparison was stopped before its end (Ctrl-C): the games it was asked for; `settings.games`
   * are then the seeds every contender finished (not always the first ones). A partial comparison is never stored.
   */
  stoppedAt?: { of: number };
  /** The command's words as it was run (compare …; absent in comparisons stored before it was kept): the report prints it. */
  command?: string[];
}

const bySeed = (games: readonly PlayedGame[]) => new Map(games.map((g) => [g.seed, g.score]));

/**
 * The bootstrap's random numbers for one pair, from its two labels in a fixed order: a pair's interval is the
 * same whatever else was compared beside it, and mirrored when its two are given the other way round.
 */
function pairRandom(seed: number, a: string, b: string): () => number {
  return seedrandom.alea(`compare:${seed}:${JSON.stringify([a, b].sort())}`);
}

/** Per contender summaries and, per pair, the paired difference with its 95 % interval and Wilcoxon test (and Holm's adjustment over the pairs). */
export function summarizePlayed(contenders: readonly Pick<Contender, 'label'>[], played: Remembered[][], seed: number): { results: ContenderResult[]; pairs: PairResult[] } {
  const results: ContenderResult[] = contenders.map((c, k) => {
    const ci = meanWithCI95(played[k].map((g) => g.score));
    const fresh = played[k].filter((g) => !g.stored);
    const games = played[k].map(({ stored: _stored, ...g }) => g);
    return { label: c.label, summary: summarizeGames(games), meanCI95: { low: ci.low, high: ci.high }, games, timing: fresh.length === 0 ? null : { msPerMove: summarizeGames(fresh).msPerMove, games: fresh.length } };
  });
  const pairs: PairResult[] = [];
  for (let i = 0; i < results.length; i++) {
    for (let j = i + 1; j < results.length; j++) {
      const diffs = results[i].games.map((g, k) => g.score - results[j].games[k].score);
      const meanDiff = diffs.reduce((s, x) => s + x, 0) / diffs.length;
      const few = diffs.length < FEW_PAIRS;
      const noise = few ? null : pairNoise(bySeed(results[i].games), bySeed(results[j].games), FEW_PAIRS);
      const t = meanWithCI95(diffs);
      pairs.push({
        a: results[i].label,
        b: results[j].label,
        meanDiff,
        ci95: few ? { low: t.low, high: t.high } : bootstrapMeanCI95(diffs, pairRandom(seed, results[i].label, results[j].label)),
        ciMethod: few ? 't' : 'bootstrap',
        relative: results[i].summary.meanScore / results[j].summary.meanScore - 1,
        wilcoxon: wilcoxonSignedRank(diffs),
        ...(noise ? { pairing: { correlation: noise.correlation, gamesFor5Percent: gamesToResolve(noise.sdDiff, noise.meanScore, 0.05), gamesFor5PercentPower80: gamesForPower(noise.sdDiff, noise.meanScore, 0.05) } } : {}),
      });
    }
  }
  // Several pairs at once: each p also adjusted for the others (Holm), so "any of them significant" keeps its 5 %.
  if (pairs.length >= 2) holmAdjust(pairs.map((p) => p.wilcoxon.p)).forEach((p, k) => (pairs[k].pHolm = p));
  return { results, pairs };
}

export interface SequentialOptions extends Omit<CompareOptions, 'games' | 'onProgress'> {
  sprt: SprtSettings;
  /** Paired games per contender at most. */
  maxGames: number;
  /** Paired games per contender between two looks at the test. */
  step: number;
  onStep?: (state: SprtState) => void;
}

/** A paired comparison of two weight sets stopped by the SPRT (compare --sprt). */
export interface SequentialComparison extends Comparison {
  sprt: SprtSettings & { maxGames: number; step: number };
  /** The test after each step. */
  trajectory: SprtState[];
  decision: 'H1' | 'H0' | 'max-games' | 'stopped';
}

/**
 * Plays A and B on the same seeds, `step` pairs at a time, until the SPRT decides or `maxGames` pairs are
 * played. The steps are fixed, so the decision depends on the seeds only, never on the worker count.
 */
export async function compareSequential(a: Contender, b: Contender, o: SequentialOptions): Promise<SequentialComparison> {
  const batch = o.batchGames ?? 5;
  const specs = [a, b].map((c) => contenderSpec(c, o));
  const played: [Remembered[], Remembered[]] = [[], []];
  const trajectory: SprtState[] = [];
  let stopped = false;
  while (played[0].length < o.maxGames) {
    const first = played[0].length;
    const seeds = Array.from({ length: Math.min(o.step, o.maxGames - first) }, (_, i) => gameSeed(o.seed, first + i));
    const step = await playRemembered(o, specs, seeds, batch, () => {});
    played[0].push(...step.played[0]);
    played[1].push(...step.played[1]);
    // A stopped step's finished pairs are shown, not tested: the test looks only at whole steps.
    if ((stopped = step.stopped)) break;
    const state = sprtStep(played[0].map((g) => g.score), played[1].map((g) => g.score), o.sprt);
    trajectory.push(state);
    o.onStep?.(state);
    if (state.decision !== 'continue') break;
  }
  const { results, pairs } = summarizePlayed([a, b], played, o.seed);
  results.forEach((r, k) => (r.player = playerIdentity(specs[k])));
  const last = trajectory[trajectory.length - 1];
  return {
    tool: buildInfo(),
    settings: { games: played[0].length, seed: o.seed, depth: o.depth, cprob: o.cprob },
    contenders: results,
    pairs,
    sprt: { ...o.sprt, maxGames: o.maxGames, step: o.step },
    trajectory,
    decision: stopped ? 'stopped' : last.decision === 'continue' ? 'max-games' : last.decision,
    ...(stopped ? { stoppedAt: { of: o.maxGames } } : {}),
  };
}

export async function compareWeights(contenders: readonly Contender[], o: CompareOptions): Promise<Comparison> {
  const seeds = o.seeds ? [...o.seeds.list] : Array.from({ length: o.games }, (_, i) => gameSeed(o.seed, i));
  const batch = o.batchGames ?? 10;
  const total = contenders.length * seeds.length;
  let done = 0;
  const { played, stopped } = await playRemembered(o, contenders.map((c) => contenderSpec(c, o)), seeds, batch, (n, known) => {
    done += n;
    (known ? (o.onKnown ?? o.onProgress) : o.onProgress)?.(done, total);
  });
  const { results, pairs } = summarizePlayed(contenders, played, o.seed);
  results.forEach((r, k) => {
    r.depth = contenderDepthOf(contenders[k], o);
    r.player = playerIdentity(contenderSpec(contenders[k], o));
  });
  const listed = o.seeds ? { seeds: played[0].map((g) => g.seed), seedSource: o.seeds.source } : {};
  const settings = { games: played[0].length, seed: o.seeds ? seeds[0] : o.seed, depth: o.depth, cprob: o.cprob, ...listed, ...(o.msPerMove !== undefined ? { msPerMove: o.msPerMove } : {}) };
  return { settings, contenders: results, pairs, tool: buildInfo(), ...(stopped ? { stoppedAt: { of: seeds.length } } : {}) };
}

/**
 * What a comparison's figures can and cannot say, in lines under its tables (compare, the report): a sample
 * too small to reach p < 0.05 at all, the small-sample rules in force, and the adjustment for several pairs.
 */
export function comparisonNotes(result: Pick<Comparison, 'settings' | 'pairs'>): string[] {
  const n = result.settings.games;
  const notes: string[] = [];
  if (n < 6) notes.push(`with ${n} pair${n === 1 ? '' : 's'} no difference can reach p < 0.05 (the smallest exact two-sided Wilcoxon p of ${n} pairs is ${smallestSignedRankP(n)}): these figures resolve nothing; play more games`);
  if (n < FEW_PAIRS) notes.push(`fewer than ${FEW_PAIRS} pairs: every interval is Student's t (the bootstrap is too narrow on so few), and neither the seeds' correlation nor the games a 5% difference needs are estimated`);
  if (result.pairs.length >= 2) notes.push(`${result.pairs.length} pairs tested at once: "p (Holm)" is each p adjusted for the others (Holm's method), so that the chance of any false "significant" among them stays 5%`);
  return notes;
}

/**
 * Labels that tell every contender apart: one met twice gets what the user named it by (two files that call
 * themselves alike, "nn-empty271 (nn271.json)" and "nn-empty271 (nn300.json)"), and one named twice the same way
 * a number (#1, #2), so no table row and no pair reads as another's.
 */
export function distinctLabels(labels: readonly string[], sources: readonly string[]): string[] {
  const count = (xs: readonly string[], x: string) => xs.filter((y) => y === x).length;
  const named = labels.map((l, i) => (count(labels, l) > 1 && sources[i] !== l ? `${l} (${sources[i]})` : l));
  const seen = new Map<string, number>();
  return named.map((l) => {
    if (count(named, l) === 1) return l;
    const k = (seen.get(l) ?? 0) + 1;
    seen.set(l, k);
    return `${l} #${k}`;
  });
}

/** A player's identity for a record: what its games depend on (playerKey, parsed) and its short hash. */
export function playerIdentity(spec: PlayerSpec): { hash: string; identity: unknown } {
  const key = playerKey(spec);
  return { hash: createHash('sha256').update(key).digest('hex').slice(0, 16), identity: JSON.parse(key) };
}
