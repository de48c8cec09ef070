/**
 * Seeded games of an external player. tune2048 runs the game (engine, seeded spawns, score) and asks the
 * program only for moves, so its game on seed S is comparable with every built-in player's. The program
 * stays alive across games and batches: one per worker process (a worker slot), restarted only after a
 * fault or when another program is asked for.
 */
import type { Board } from '../../engine/board';
import type { Decision, PlayedGame } from '../../engine/game';
import { SeededGame } from '../../engine/game';
import { applyMove, DIRECTION_NAMES, isGameOver, moveLetters, type Direction } from '../../engine/moves';
import type { ExternalPlayerRef, Launch } from '../spec';
import { ExternalProcess } from './process';
import { announcementHash, boardHex, type Announcement } from './protocol';
import { programHash } from './program-hash';

/** One game with its moves (the determinism check compares them; runs keep them for the viewer). */
export interface ExternalGame extends Omit<PlayedGame, 'moveList'> {
  directions: Direction[];
}

let current: { key: string; process: ExternalProcess } | null = null;

/** The live program of this process for `ref` (started, and its announcement checked, when needed). */
export async function externalProcessFor(ref: ExternalPlayerRef, launch: Launch): Promise<ExternalProcess> {
  // The program's identity too: a live program is reused only by the run or comparison it was checked for.
  const key = JSON.stringify([launch, ref.announced, ref.program ?? null]);
  if (current && current.key === key && !current.process.failed) return current.process;
  current?.process.close();
  current = null;
  const process = await ExternalProcess.start(ref.name, launch);
  checkAnnouncement(process, ref);
  // The files its command names must be those the run or comparison began with: a changed program keeps its version line.
  if (ref.program !== undefined) {
    const now = programHash(launch);
    if (now !== ref.program) throw process.fail(`is another program than the one it was set up with: the files its command names (${launch.command.join(' ')} in ${launch.cwd}) hash ${now}, not ${ref.program} (its version line, ${process.announcement.version}, unchanged)`);
  }
  current = { key, process };
  return process;
}

/** Lets this process's live program go (a command that played in-process ends with it). */
export function closeExternalProcess(): void {
  current?.process.close();
  current = null;
}

/** The move and values of a program on one board, as a fresh game's first board (hint). */
export async function externalDecision(process: ExternalProcess, params: Record<string, number>, board: Board): Promise<Decision> {
  if (isGameOver(board)) return { move: -1, values: [NaN, NaN, NaN, NaN] };
  await process.newGame(params, 0);
  const answer = await process.move(board, 1);
  if (!applyMove(board, answer.move).legal) throw process.fail(`answered the illegal move ${DIRECTION_NAMES[answer.move]} on board 1 (${boardHex(board)})`);
  return { move: answer.move, values: answer.values ?? [NaN, NaN, NaN, NaN] };
}

/** The program must be the one the run or comparison was set up with: same name, version and parameters. */
export function checkAnnouncement(process: ExternalProcess, ref: Pick<ExternalPlayerRef, 'name' | 'version' | 'announced'>): void {
  const a = process.announcement;
  checkName(process, ref.name);
  if (announcementHash(a) !== ref.announced) {
    throw process.fail(`now announces version ${a.version} with parameters ${a.params.map((p) => p.name).join(', ') || '(none)'} (hash ${announcementHash(a)}), not the version ${ref.version} it was set up with (hash ${ref.announced})`);
  }
}

/** Plays one seeded game on a live program. */
export async function playExternalGame(process: ExternalProcess, params: Record<string, number>, seed: number, options: { maxMoves?: number } = {}): Promise<ExternalGame> {
  const started = performance.now();
  const game = new SeededGame(seed);
  const directions: Direction[] = [];
  await process.newGame(params, seed);
  const maxMoves = options.maxMoves ?? Infinity;
  // A player that announced its cost says it with every move: the game's cost is their sum.
  const counts = process.announcement.cost === 'nodes';
  let nodes = 0;
  while (!isGameOver(game.board) && game.moves < maxMoves) {
    const ply = game.moves + 1;
    const answer = await process.move(game.board, ply);
    const { move } = answer;
    if (!applyMove(game.board, move).legal) throw process.fail(`answered the illegal move ${DIRECTION_NAMES[move]} on board ${ply} (${boardHex(game.board)})`);
    if (counts) {
      if (answer.nodes === undefined) throw process.fail(`announced "cost nodes" but answered board ${ply} without "nodes K"`);
      nodes += answer.nodes;
    }
    game.play(move);
    directions.push(move);
  }
  return { seed, score: game.score, maxTile: game.maxTile(), moves: game.moves, ms: performance.now() - started, directions, ...(counts ? { nodes } : {}) };
}

/** The games of `seeds` with the player `ref` names (started from `launch`), in seed order. */
export async function playExternalGames(ref: ExternalPlayerRef, launch: Launch, seeds: readonly number[], beforeGame?: () => void): Promise<PlayedGame[]> {
  const process = await externalProcessFor(ref, launch);
  const games: PlayedGame[] = [];
  for (const seed of seeds) {
    beforeGame?.();
    const { directions, ...g } = await playExternalGame(process, ref.params, seed);
    games.push({ ...g, moveList: moveLetters(directions) });
  }
  return games;
}

/** A program must announce the name it is defined or registered under. */
function checkName(process: ExternalProcess, name: string): void {
  if (process.announcement.name !== name) throw process.fail(`announces itself as "${process.announcement.name}" (expected "${name}")`);
}

/** Starts the program defined as `name`, reads what it announces (its name must be `name`) and lets it go. */
export async function readAnnouncement(name: string, launch: Launch): Promise<Announcement> {
  const started = await ExternalProcess.start(name, launch);
  checkName(started, name);
  started.close();
  warnRoundedDefaults(name, started.roundedDefaults);
  return started.announcement;
}

const warned = new Set<string>();
/** Once a command: defaults that read back as other numbers than the program's own (docs/protocol.md, "Defaults"). */
function warnRoundedDefaults(name: string, rounded: readonly string[]): void {
  if (rounded.length === 0 || warned.has(name)) return;
  warned.add(name);
  const list = rounded.map((r) => `${r.split(' ')[0]} "${r.split(' ')[1]}"`).join(', ');
  process.stderr.write(`tune2048: player "${name}" announces ${rounded.length === 1 ? 'a default' : 'defaults'} with the six digits printf's %g or %f keeps (${list}): tune2048 plays "its defaults" at these numbers, so if its own have more digits its games here differ from its games alone; announce them with %.17g (C) or repr() (Python): docs/protocol.md, "Defaults"\n`);
}

/**
 * Plays `seed` twice on one program (a new game each time) and says whether the moves differ: a player
 * that keeps state across games, or draws from an unseeded generator, makes paired comparisons unfair.
 */
export async function replayDiffers(ref: ExternalPlayerRef, launch: Launch, seed: number, maxMoves = 400): Promise<string | null> {
  const process = await ExternalProcess.start(ref.name, launch);
  try {
    checkAnnouncement(process, ref);
    const first = await playExternalGame(process, ref.params, seed, { maxMoves });
    const second = await playExternalGame(process, ref.params, seed, { maxMoves });
    const at = first.directions.findIndex((m, i) => m !== second.directions[i]);
    if (at < 0 && first.directions.length === second.directions.length) return null;
    const ply = at < 0 ? Math.min(first.directions.length, second.directions.length) + 1 : at + 1;
    return `played seed ${seed} twice and chose differently at move ${ply}`;
  } finally {
    process.close();
  }
}
