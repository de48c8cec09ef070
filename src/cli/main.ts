#!/usr/bin/env node
/** The tune2048 command line: a thin dispatcher over src/cli/commands. */
import { Command, CommanderError } from 'commander';
import { benchCommand } from './commands/bench';
import { hintCommand } from './commands/hint';
import { compareCommand, sweepCommand } from './commands/compare';
import { playCommand } from './commands/play';
import { raceCommand } from './commands/race';
import { exportCommand, reportCommand, resumeCommand, runsCommand, showCommand, tuneCommand } from './commands/tuning';
import { EXIT_BAD_INPUT, EXIT_FAILURE, InputError } from './errors';

export function buildProgram(): Command {
  const program = new Command('tune2048')
    .description('Tune the heuristic weights of a 2048 expectimax player')
    .version(require('../../package.json').version)
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const cmd of [tuneCommand(), resumeCommand(), runsCommand(), showCommand(), exportCommand(), reportCommand(), raceCommand(), compareCommand(), sweepCommand(), playCommand(), hintCommand(), benchCommand()]) program.addCommand(cmd);
  program.commands.forEach((c) => c.exitOverride());
  program.exitOverride();
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; usage errors were already printed.
      return e.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    console.error(`tune2048: ${e instanceof Error ? e.message : String(e)}`);
    return e instanceof InputError ? EXIT_BAD_INPUT : EXIT_FAILURE;
  }
}

if (require.main === module) {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
