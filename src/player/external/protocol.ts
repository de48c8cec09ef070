/**
 * The external players' line protocol, version 1 (docs/protocol.md): what the lines mean, with no process
 * in sight, so every rule is testable alone. Plain text, one command per line, as UCI: a player in any
 * language reads it with split() and writes it with printf, no JSON library needed.
 */
import { createHash } from 'node:crypto';
import type { Board } from '../../engine/board';
import { boardToRanks } from '../../engine/board';
import { DIRECTION_NAMES, type Direction } from '../../engine/moves';
import { canonicalJson } from '../../util/canonical-json';

export const PROTOCOL_VERSION = 1;

/** One tunable parameter as the player announces it. */
export interface AnnouncedParam {
  name: string;
  default: number;
  min: number;
  max: number;
  scale: 'linear' | 'log';
}

/** What a player says of itself before it plays: `name`, `version`, `param` lines, then `ready`. */
export interface Announcement {
  name: string;
  version: string;
  params: AnnouncedParam[];
  /**
   * `cost nodes`: every move answer ends with `nodes K`, the positions its search expanded for that move (a
   * deterministic count, so a two-objective run can rank by it). Absent for a player that does not say.
   */
  cost?: 'nodes';
}

/** A name a parameter or a player may have: one word, safe in a line, a file name and a config key. */
export const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const VERSION = /^[A-Za-z0-9_.+-]{1,64}$/;

/** Builds an announcement line by line; each problem is one sentence about the line the player printed. */
export class AnnouncementReader {
  /** Parameters whose default was announced as printf's six digits print it (looksRounded): "name default-text". */
  readonly roundedDefaults: string[] = [];
  private name: string | null = null;
  private version: string | null = null;
  private readonly params: AnnouncedParam[] = [];
  private cost: 'nodes' | null = null;

  /** Reads one line; returns the announcement at `ready`, null before it. Throws a message on a bad line. */
  read(line: string): Announcement | null {
    const words = line.trim().split(/\s+/);
    switch (words[0]) {
      case 'name':
        if (words.length !== 2 || !NAME.test(words[1])) throw new Error(`announced a bad name "${line}" (one word: letters, digits, _ . -)`);
        this.name = words[1];
        return null;
      case 'version':
        if (words.length !== 2 || !VERSION.test(words[1])) throw new Error(`announced a bad version "${line}" (one word)`);
        this.version = words[1];
        return null;
      case 'param':
        this.params.push(parseParamLine(line, words, this.params));
        if (looksRounded(words[2])) this.roundedDefaults.push(`${words[1]} ${words[2]}`);
        return null;
      case 'cost':
        if (words.length !== 2 || words[1] !== 'nodes') throw new Error(`announced a bad cost "${clip(line)}" (cost nodes)`);
        this.cost = 'nodes';
        return null;
      case 'ready':
        if (this.name === null) throw new Error('said "ready" without a "name" line');
        if (this.version === null) throw new Error('said "ready" without a "version" line');
        // Without a cost line the announcement (and its hash) is what it always was.
        return { name: this.name, version: this.version, params: this.params, ...(this.cost ? { cost: this.cost } : {}) };
      case '':
        return null;
      default:
        throw new Error(`printed "${clip(line)}" while announcing itself (expected name, version, param, cost or ready)`);
    }
  }
}

/**
 * A default written as C's printf writes a double by default, six digits (%g: six significant, %f: six after the
 * point, the last not 0): likely rounded from the program's own value. tune2048 sends the announced text back
 * as the value, so such a program plays "its defaults" differently under tune2048 than on its own.
 */
export function looksRounded(text: string): boolean {
  const m = /^[-+]?(\d*)(?:\.(\d*))?(?:[eE][-+]?\d+)?$/.exec(text);
  if (!m) return false;
  const [, whole, fraction = ''] = m;
  const significant = (whole + fraction).replace(/^0+/, '');
  const hasFraction = fraction !== '' || /[eE]/.test(text);
  return (fraction.length === 6 && !fraction.endsWith('0')) || (hasFraction && significant.replace(/0+$/, '').length === 6);
}

