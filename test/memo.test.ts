/**
 * compare --db's memo key: a game is known by its player and by the build its games depend on. A rebuild of
 * the search module forgets tune2048's heuristic players' games, not an external program's or a network's;
 * a rebuild of the learning module forgets a network's only.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWeights } from '../src/heuristic/weights';
import { expectimaxSpec, type PlayerSpec } from '../src/player/spec';
import { WASM_PATH } from '../src/wasm/module';
import { LEARN_WASM_PATH } from '../src/learn/ntuple/machine';

const dir = mkdtempSync(join(tmpdir(), 'tune2048-memo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const specs: Record<string, PlayerSpec> = {
  heuristic: expectimaxSpec(loadWeights('nneonneo'), { depth: 1, cprob: 1e-4 }),
  external: { kind: 'external', external: { name: 'p', version: '1', announced: 'a'.repeat(16), params: { x: 1 } } },
  network: { kind: 'network', network: { file: 'net.bin', sha256: 'b'.repeat(64) }, search: { depth: 1, cprob: 1e-4 } },
};

/** Every spec's memo key with the modules at these paths (a fresh copy of memo.ts reads them). */
async function keysWith(search: string, learn: string): Promise<Record<string, string>> {
  vi.resetModules();
  vi.doMock('../src/wasm/module', async (original) => ({ ...(await original<object>()), WASM_PATH: search }));
  vi.doMock('../src/learn/ntuple/machine', async (original) => ({ ...(await original<object>()), LEARN_WASM_PATH: learn }));
  const { memoKey } = await import('../src/compare/memo');
  vi.doUnmock('../src/wasm/module');
  vi.doUnmock('../src/learn/ntuple/machine');
  return Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, memoKey(s)]));
}

describe('the memo key', () => {
  it('changes with the build a player depends on, and only with it', async () => {
    const otherSearch = join(dir, 'search.wasm');
    const otherLearn = join(dir, 'learn.wasm');
    copyFileSync(WASM_PATH, otherSearch);
    copyFileSync(LEARN_WASM_PATH, otherLearn);
    const same = await keysWith(otherSearch, otherLearn);
    expect(await keysWith(WASM_PATH, LEARN_WASM_PATH)).toEqual(same); // the same bytes, the same keys
    writeFileSync(otherSearch, Buffer.concat([Buffer.from(same.heuristic), Buffer.from('rebuilt')]));
    const searchRebuilt = await keysWith(otherSearch, otherLearn);
    expect(searchRebuilt.heuristic).not.toBe(same.heuristic);
    expect(searchRebuilt.external).toBe(same.external);
    expect(searchRebuilt.network).toBe(same.network);
    writeFileSync(otherLearn, 'rebuilt');
    const learnRebuilt = await keysWith(otherSearch, otherLearn);
    expect(learnRebuilt.network).not.toBe(same.network);
    expect(learnRebuilt.external).toBe(same.external);
  });
});
