import { describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boardToGrid } from '../src/engine/board';
import { buildHeuristicTables } from '../src/heuristic/tables';
import { listPresets, loadWeights, parseWeights, Weights } from '../src/heuristic/weights';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { refHeuristic } from './helpers/reference';
import { randomBoards } from './helpers/boards';

const PRESETS = ['nneonneo', 'haskell', 'java-l', 'snake1', 'snake2', 'snake3', 'snake4'];

/** A weight set that turns on every feature of the family, with odd values. */
const everything: Weights = parseWeights({
  format: 'tune2048/weights',
  version: 1,
  alive: 1234.5,
  empty: 77,
  merges: -31,
  descents: 9,
  monotonicity: 3.25,
  monotonicityPower: 2.5,
  smoothness: 1.5,
  smoothnessOn: 'rank',
  sum: 0.75,
  sumPower: 1.7,
  matrixOn: 'rank',
  matrix: [
    [5, -4, 3, 2],
    [1, 0, -1, 7],
    [2, 2, 9, 0.5],
    [3, 1, 4, 1],
  ],
});

describe('heuristic tables', () => {
  it('ships every documented preset', () => {
    expect(listPresets()).toEqual(expect.arrayContaining(PRESETS));
  });

  it.each([...PRESETS.map((p) => [p, loadWeights(p)] as const), ['all features', everything] as const])(
    '%s: tables equal the direct per-board formula on 3000 random boards',
    (_name, weights) => {
      const searcher = createExpectimaxPlayer(buildHeuristicTables(weights), { cacheMB: 0 });
      for (const b of randomBoards(`heur-${_name}`, 3000)) {
        const want = refHeuristic(weights, boardToGrid(b));
        const got = searcher.heuristic(b);
        expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
      }
    },
  );

  it('nneonneo preset is the formula of DESIGN.md', () => {
    const w = loadWeights('nneonneo');
    expect(w).toMatchObject({ alive: 200000, empty: 270, merges: 700, monotonicity: 47, monotonicityPower: 4, sum: 11, sumPower: 3.5 });
    expect(w.matrix).toBeUndefined();
    // Row 0 by hand: ranks [1,1,0,3]: 1 empty; merges 2 (the two 2s, empties skipped);
    // decreases 1->0 give monoL = 1^4; increases 1->1 and 0->3 give monoR = 0 + 3^4.
    const row = [1, 1, 0, 3];
    const monoL = 1 ** 4 - 0;
    const monoR = 0 + 3 ** 4 - 0;
    const line = 200000 + 270 * 1 + 700 * 2 - 47 * Math.min(monoL, monoR) - 11 * (1 + 1 + 3 ** 3.5);
    const empty = 200000; // an all-empty row, three of them
    const board = { lo: row[0] | (row[1] << 4) | (row[2] << 8) | (row[3] << 12), hi: 0 };
    // Columns: each holds one tile of row 0 (or none) above three empties.
    const cols = 200000 * 4 + 270 * (3 + 3 + 4 + 3) - 11 * (1 + 1 + 3 ** 3.5);
    const searcher = createExpectimaxPlayer(buildHeuristicTables(w), { cacheMB: 0 });
    expect(searcher.heuristic(board)).toBeCloseTo(line + 3 * (empty + 4 * 270) + cols, 6);
  });
});

describe('weights files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tune2048-w-'));
  const write = (name: string, body: string) => {
    const p = join(dir, name);
    writeFileSync(p, body);
    return p;
  };

  it.each([
    ['not JSON', '{ nope', /is not valid JSON/],
    ['a wrong type', '{"format":"tune2048/weights","version":1,"empty":"many"}', /field "empty"/],
    ['an unknown key', '{"format":"tune2048/weights","version":1,"emptiness":3}', /unknown key "emptiness"/],
    ['a newer version', '{"format":"tune2048/weights","version":99}', /field "version"/],
    ['a foreign file', '{"hello":"world"}', /field "format"/],
    ['a bad matrix', '{"format":"tune2048/weights","version":1,"matrix":[[1,2,3]]}', /field "matrix/],
    ['an out-of-range power', '{"format":"tune2048/weights","version":1,"sumPower":99}', /field "sumPower"/],
  ])('rejects %s with a one-line error naming the problem', (_what, body, message) => {
    const path = write(`${_what.replace(/\W/g, '_')}.json`, body);
    expect(() => loadWeights(path)).toThrow(message);
    try {
      loadWeights(path);
    } catch (e) {
      expect((e as Error).message).not.toContain('\n');
      expect((e as Error).message).toContain(path);
    }
  });

  it('rejects an unknown preset, listing the known ones', () => {
    expect(() => loadWeights('no-such-preset')).toThrow(/unknown weights preset or file "no-such-preset" \(presets: .*nneonneo/);
  });
});