function parseParamLine(line: string, words: string[], known: readonly AnnouncedParam[]): AnnouncedParam {
  // param NAME DEFAULT MIN MAX [linear|log]
  if (words.length < 5 || words.length > 6) throw new Error(`announced a bad parameter "${clip(line)}" (param NAME DEFAULT MIN MAX [linear|log])`);
  const [, name, d, lo, hi, scale = 'linear'] = words;
  if (!NAME.test(name)) throw new Error(`announced a parameter with a bad name "${clip(name)}"`);
  if (known.some((p) => p.name === name)) throw new Error(`announced the parameter "${name}" twice`);
  const [def, min, max] = [d, lo, hi].map(Number);
  if (![d, lo, hi].every((x) => /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(x)) || ![def, min, max].every(Number.isFinite)) {
    throw new Error(`announced the parameter "${name}" with a value that is not a number: "${clip(line)}"`);
  }
  if (scale !== 'linear' && scale !== 'log') throw new Error(`announced the parameter "${name}" with scale "${scale}" (linear or log)`);
  if (!(max > min)) throw new Error(`announced the parameter "${name}" with max ${max} not above min ${min}`);
  if (def < min || def > max) throw new Error(`announced the parameter "${name}" with default ${def} outside [${min}, ${max}]`);
  if (scale === 'log' && min <= 0) throw new Error(`announced the parameter "${name}" on a log scale with min ${min} (must be > 0)`);
  return { name, default: def, min, max, scale };
}

/** The hash that names an announcement (name, version, parameters): a job names its player by it. */
export function announcementHash(a: Announcement): string {
  return createHash('sha256').update(canonicalJson(a)).digest('hex').slice(0, 16);
}

/** Every announced parameter at its default. */
export function defaultParams(a: Announcement): Record<string, number> {
  return Object.fromEntries(a.params.map((p) => [p.name, p.default]));
}

/**
 * A board as the protocol sends it: `board N HEX`, N the move's number in the game (from 1; the answer
 * repeats it, so an answer to another board is caught), HEX 16 hex digits, the cells' ranks (0 = empty,
 * 1 = 2, … f = 32768) row by row from the top left.
 */
export function boardLine(board: Board, ply: number): string {
  return `board ${ply} ${boardHex(board)}`;
}

export function boardHex(board: Board): string {
  return boardToRanks(board).map((r) => r.toString(16)).join('');
}

/** A player's answer to a board: its move, and what it saw for up, down, left, right if it said. */
export interface MoveAnswer {
  move: Direction;
  values?: number[];
  /** The positions its search expanded for this move (`nodes K` at the end of the line). */
  nodes?: number;
}

/**
 * Parses `move N DIR [U D L R] [nodes K]` (a value may be "-" for a move it did not consider; K a whole number
 * of positions searched). Throws a message otherwise.
 */
export function parseMoveLine(line: string, ply: number): MoveAnswer {
  let words = line.trim().split(/\s+/);
  let nodes: number | undefined;
  if (words.length >= 2 && words[words.length - 2] === 'nodes') {
    const k = words[words.length - 1];
    if (!/^\d{1,15}$/.test(k)) throw new Error(`printed "${clip(line)}": nodes must be a whole number ≥ 0`);
    nodes = Number(k);
    words = words.slice(0, -2);
  }
  const withNodes = (a: MoveAnswer): MoveAnswer => (nodes === undefined ? a : { ...a, nodes });
  if (words[0] !== 'move' || (words.length !== 3 && words.length !== 7)) throw new Error(`printed "${clip(line)}" where a move was expected (move N up|down|left|right [4 values] [nodes K])`);
  if (words[1] !== String(ply)) throw new Error(`answered board ${clip(words[1])} when asked for board ${ply} ("${clip(line)}")`);
  const move = DIRECTION_NAMES.indexOf(words[2] as (typeof DIRECTION_NAMES)[number]);
  if (move < 0) throw new Error(`answered the unknown move "${clip(words[2])}" (up, down, left or right)`);
  if (words.length === 3) return withNodes({ move: move as Direction });
  const values = words.slice(3).map((w) => (w === '-' ? NaN : Number(w)));
  if (words.slice(3).some((w, i) => w !== '-' && !Number.isFinite(values[i]))) throw new Error(`printed "${clip(line)}": its values must be numbers or "-"`);
  return withNodes({ move: move as Direction, values });
}

/** A line as quoted in a message: at most 60 characters, so garbage cannot flood a one-line error. */
export function clip(line: string, most = 60): string {
  const s = line.replace(/[\x00-\x1f\x7f]/g, '?');
  return s.length > most ? `${s.slice(0, most - 3)}...` : s;
}
