/**
 * gamesKey (src/player/spec.ts) and searchAsPlayed (network-settings.ts): a network search's cutoff that never
 * prunes, a depth-rule side that changes no depth and stage weights all 1 are left out of what names a player's games. Proven on
 * the real search: every pair of settings with one key gives the same values and counts the same positions on
 * every board, and the cutoff's bound is tight (just above it, a board where it prunes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { parseBoard, type Board } from '../src/engine/board';
import { createNetworkPlayer, fileSha256 } from '../src/player/network-player';
import { LEAST_SECOND_LAYER_PROBABILITY, searchAsPlayed, type DepthRule } from '../src/player/network-settings';
import { gamesKey, playerKey, type NetworkPlayerSpec } from '../src/player/spec';
import { randomBoards } from './helpers/boards';
import { trainSmallNetwork } from './helpers/network';

let dir: string;
let network: NetworkPlayerSpec['network'];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'games-key-'));
  const file = join(dir, 'net.bin');
  await trainSmallNetwork({ tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 4, 8, 12], [1, 5, 9, 13]], stages: [{ maxTile: [2, 32768] }], promote: false }, file, 5, 200);
  network = { file, sha256: fileSha256(file) };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every root move's value and the positions searched for each board. */
function behaviour(search: NetworkPlayerSpec['search'], boards: readonly Board[]): { values: number[][]; nodes: number[] } {
  const player = createNetworkPlayer({ network, search });
  const nodes: number[] = [];
  const values = boards.map((b) => {
    const before = player.searchNodes();
    const vs = player.decide(b).values;
    nodes.push(player.searchNodes() - before);
    return vs;
  });
  return { values, nodes };
}

describe('gamesKey', () => {
  it('settings with one key play alike: the same values and positions on every board (random settings, depths 0–3)', () => {
    const rng = seedrandom.alea('games-key');
    const cprobs = [0, 1e-4, 0.005, LEAST_SECOND_LAYER_PROBABILITY, 0.0067, 0.02];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
    const settings: NetworkPlayerSpec['search'][] = [];
    for (let i = 0; i < 60; i++) {
      const deeper = pick([undefined, 0, 2, 5]);
      const shallower = pick([undefined, 6, 10, 16]);
      const rule: DepthRule = { ...(deeper !== undefined ? { deeperAtEmpty: deeper } : {}), ...(shallower !== undefined ? { shallowerAtEmpty: shallower } : {}) };
      const weights = pick([undefined, undefined, [1], [1.5]]);
      settings.push({ depth: pick([0, 1, 1, 2]), cprob: pick(cprobs), ...(Object.keys(rule).length ? { depthRule: rule } : {}), ...(weights ? { stageWeights: weights } : {}) });
    }
    // Boards of every fullness, so every rule side that can act does.
    const boards = [...randomBoards('games-key-full', 12, 0.15, 9), ...randomBoards('games-key-open', 12, 0.75, 6)];
    const groups = new Map<string, NetworkPlayerSpec['search'][]>();
    for (const s of settings) {
      const key = gamesKey({ kind: 'network', network, search: s });
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
    const twins = [...groups.values()].filter((g) => new Set(g.map((s) => playerKey({ kind: 'network', network, search: s }))).size > 1);
    expect(twins.length).toBeGreaterThan(5); // the key does merge settings that differ
    for (const group of twins) {
      const first = behaviour(group[0], boards);
      for (const s of group.slice(1)) expect(behaviour(s, boards)).toEqual(first);
    }
  });

  it('keeps a cutoff that prunes: just above the bound, a board of one tile after the move searches fewer positions at depth 2', () => {
    const board = parseBoard('2 2 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0'); // left: one 4 and 15 empty cells
    const at = (cprob: number) => behaviour({ depth: 2, cprob }, [board]);
    expect(at(LEAST_SECOND_LAYER_PROBABILITY)).toEqual(at(0));
    expect(at(0.0067).nodes[0]).toBeLessThan(at(0).nodes[0]);
    expect(gamesKey({ kind: 'network', network, search: { depth: 2, cprob: 0.0067 } })).not.toBe(gamesKey({ kind: 'network', network, search: { depth: 2, cprob: 0 } }));
    // Depth 1 with a deeper side reaches depth 2: its cutoff is kept too.
    expect(searchAsPlayed({ depth: 1, cprob: 0.01, depthRule: { deeperAtEmpty: 3 } }).cprob).toBe(0.01);
    expect(searchAsPlayed({ depth: 1, cprob: 0.01, depthRule: { shallowerAtEmpty: 3 } })).toEqual({ depth: 1, cprob: 0, depthRule: { shallowerAtEmpty: 3 } });
    expect(searchAsPlayed({ depth: 0, cprob: 0.01, depthRule: { shallowerAtEmpty: 3 } })).toEqual({ depth: 0, cprob: 0 });
    // A time per move or "auto": as given.
    expect(searchAsPlayed({ depth: 2, cprob: 0.001, msPerMove: 1 })).toEqual({ depth: 2, cprob: 0.001, msPerMove: 1 });
  });

  it('stage weights all 1 are the network itself (one key with none); any other weight is kept, and plays otherwise', () => {
    const key = (stageWeights?: number[]) => gamesKey({ kind: 'network', network, search: { depth: 1, cprob: 0, ...(stageWeights ? { stageWeights } : {}) } });
    expect(key([1])).toBe(key());
    expect(key([1.5])).not.toBe(key());
    expect(searchAsPlayed({ depth: 2, cprob: 0.001, msPerMove: 1, stageWeights: [1, 1] })).toEqual({ depth: 2, cprob: 0.001, msPerMove: 1 });
    const boards = randomBoards('games-key-weights', 6, 0.5, 8);
    expect(behaviour({ depth: 1, cprob: 0, stageWeights: [1] }, boards)).toEqual(behaviour({ depth: 1, cprob: 0 }, boards));
    expect(behaviour({ depth: 1, cprob: 0, stageWeights: [1.5] }, boards).values).not.toEqual(behaviour({ depth: 1, cprob: 0 }, boards).values);
  });
});
