/** Messages between the viewer page and its search worker (`table`: the bytes of the weights' learned line tables, if they have any). */
import type { PlayerKind } from '../../player/spec';

export type WorkerRequest =
  | { type: 'start'; weights: unknown; table: ArrayBuffer | null; player: PlayerKind; depth: number | 'auto'; cprob: number; seed: number }
  | { type: 'step' }
  /** A stored game: its seed and moves (u d l r), replayed in the worker's engine (an external player's, which the page cannot run). */
  | { type: 'replay'; seed: number; moves: string }
  /** A seed's first board (its two spawns), drawn before play so the page shows what is about to play. */
  | { type: 'preview'; seed: number }
  | { type: 'hint'; weights: unknown; table: ArrayBuffer | null; player: PlayerKind; depth: number | 'auto'; cprob: number; ranks: number[] };

export type WorkerReply =
  /** The board after a move (move and the values of the four moves the player saw; null before the first). */
  | { type: 'state'; ranks: number[]; score: number; moves: number; move: number | null; values: (number | null)[] | null; over: boolean }
  | { type: 'hint'; move: number | null; values: (number | null)[] }
  | { type: 'error'; message: string };
