import { Command } from 'commander';
import { createInterface } from 'node:readline';
import { Board, formatBoard, parseBoard, prettyBoard } from '../../engine/board';
import { applyMove, DIRECTION_NAMES, type Direction } from '../../engine/moves';
import type { Decision } from '../../engine/player';
import { decidesAtOnce, foregroundPlayer } from '../../player/foreground';
import type { ForegroundDecision } from '../../player/session';
import { stillWorking } from '../still-working';
import { addMoveBudgetOption, addParamsOption, addPlayerOptions, addThreadsOption, cliPlayer, type PlayerCliOptions } from '../player-options';
import { EXIT_BAD_INPUT } from '../exit-codes';
import { InputError } from '../../util/errors';
import { table } from '../format';
import { parseCprob, parseDepthOption } from '../options';

interface HintOptions extends PlayerCliOptions {
  weights: string;
  params?: string;
  depth: number | 'auto';
  cprob: number;
  json?: boolean;
}

/**
 * A decision as hint shows it: every move's result (`score`: the move's reward, the merges' sum) and the value
 * the player saw. A greedy network's value is that reward + its afterstate's value: `afterstate` gives the second.
 */
export function hintFrom(board: Board, { move, values }: Decision, depth: number | 'auto' | 'its own', greedyNetwork = false) {
  return {
    board: formatBoard(board),
    best: move === -1 ? null : DIRECTION_NAMES[move],
    depth,
    moves: ([0, 1, 2, 3] as Direction[]).map((dir) => {
      const after = applyMove(board, dir);
      const value = after.legal && !Number.isNaN(values[dir]) ? values[dir] : null;
      return { move: DIRECTION_NAMES[dir], legal: after.legal, board: formatBoard(after.board), score: after.score, value, ...(greedyNetwork ? { afterstate: value === null ? null : value - after.score } : {}) };
    }),
  };
}

type Hint = ReturnType<typeof hintFrom>;

function render(board: Board, h: Hint, json: boolean): string {
  if (json) return JSON.stringify(h);
  const afterstate = h.moves.some((m) => 'afterstate' in m);
  const rows = [['move', 'legal', 'score', ...(afterstate ? ['afterstate'] : []), 'value', 'board after the move']];
  for (const m of h.moves) {
    const a = (m as { afterstate?: number | null }).afterstate;
    rows.push([m.move, m.legal ? 'yes' : 'no', String(m.score), ...(afterstate ? [a === null || a === undefined ? '-' : a.toFixed(1)] : []), m.value === null ? '-' : m.value.toFixed(1), m.board]);
  }
  return `${prettyBoard(board)}\nbest: ${h.best ?? 'none (game over)'}  (depth ${h.depth})\n${table(rows)}`;
}

/** After a few seconds of one search, a line on stderr that it goes on and how to stop it. */
const stillSearching = () => stillWorking('hint: still searching');

/** One board from the command line, or one per line from stdin (a bad line is reported and skipped: exit code 2 at the end). */
async function answer(boardText: string | undefined, hintOf: (board: Board) => Promise<Hint>, opts: HintOptions): Promise<void> {
  if (boardText !== undefined) {
    let board: Board;
    try {
      board = parseBoard(boardText);
    } catch (e) {
      throw new InputError(`bad board: ${(e as Error).message}`);
    }
    console.log(render(board, await hintOf(board), !!opts.json));
    return;
  }
  // Stream: answer each line as it comes; a bad line is reported and skipped, exit code 2 at the end.
  let lineNo = 0;
  let bad = 0;
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    lineNo++;
    if (line.trim() === '') continue;
    let board: Board;
    try {
      board = parseBoard(line);
    } catch (e) {
      bad++;
      console.error(`tune2048: line ${lineNo}: bad board: ${(e as Error).message}`);
      continue;
    }
    process.stdout.write(render(board, await hintOf(board), !!opts.json) + '\n');
  }
  if (bad > 0) process.exitCode = EXIT_BAD_INPUT;
}

export function command(): Command {
  const cmd = new Command('hint')
    .description("the best move for a board, with every move's result and the value the player saw (expectimax by default)")
    .argument('[board]', '16 tile values row by row, e.g. "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 2"; without it, one board per line from stdin')
    .option('-w, --weights <file|preset>', 'weights file or preset name', 'nneonneo')
    .option('-d, --depth <d>', 'chance layers below the root move, or "auto"', parseDepthOption, 2 as number | 'auto')
    .option('--cprob <p>', 'probability cutoff of the search', parseCprob, 1e-4)
    .option('--json', 'one JSON object per board, on one line (default: the board as a grid and a table of moves)');
  addMoveBudgetOption(addParamsOption(addThreadsOption(addPlayerOptions(cmd)))).action(async (boardText: string | undefined, opts: HintOptions) => {
      const spec = await cliPlayer(opts);
      let hintOf: (board: Board) => Promise<Hint>;
      let close: (() => Promise<void>) | undefined;
      if (spec.kind === 'external') {
        // The program answers each board as the first of a new game; its values (if it gives them) are shown.
        const { closeExternalProcess, externalDecision, externalProcessFor } = await import('../../player/external/play');
        const program = await externalProcessFor(spec.external, spec.external.launch!);
        close = async () => closeExternalProcess();
        hintOf = async (board) => hintFrom(board, await externalDecision(program, spec.external.params, board), 'its own');
      } else {
        // A search that can take long runs in a thread of its own: Ctrl-C stops even a depth-7 search at once
        // (exit 130). A shallow one runs here: a thread would cost more to start than the search.
        let decide: (board: Board) => Promise<ForegroundDecision>;
        if (decidesAtOnce(spec)) {
          const session = (await import('../../player/session')).playerSession(spec);
          decide = async (board) => session.decide(board);
        } else {
          const thread = await foregroundPlayer(spec);
          close = () => thread.close();
          decide = (board) => thread.remote.decide(board);
        }
        hintOf = async (board) => {
          const notice = stillSearching();
          try {
            const decision = await decide(board);
            // The depth the player searched on this board (auto and a network's depth rule deepen some boards).
            const depth = decision.depth ?? opts.depth;
            return hintFrom(board, decision, depth, spec.kind === 'network' && depth === 0);
          } finally {
            notice.cancel();
          }
        };
      }
      try {
        await answer(boardText, hintOf, opts);
      } finally {
        await close?.();
      }
    });
  // A board whose first tile is negative ("-2 4 0 0/…") looks like an option to commander: name the real problem.
  // (unknownOption is commander's own hook for this error; its typings leave it out.)
  const hooks = cmd as unknown as { unknownOption(flag: string): void };
  const unknownOption = hooks.unknownOption.bind(cmd);
  hooks.unknownOption = (flag: string) => {
    if (/^-\d/.test(flag)) {
      try {
        parseBoard(flag);
      } catch (e) {
        throw new InputError(`bad board: ${(e as Error).message}`);
      }
    }
    return unknownOption(flag);
  };
  return cmd;
}
