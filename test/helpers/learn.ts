/** Learning runs of a small n-tuple network for the CLI tests: a config file, what a run stored. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli';
import { peek } from './runs';

/** Four 4-cell tuples (1 MB of tables): a network that learns in seconds. */
export const SMALL_TUPLES = [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [4, 5, 8, 9]];

/** A learning config of the small network written as learn.json in `where` (4,000 games, a checkpoint every 1,000), with `extra` over it. */
export function smallLearnConfig(where: string, extra: Record<string, unknown> = {}): string {
  const path = join(where, 'learn.json');
  writeFileSync(
    path,
    JSON.stringify({
      format: 'tune2048/learn',
      name: 'small tuples',
      seed: 3,
      games: 4000,
      learningRate: 0.1,
      checkpointEvery: 1000,
      network: { tuples: SMALL_TUPLES },
      threads: 1,
      heldOut: { games: 50, seed: 424242 },
      ...extra,
    }),
  );
  return path;
}

/** Learning run 1's network as `learn export` writes it (into `where`). */
export function exportedNetwork(db: string, where: string): Buffer {
  const out = join(where, `net-${Math.random().toString(36).slice(2)}.bin`);
  const r = runCli(['learn', 'export', '1', '--db', db, '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(out);
}

/** Learning run 1's checkpoints stored so far (0 before the database has its schema). */
export const checkpoints = (db: string) => peek<{ n: number }>(db, 'SELECT count(*) AS n FROM learn_checkpoints WHERE run_id = 1')?.n ?? 0;

/** The files of the database's networks folder. */
export const networkFiles = (db: string) => (existsSync(`${db}.networks`) ? readdirSync(`${db}.networks`) : []);
