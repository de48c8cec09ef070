/**
 * External players (src/player/external, docs/protocol.md): the protocol's lines, every fault a program
 * can commit (each one line naming the player and what it did, the program killed), and games that are
 * the engine's own: the same seeded game as a built-in player making the same moves.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { boardFromRanks, boardToRanks } from '../src/engine/board';
import { playGame, SeededGame } from '../src/engine/game';
import { applyMove, DIRECTIONS } from '../src/engine/moves';
import { ExternalProcess } from '../src/player/external/process';
import type { Launch } from '../src/player/spec';
import { playExternalGame, replayDiffers } from '../src/player/external/play';
import { AnnouncementReader, announcementHash, boardHex, boardLine, parseMoveLine } from '../src/player/external/protocol';
import { PlayerError } from '../src/util/errors';
import { programHash } from '../src/player/external/program-hash';
import { alive } from './helpers/cli';

const FIXTURE = join(__dirname, 'fixtures', 'players', 'fixture-player.js');
const launch = (mode: string, n = 5, timeoutSec = 60): Launch => ({ command: [process.execPath, FIXTURE, mode, String(n)], cwd: __dirname, timeoutSec });

function announce(lines: string[]) {
  const reader = new AnnouncementReader();
  let result = null;
  for (const line of lines) result = reader.read(line);
  return result;
}

describe('the protocol, line by line', () => {
  it('reads an announcement: name, version, parameters with defaults, bounds and scales', () => {
    const a = announce(['name p', 'version 2.1', 'param w 1.5 0 10', 'param v 1e-3 1e-6 1 log', '', 'ready']);
    expect(a).toEqual({ name: 'p', version: '2.1', params: [{ name: 'w', default: 1.5, min: 0, max: 10, scale: 'linear' }, { name: 'v', default: 0.001, min: 1e-6, max: 1, scale: 'log' }] });
    expect(announcementHash(a!)).toMatch(/^[0-9a-f]{16}$/);
    expect(announcementHash(a!)).not.toBe(announcementHash({ ...a!, version: '2.2' }));
  });

  it('reads "cost nodes" into the announcement (which names the program apart); without it the announcement is as before', () => {
    const plain = announce(['name p', 'version 1', 'ready'])!;
    expect(plain).toEqual({ name: 'p', version: '1', params: [] });
    const counting = announce(['name p', 'version 1', 'cost nodes', 'ready'])!;
    expect(counting).toEqual({ name: 'p', version: '1', params: [], cost: 'nodes' });
    expect(announcementHash(counting)).not.toBe(announcementHash(plain));
  });

  it.each([
    [['name p', 'version 1', 'param w 1 0 2', 'param w 1 0 2'], /the parameter "w" twice/],
    [['name p', 'version 1', 'param 9w 1 0 2'], /bad name "9w"/],
    [['name p', 'version 1', 'param w x 0 2'], /not a number/],
    [['name p', 'version 1', 'param w 3 0 2'], /default 3 outside \[0, 2\]/],
    [['name p', 'version 1', 'param w 1 2 0'], /max 0 not above min 2/],
    [['name p', 'version 1', 'param w 1 0 2 log'], /log scale with min 0/],
    [['name p', 'version 1', 'param w 1 0 2 cubic'], /scale "cubic"/],
    [['name p', 'version 1', 'param w 1 0'], /param NAME DEFAULT MIN MAX/],
    [['name p', 'hello there'], /printed "hello there" while announcing itself/],
    [['version 1', 'ready'], /without a "name" line/],
    [['name two words'], /bad name/],
    [['name p', 'version 1', 'cost ms'], /bad cost "cost ms" \(cost nodes\)/],
  ])('refuses a malformed announcement %j', (lines, message) => {
    expect(() => announce(lines)).toThrow(message);
  });

  it('sends a board as 16 hex ranks row by row and reads moves with their board number and values', () => {
    const rng = seedrandom('hex');
    for (let k = 0; k < 200; k++) {
      const ranks = Array.from({ length: 16 }, () => (rng() < 0.3 ? 0 : Math.floor(rng() * 16)));
      const hex = boardHex(boardFromRanks(ranks));
      expect(hex).toHaveLength(16);
      expect([...hex].map((c) => parseInt(c, 16))).toEqual(ranks);
      expect(boardToRanks(boardFromRanks(ranks))).toEqual(ranks);
    }
    expect(boardLine(boardFromRanks([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15]), 7)).toBe('board 7 100000000000000f');
    expect(parseMoveLine('move 3 left', 3)).toEqual({ move: 2 });
    expect(parseMoveLine('move 3 down 1.5 - 2e3 -4', 3)).toEqual({ move: 1, values: [1.5, NaN, 2000, -4] });
    expect(() => parseMoveLine('move 4 left', 3)).toThrow(/answered board 4 when asked for board 3/);
    expect(() => parseMoveLine('move 3 sideways', 3)).toThrow(/unknown move "sideways"/);
    expect(() => parseMoveLine('move 3 up 1 2 x 4', 3)).toThrow(/must be numbers or "-"/);
    expect(() => parseMoveLine('I think up', 3)).toThrow(/where a move was expected/);
    // The cost, last on the line, after the values or without them.
    expect(parseMoveLine('move 3 left nodes 431', 3)).toEqual({ move: 2, nodes: 431 });
    expect(parseMoveLine('move 3 down 1.5 - 2e3 -4 nodes 0', 3)).toEqual({ move: 1, values: [1.5, NaN, 2000, -4], nodes: 0 });
    expect(() => parseMoveLine('move 3 left nodes 4.5', 3)).toThrow(/nodes must be a whole number/);
    expect(() => parseMoveLine('move 3 left nodes -1', 3)).toThrow(/nodes must be a whole number/);
    expect(() => parseMoveLine('move 3 left nodes', 3)).toThrow(/where a move was expected/);
  });
});

/** Starts the fixture, plays a game on seed 1, and returns the error (the program must be gone after it). */
async function fault(l: Launch): Promise<string> {
  let program: ExternalProcess | null = null;
  try {
    program = await ExternalProcess.start('fixture', l);
    await playExternalGame(program, { bias: 0 }, 1);
  } catch (e) {
    expect(e).toBeInstanceOf(PlayerError);
    if (program?.pid) {
      const pid = program.pid;
      await expect.poll(() => alive(pid), { timeout: 60_000 }).toBe(false);
    }
    return (e as Error).message;
  }
  program.close();
  throw new Error('no fault');
}

