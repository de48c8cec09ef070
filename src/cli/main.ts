#!/usr/bin/env node
/**
 * The tune2048 command line: a thin dispatcher over src/cli/commands, one file
 * per command. Every command pays for start-up, so only the module of the
 * command that runs is loaded (unjs/changelogen's lazy command table): the
 * others are listed by name and summary alone, and `--help` loads none.
 */
import { Command, CommanderError } from 'commander';
import { EXIT_BAD_INPUT, exitCodeOf } from './exit-codes';
import { installProcessGuards } from './process';
import { stopAllProgress } from './running-bars';
import { usageErrorLine } from './usage-error';

interface CommandEntry {
  summary: string;
  load: () => Promise<{ command(): Command }>;
  /** Former names, still understood (said so on stderr). */
  aliases?: string[];
}

/** Name → one-line summary and the module that builds the command (loaded only to run it). */
export const COMMANDS: Record<string, CommandEntry> = {
  tune: { summary: 'start a tuning run from a config', load: () => import('./commands/tune') },
  resume: { summary: 'continue a stopped, failed or killed run', load: () => import('./commands/resume') },
  runs: { summary: 'list the runs in a database', load: () => import('./commands/runs') },
  show: { summary: "a run's generations and its validated best", load: () => import('./commands/show') },
  export: { summary: "write a run's best weights as a weights file", load: () => import('./commands/export') },
  report: { summary: 'write an offline HTML report of a run', load: () => import('./commands/report') },
  benchmark: { summary: 'the optimizer benchmark: optimizers (GA, CMA-ES, random, regression, surrogate, model) against each other at equal budgets of games (formerly "race")', load: () => import('./commands/benchmark'), aliases: ['race'] },
  compare: { summary: 'paired comparison of weight sets on the same seeds', load: () => import('./commands/compare') },
  sweep: { summary: 'one weight set against search depth', load: () => import('./commands/sweep') },
  play: { summary: 'play seeded games and print score statistics', load: () => import('./commands/play') },
  hint: { summary: 'the best move for a board', load: () => import('./commands/hint') },
  presets: { summary: 'list the weight presets', load: () => import('./commands/presets') },
  solve: { summary: "classic searches (BFS, DFS, IDS, greedy, A*) on the deterministic corner rules", load: () => import('./commands/solve') },
  serve: { summary: 'a web dashboard of the runs and a game viewer, in the browser', load: () => import('./commands/serve') },
  worker: { summary: 'play the games of runs that use a Redis queue (--queue), on this machine', load: () => import('./commands/worker') },
  learn: { summary: 'learn an evaluation from played games by TD: an n-tuple network, or line tables for weights', load: () => import('./commands/learn') },
  bench: { summary: 'engine and search speed on the bench positions', load: () => import('./commands/bench') },
};

/** What --version prints: the package's version, the WebAssembly builds its games depend on, and Node's. */
function versionText(): string {
  const { buildInfo } = require('../util/build-info') as typeof import('../util/build-info');
  const b = buildInfo();
  const build = (hash: string) => (hash === 'missing' ? 'missing (npm run build)' : hash);
  return `tune2048 ${b.version}\nsearch build ${build(b.searchBuild)}, learning build ${build(b.learningBuild)}\nNode ${b.node}`;
}

/** The program, with the command `name` (if any) fully loaded and the others as name and summary. */
export async function buildProgram(name?: string, withVersion = false): Promise<Command> {
  const program = new Command('tune2048')
    .description('Tune the heuristic weights of a 2048 expectimax player')
    // The builds are hashed only when the version is asked for: every command pays for start-up.
    .version(withVersion ? versionText() : require('../../package.json').version)
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const [cmdName, entry] of Object.entries(COMMANDS)) {
    const loaded = cmdName === name || (name !== undefined && (entry.aliases ?? []).includes(name));
    const command = loaded ? (await entry.load()).command().summary(entry.summary) : new Command(cmdName).description(entry.summary);
    for (const alias of entry.aliases ?? []) command.alias(alias);
    program.addCommand(command);
  }
  // Every level, subcommands of subcommands too (learn start): a usage error is one tune2048 line and exits 2, never commander's own 1.
  const overrideExits = (c: Command): void => {
    c.exitOverride();
    c.configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: (s, write) => write(usageErrorLine(s)) });
    c.commands.forEach(overrideExits);
  };
  overrideExits(program);
  return program;
}

/** The command a command line runs: its first word, or the word after "help". */
function commandName(args: readonly string[]): string | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

export async function main(argv: string[]): Promise<number> {
  try {
    const asked = commandName(argv.slice(2));
    const renamed = Object.entries(COMMANDS).find(([, e]) => asked !== undefined && (e.aliases ?? []).includes(asked));
    if (renamed) process.stderr.write(`tune2048: "${asked}" is now "${renamed[0]}" (${asked} still works)\n`);
    const program = await buildProgram(commandName(argv.slice(2)), argv.slice(2).some((a) => a === '-V' || a === '--version'));
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    stopAllProgress();
    if (e instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; usage errors were already printed.
      return e.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    console.error(`tune2048: ${e instanceof Error ? e.message : String(e)}`);
    return exitCodeOf(e);
  }
}

if (require.main === module) {
  installProcessGuards();
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
