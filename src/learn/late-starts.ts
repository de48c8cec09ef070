/**
 * A learning run's late-start boards (the config's `starts`). Collecting them is minutes of games, seeded,
 * so the same boards every time: the first collection is stored with the run and every resume reads it
 * back instead of playing those games again.
 */
import { makeBoard, type Board } from '../engine/board';
import type { Store } from '../store/store';
import { InputError } from '../util/errors';
import type { LearnConfig } from './config';
import type { LearnOptions } from './learn-run';

/** The run's late-start boards ([] without `starts`); null when a stop came while collecting them (nothing stored). */
export async function runStartBoards(store: Store, runId: number, config: LearnConfig, options: Pick<LearnOptions, 'startBoards' | 'shouldStop'>): Promise<Board[] | null> {
  if (!config.starts) return [];
  const stored = store.learnStarts(runId);
  if (stored) return decodeBoards(stored, `learning run ${runId}'s stored start boards`);
  if (!options.startBoards) throw new Error('a learning config with starts needs the late boards (LearnOptions.startBoards)');
  const found = await options.startBoards(config.starts, config.seed, { shouldStop: options.shouldStop });
  if (found) store.saveLearnStarts(runId, encodeBoards(found));
  return found;
}

export function encodeBoards(boards: readonly Board[]): Uint8Array {
  const bytes = new Uint8Array(8 * boards.length);
  const view = new DataView(bytes.buffer);
  boards.forEach((b, k) => {
    view.setInt32(8 * k, b.lo, true);
    view.setInt32(8 * k + 4, b.hi, true);
  });
  return bytes;
}

export function decodeBoards(bytes: Uint8Array, origin: string): Board[] {
  if (bytes.length === 0 || bytes.length % 8 !== 0) throw new InputError(`${origin} are damaged (${bytes.length} bytes; 8 a board)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / 8 }, (_, k) => makeBoard(view.getInt32(8 * k, true), view.getInt32(8 * k + 4, true)));
}