describe('a program that misbehaves is named with what it did, and stopped', () => {
  it.each([
    ['exits at start', launch('exit-at-start'), /^player fixture exited with code 3; its last words on stderr: cannot load the model file$/],
    ['crashes mid-game, named with the seed and the board', launch('crash', 5), /^player fixture exited on SIGSEGV in the game of seed 1 at board 5$/],
    ['raises an error: its own words whole, the traceback\'s last lines', launch('raise', 5), /^player fixture exited with code 1 in the game of seed 1 at board 5; its last words on stderr: File "myai\.py", line 42, in evaluate \| corner = board\[r\]\[c\] \*\* 2 \| RuntimeError: index out of range in my evaluation \(simulated\), with a long message that a 60-character clip would have cut short$/],
    ['runs in a folder that is not there', { ...launch('good'), cwd: '/no/such/folder' }, /^player fixture could not start: its folder \/no\/such\/folder does not exist \(the player's "cwd"\)$/],
    ['hangs', launch('hang', 5, 5), /^player fixture took over 5 s to answer a board$/],
    ['prints garbage', launch('garbage', 5), /^player fixture printed "what is a board\?" where a move was expected/],
    ['plays an illegal move', launch('illegal'), /^player fixture answered the illegal move up on board \d+ \([0-9a-f]{16}\)$/],
    ['answers for another board', launch('wrong-ply', 5), /^player fixture answered board 6 when asked for board 5/],
    ['says it failed', launch('error', 5), /^player fixture said: out of memory$/],
    ['announces a parameter twice', launch('dup-param'), /^player fixture announced the parameter "bias" twice$/],
    ['announces a malformed parameter', launch('bad-param'), /^player fixture announced the parameter "depth" with default 7 outside \[1, 4\]$/],
    ['announces its cost, then answers without it', launch('cost-missing', 5), /^player fixture announced "cost nodes" but answered board 5 without "nodes K"$/],
  ])('%s', async (_what, l, message) => {
    expect(await fault(l)).toMatch(message);
  });

  it('a program that announces its cost: a game\'s cost is the sum of its answers\' counts (10 × the legal moves of each board here)', async () => {
    const program = await ExternalProcess.start('fixture', launch('cost'));
    try {
      const game = await playExternalGame(program, { bias: 0 }, 7);
      // The same game, replayed here: the fixture plays the first legal move of up, down, left, right.
      const reference = playGame({ chooseMove: (b) => DIRECTIONS.find((d) => applyMove(b, d).legal) ?? -1 }, 7);
      let legalMoves = 0;
      const replay = new SeededGame(7);
      for (const d of game.directions) {
        legalMoves += DIRECTIONS.filter((x) => applyMove(replay.board, x).legal).length;
        replay.play(d);
      }
      expect([game.score, game.moves]).toEqual([reference.score, reference.moves]);
      expect(game.nodes).toBe(10 * legalMoves);
    } finally {
      program.close();
    }
  });

  it('is not found, or not executable', async () => {
    expect(await fault({ command: ['/nonexistent/player'], cwd: __dirname, timeoutSec: 60 })).toMatch(/^player fixture was not found \(\/nonexistent\/player\)$/);
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-player-'));
    const file = join(dir, 'player');
    writeFileSync(file, '#!/bin/sh\necho hi\n');
    chmodSync(file, 0o644);
    expect(await fault({ command: [file], cwd: dir, timeoutSec: 60 })).toMatch(/^player fixture is not executable/);
  });

  it('a program that plays a seed twice differently is caught by one replay', async () => {
    const ref = { name: 'fixture', version: '1', announced: announcementHash({ name: 'fixture', version: '1', params: [{ name: 'bias', default: 0, min: -1, max: 1, scale: 'linear' }] }), params: { bias: 0 } };
    expect(await replayDiffers(ref, launch('good'), 5)).toBeNull();
    expect(await replayDiffers(ref, launch('random'), 5)).toMatch(/^played seed 5 twice and chose differently at move \d+$/);
  });
});

describe('the game is tune2048\'s own', () => {
  it('an external player that makes the same moves as a built-in one plays the same seeded games', async () => {
    // The fixture plays the first legal move of up, down, left, right: so does this in-process player.
    const firstLegal = { chooseMove: (b: Parameters<typeof applyMove>[0]) => DIRECTIONS.find((d) => applyMove(b, d).legal) ?? -1 };
    const program = await ExternalProcess.start('fixture', launch('good'));
    try {
      for (const seed of [1, 2, 3, 77, 123456]) {
        const external = await playExternalGame(program, { bias: 0 }, seed);
        const builtIn = playGame(firstLegal, seed);
        expect({ score: external.score, moves: external.moves, maxTile: external.maxTile }).toEqual({ score: builtIn.score, moves: builtIn.moves, maxTile: builtIn.maxTile });
      }
    } finally {
      program.close();
    }
  });
});

describe("a program's identity (program-hash.ts): what its author edits, not where it lies", () => {
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-ident-'));
    writeFileSync(join(dir, 'myai.py'), 'print("move")\n');
    writeFileSync(join(dir, 'python'), 'an interpreter binary\n');
    return dir;
  };
  const at = (cwd: string, command: string[], sources?: string): Launch => ({ command, cwd, timeoutSec: 5, ...(sources ? { sources } : {}) });

  it('is the script\'s content: the same from another path or machine; another after an edit', () => {
    const a = folder();
    const b = folder();
    const here = programHash(at(a, ['python3', 'myai.py']));
    expect(programHash(at(b, ['python3', join(b, 'myai.py')]))).toBe(here);
    writeFileSync(join(b, 'myai.py'), 'print("another move")\n');
    expect(programHash(at(b, ['python3', 'myai.py']))).not.toBe(here);
    // A file its arguments name beside the script is read too; the script is never left out for it.
    writeFileSync(join(a, 'cfg.json'), '{}');
    const withConfig = programHash(at(a, ['python3', 'myai.py', 'cfg.json']));
    writeFileSync(join(a, 'myai.py'), 'print("edited")\n');
    expect(programHash(at(a, ['python3', 'myai.py', 'cfg.json']))).not.toBe(withConfig);
  });

  it('leaves out an interpreter given by path (the first of several files): another machine\'s is another binary', () => {
    const a = folder();
    const b = folder();
    writeFileSync(join(b, 'python'), 'another build of the interpreter\n');
    expect(programHash(at(a, [join(a, 'python'), 'myai.py']))).toBe(programHash(at(b, ['python3', 'myai.py'])));
  });

  it('of a built program is its recipe and sources, whatever binary a compiler made of them', () => {
    const a = folder();
    expect(programHash(at(a, [join(a, 'python')], 'recipe-1'))).toBe(programHash(at(folder(), ['/elsewhere/binary'], 'recipe-1')));
    expect(programHash(at(a, [join(a, 'python')], 'recipe-1'))).not.toBe(programHash(at(a, [join(a, 'python')], 'recipe-2')));
  });
});
