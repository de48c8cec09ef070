/**
 * compare queues its contenders' batches in turn, so a comparison stopped at any point (Ctrl-C, kill -9,
 * a lost machine) holds complete pairs of all but its last batches: checked on the order batches reach a
 * runner, and on what a memo holds when the runner stops after a few.
 */
import { describe, expect, it } from 'vitest';
import type { PlayedGame } from '../src/engine/game';
import { loadWeights } from '../src/heuristic/weights';
import { compareWeights, type GameMemo } from '../src/compare/compare';
import { playerKey, type PlayerSpec } from '../src/player/spec';
import type { GameRunner } from '../src/runner/runner';

const contenders = ['nneonneo', 'tuned-d1', 'snake3'].map((name) => ({ label: name, weights: loadWeights(name) }));

/** A runner that answers batches in the order they arrive (a game's score: its seed), failing after `limit` batches. */
function recordingRunner(limit = Infinity): GameRunner & { calls: { player: string; seeds: number[] }[] } {
  const calls: { player: string; seeds: number[] }[] = [];
  return {
    description: 'a recording runner',
    calls,
    async playBatch(spec: PlayerSpec, seeds: readonly number[]): Promise<PlayedGame[]> {
      calls.push({ player: (spec as { weights: { name: string } }).weights.name, seeds: [...seeds] });
      if (calls.length > limit) throw new Error('stopped');
      return seeds.map((seed) => ({ seed, score: seed, maxTile: 2048, moves: 10, ms: 1 }));
    },
    inFlight: () => 0,
    drain: () => undefined,
    end: async () => undefined,
    terminate: () => undefined,
  };
}

function memoryMemo(): GameMemo & { held: Map<string, Map<number, PlayedGame>> } {
  const held = new Map<string, Map<number, PlayedGame>>();
  return {
    held,
    known: (spec, seeds) => new Map(seeds.flatMap((s) => (held.get(playerKey(spec))?.has(s) ? [[s, held.get(playerKey(spec))!.get(s)!] as const] : []))),
    keep: (spec, games) => {
      const m = held.get(playerKey(spec)) ?? new Map<number, PlayedGame>();
      for (const g of games) m.set(g.seed, g);
      held.set(playerKey(spec), m);
    },
  };
}

describe('compare queues contenders in turn', () => {
  it('batch k of every contender before batch k + 1 of any', async () => {
    const runner = recordingRunner();
    await compareWeights(contenders, { games: 25, seed: 100, depth: 1, cprob: 1e-4, runner, batchGames: 10 });
    expect(runner.calls.map((c) => `${c.player} ${c.seeds[0]}-${c.seeds.at(-1)}`)).toEqual([
      'nneonneo 100-109', 'tuned-d1 100-109', 'snake3 100-109',
      'nneonneo 110-119', 'tuned-d1 110-119', 'snake3 110-119',
      'nneonneo 120-124', 'tuned-d1 120-124', 'snake3 120-124',
    ]);
  });

  it('stopped after a few batches, the memo holds complete pairs; run again, only the missing games are played, in turn', async () => {
    const memo = memoryMemo();
    const stopped = recordingRunner(4);
    await expect(compareWeights(contenders.slice(0, 2), { games: 40, seed: 200, depth: 1, cprob: 1e-4, runner: stopped, batchGames: 10, memo })).rejects.toThrow('stopped');
    const seedsOf = (c: number) => [...(memo.held.get(playerKey({ kind: 'expectimax', weights: contenders[c].weights, search: { depth: 1, cprob: 1e-4 } })) ?? new Map()).keys()].sort((a, b) => a - b);
    expect(seedsOf(0)).toEqual(seedsOf(1)); // every kept game has its pair
    expect(seedsOf(0)).toHaveLength(20);
    const again = recordingRunner();
    const r = await compareWeights(contenders.slice(0, 2), { games: 40, seed: 200, depth: 1, cprob: 1e-4, runner: again, batchGames: 10, memo });
    expect(again.calls.map((c) => `${c.player} ${c.seeds[0]}`)).toEqual(['nneonneo 220', 'tuned-d1 220', 'nneonneo 230', 'tuned-d1 230']);
    expect(r.contenders[0].games.map((g) => g.seed)).toEqual(Array.from({ length: 40 }, (_, i) => 200 + i));
  });
});
