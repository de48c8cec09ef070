/**
 * Playing a set of candidates' games: plan the (candidate, seed) games not yet stored, cut them into
 * batches, play them on the game runner, store each finished batch in one transaction. A candidate whose
 * player is another's (a GA offspring no gene changed, an elite's copy, a network search whose changed cutoff never prunes: the same gamesKey) would play
 * the very same games, so it gets copies of that one's games instead of playing them.
 */
import type { PlayerSpec } from '../../player/spec';
import { gamesKey } from '../../player/spec';
import type { GameRunner } from '../../runner/runner';
import type { Game, GamePurpose, PlayedGame, Store } from '../../store/store';
import { RunnerStoppedError } from '../../util/errors';

/** A candidate's games of one purpose, in seed order, by candidate id: read once, then kept up to date here. */
export type GamesByCandidate = Map<number, Game[]>;

export interface PlayingCandidate {
  id: number;
  spec: PlayerSpec;
}

export interface BatchContext {
  store: Store;
  /** The game runner (opened on first use). */
  runner(): Promise<GameRunner>;
  /** Cancels batches not started (on the first failure). */
  drain(): void;
  /** Throws if a stop was asked for. */
  checkStop(): void;
  batchGames: number;
  /**
   * A held-out game the same player already played elsewhere on that seed (tune --fitness-from: the source
   * run's), stored instead of played: a game is fixed by its player and seed.
   */
  known?: (candidate: number, seed: number) => PlayedGame | undefined;
}

/** A played game as a candidate's stored row. */
function gameRow(candidate: number, purpose: GamePurpose, g: PlayedGame): Game {
  return { candidateId: candidate, purpose, seed: g.seed, score: g.score, maxTile: g.maxTile, moves: g.moves, ms: g.ms, ...(g.nodes !== undefined ? { nodes: g.nodes } : {}), ...(g.moveList !== undefined ? { moveList: g.moveList } : {}), ...(g.regret !== undefined ? { regret: g.regret } : {}) };
}

/** Adds games to a candidate's list, keeping it in seed order (objectives sum in that order). */
function addGames(games: GamesByCandidate, id: number, added: readonly Game[]): void {
  const list = games.get(id) ?? [];
  list.push(...added);
  list.sort((a, b) => a.seed - b.seed);
  games.set(id, list);
}

/**
 * Plays every (candidate, seed) game of `seeds` that `games` lacks, storing each batch as it finishes and
 * adding it to `games`. `onProgress(done)` counts the candidates' games of these seeds, stored or played.
 */
export async function playMissing(
  ctx: BatchContext,
  candidates: readonly PlayingCandidate[],
  games: GamesByCandidate,
  purpose: GamePurpose,
  seeds: readonly number[],
  onProgress: (done: number) => void,
): Promise<void> {
  const tasks: { candidate: number; spec: PlayerSpec; seeds: number[] }[] = [];
  const playedBy = new Map<string, number>();
  const copies: { candidate: number; of: number; seeds: Set<number> }[] = [];
  let done = 0;
  for (const c of candidates) {
    const stored = new Set((games.get(c.id) ?? []).map((g) => g.seed));
    if (ctx.known && purpose !== 'fitness') {
      const found = seeds.filter((s) => !stored.has(s)).flatMap((s) => {
        const g = ctx.known!(c.id, s);
        return g ? [gameRow(c.id, purpose, g)] : [];
      });
      if (found.length > 0) {
        ctx.store.insertGames(found);
        addGames(games, c.id, found);
        for (const g of found) stored.add(g.seed);
      }
    }
    done += seeds.filter((s) => stored.has(s)).length;
    const missing = seeds.filter((s) => !stored.has(s));
    const key = gamesKey(c.spec);
    const of = playedBy.get(key);
    if (of !== undefined) {
      if (missing.length > 0) copies.push({ candidate: c.id, of, seeds: new Set(missing) });
      continue;
    }
    playedBy.set(key, c.id);
    for (let i = 0; i < missing.length; i += ctx.batchGames) tasks.push({ candidate: c.id, spec: c.spec, seeds: missing.slice(i, i + ctx.batchGames) });
  }
  onProgress(done);
  if (tasks.length > 0) {
    const runner = await ctx.runner();
    ctx.checkStop();
    const results = tasks.map(({ candidate, spec, seeds: batch }) =>
      runner.playBatch(spec, batch).then((played) => {
        const rows = played.map((g) => gameRow(candidate, purpose, g));
        ctx.store.insertGames(rows);
        addGames(games, candidate, rows);
        onProgress((done += rows.length));
      }),
    );
    // Wait for all; on the first failure cancel what has not started (what runs finishes and is stored).
    const settled = await Promise.allSettled(
      results.map((p) =>
        p.catch((e) => {
          ctx.drain();
          throw e;
        }),
      ),
    );
    const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as Error);
    if (failures.length > 0) throw failures.find((f) => !(f instanceof RunnerStoppedError)) ?? failures[0];
  }
  for (const copy of copies) {
    const rows = (games.get(copy.of) ?? []).filter((g) => copy.seeds.has(g.seed)).map((g) => ({ ...g, candidateId: copy.candidate }));
    ctx.store.insertGames(rows);
    addGames(games, copy.candidate, rows);
    onProgress((done += rows.length));
  }
}
