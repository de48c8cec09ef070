/** External players for the CLI tests: the protocol fixture, the Python example, a tuning config around a player. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive, ROOT } from './cli';

/** The protocol player that misbehaves on demand (test/fixtures/players/fixture-player.js: its header lists the modes). */
export const FIXTURE = join(__dirname, '..', 'fixtures', 'players', 'fixture-player.js');

export const pyPlayer = { kind: 'external', name: 'greedy-py', cwd: join(ROOT, 'examples', 'players', 'python'), command: ['python3', 'greedy.py'] };

/** The fixture as a run config's player, in `mode`. */
export const fixture = (mode = 'good', extra: Record<string, unknown> = {}) => ({ kind: 'external', name: 'fixture', command: [process.execPath, FIXTURE, mode], ...extra });

/** A small GA run config tuning `player` from its defaults. */
export const tuning = (player: unknown, overrides: Record<string, unknown> = {}) => ({
  seed: 5,
  space: { start: 'defaults' },
  optimizer: { population: 6, generations: 6, elitism: 1, tournament: 2 },
  fitness: { games: 8, player },
  validation: { finalists: 2, games: 8 },
  pool: { batchGames: 2 },
  ...overrides,
});

/** Processes whose command line holds `marker` (a program the test started through tune2048). */
export function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && alive(Number(pid));
      } catch {
        return false;
      }
    })
    .map(Number);
}
