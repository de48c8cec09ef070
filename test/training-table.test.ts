/** The curve table of issue 60 (src/learn/ntuple/training-table.ts): rows at every N games, pooled checkpoints beside them. */
import { describe, expect, it } from 'vitest';
import { curvePoints, pooled, trainingTable } from '../src/learn/ntuple/training-table';

// rates: 2048, 4096, 8192, 16384, 32768 (RATE_TILES)
const held = (mean: number, games: number, r16k: number, r32k: number) => ({ games, mean, rates: [1, 1, 1, r16k, r32k], maxTile: 32768 });
const rows = [
  { games: 10, stats: { cpuSeconds: 60, heldOut: held(100, 10, 0.1, 0) } },
  { games: 20, stats: { cpuSeconds: 150, heldOut: held(200, 30, 0.5, 0.1) } },
  { games: 30, stats: { cpuSeconds: 240, heldOut: null } }, // a stop: no held-out games
  { games: 40, stats: { cpuSeconds: 330, heldOut: held(400, 20, 0.2, 0) } },
  { games: 45, stats: { heldOut: held(500, 20, 0, 0) } },
];

describe('the training table', () => {
  it('pools held-out games weighted by their number, skipping checkpoints without any', () => {
    // (100·10 + 200·30) / 40 = 175; 16384: (0.1·10 + 0.5·30) / 40 = 0.4; 32768: 3 / 40
    const p = pooled(curvePoints(rows.slice(0, 3)))!;
    expect(p.games).toBe(40);
    expect(p.mean).toBeCloseTo(175, 10);
    expect(p.rates[3]).toBeCloseTo(0.4, 10);
    expect(p.rates[4]).toBeCloseTo(0.075, 10);
    expect(pooled(curvePoints([rows[2]]))).toBeNull();
  });

  it('prints a row at every N games and the last, each with the checkpoints since the row before pooled, then the published rows', () => {
    const lines = trainingTable(curvePoints(rows), 20);
    expect(lines.slice(2, 5)).toEqual([
      '| 20 | 2.5 | 200 (30) | 50.0 % | 10.0 % | 175 (40) | 40.0 % | 7.5 % |',
      '| 40 | 5.5 | 400 (20) | 20.0 % | 0.0 % | 400 (20) | 20.0 % | 0.0 % |',
      '| 45 | – | 500 (20) | 0.0 % | 0.0 % | 500 (20) | 0.0 % | 0.0 % |',
    ]);
    expect(lines.slice(5).map((l) => l.split(' | ')[0])).toEqual(['| published: 400,000 (ziap/2048-tdl README history)', '| published: 1,000,000 (ziap/2048-tdl README)']);
    expect(lines).toHaveLength(7);
  });
});
