import { Command, Option } from 'commander';
import { nneonneoConstants } from '../../heuristic/nneonneo-format';
import { isParamsFile } from '../../player/external/params-file';
import { isNetworkSettings } from '../../player/network-settings';
import type { Weights } from '../../heuristic/weights';
import { exportPoint, type ExportChoice } from '../../tuner/output/export';
import { exportedValues, fillTemplate, linesText } from '../../tuner/output/solver-formats';
import { loadRunProblem } from '../../tuner/run/run-problem';
import { describeStartVerdict, runStartVerdict } from '../../tuner/selection/verdict';
import { InputError } from '../../util/errors';
import { readTextFile } from '../../util/json-file';
import { dbOption, withStore } from '../db';
import { parseIntegerOption, parseNumberOption, parseRunId } from '../options';
import { checkOutputPath, writeOutputFile } from '../output';
import { suggest } from '../../util/command-hint';

/** json: the form tune2048 reads (weights, a parameter file, a network player file); nneonneo: 2048.cpp's constants block; lines: `name value` a line, for any solver. */
const FORMATS = ['json', 'nneonneo', 'lines'] as const;
type Format = (typeof FORMATS)[number];

export function command(): Command {
  return new Command('export')
    .description('write the validated best of a finished run (or, with --candidate, another validated candidate): weights (play, hint and compare read them with --weights), an external player\'s parameter file (the protocol\'s own form: --params, or a compare contender), a network player file (--player network:FILE.json, or a compare contender network:FILE.json), or nneonneo/2048-ai\'s constants block (--format nneonneo)')
    .argument('<run>', 'run id', parseRunId)
    .addOption(dbOption())
    .option('-o, --out <file>', 'output file (default: stdout)')
    .option('--force', 'overwrite --out when it exists (without it, an existing file is refused: weights are easy to lose)')
    .addOption(new Option('--format <format>', 'json (tune2048\'s own: weights, a parameter file or a network player file), nneonneo (the seven SCORE_* constants of its 2048.cpp; weights of its family only), or lines ("name value" a line, every number of the export, for any solver)').choices([...FORMATS]).default('json'))
    .option('--template <file>', 'instead of a format: this file with each {{name}} replaced by its value (names as --format lines prints them), e.g. a C header or a command line for your solver')
    .option('--json', 'one JSON object on stdout: {run, out, weights} (with --format nneonneo: {run, out, format, text})')
    .addOption(new Option('--candidate <id>', 'a validated candidate of the run instead of its best (a finalist or the start, as `show` lists them): e.g. the race\'s winner where the second set handed back the start').argParser(parseIntegerOption('--candidate', 1)).conflicts(['point', 'maxCost', 'maxMsPerMove']))
    .addOption(new Option('--point <k>', 'a run with a front (fitness.cost): its point K, as `show` numbers them (1: the cheapest)').argParser(parseIntegerOption('--point', 1)).conflicts(['maxCost', 'maxMsPerMove']))
    .addOption(new Option('--max-cost <nodes>', 'a run with a front: its strongest validated point that searches at most this many positions a move').argParser(parseNumberOption('--max-cost', 0, Number.MAX_VALUE)).conflicts(['maxMsPerMove']))
    .addOption(new Option('--max-ms-per-move <ms>', 'a run with a front: its strongest validated point at most this many ms a move (as measured when it was validated)').argParser(parseNumberOption('--max-ms-per-move', 0, Number.MAX_VALUE)))
    .action(async (runId: number, opts: { db: string; out?: string; format: Format; template?: string; json?: boolean; force?: boolean } & ExportChoice) => {
      if (opts.template !== undefined && opts.format !== 'json') throw new InputError('--template and --format exclude each other: the template is the format');
      const template = opts.template === undefined ? null : readTextFile(opts.template, 'template');
      if (opts.out) checkOutputPath(opts.out, { force: opts.force });
      await withStore(opts.db, 'read', (store) => {
        const { file: best, search, gap } = exportPoint(store, runId, opts.out, { candidate: opts.candidate, point: opts.point, maxCost: opts.maxCost, maxMsPerMove: opts.maxMsPerMove });
        let text: string;
        if (opts.format === 'nneonneo') {
          if (isParamsFile(best)) throw new InputError(`run ${runId} tuned an external player: it exports as its parameter file (--format json), not as nneonneo's constants`);
          if (isNetworkSettings(best)) throw new InputError(`run ${runId} tuned what sits on a network: it exports as a network player file (--format json), not as nneonneo's constants`);
          text = nneonneoConstants(best as Weights, `run ${runId}'s best weights`, search);
        } else if (template !== null) {
          text = fillTemplate(template, exportedValues(best), `template "${opts.template}"`);
        } else if (opts.format === 'lines') {
          text = linesText(exportedValues(best));
        } else {
          text = JSON.stringify(best, null, 2) + '\n';
        }
        if (opts.out) {
          writeOutputFile(opts.out, text, { force: opts.force });
          console.error(`wrote ${opts.out}`);
        }
        if (opts.json) console.log(JSON.stringify(opts.format === 'json' && template === null ? { run: runId, out: opts.out ?? null, weights: best } : { run: runId, out: opts.out ?? null, format: template === null ? opts.format : 'template', text }));
        else if (!opts.out) process.stdout.write(text);
        // A tuned search: a JSON file carries it and plays at it; the constants block cannot, so say the flags.
        if (search.depth !== undefined || search.cprob !== undefined) {
          const carried = isNetworkSettings(best) ? { depth: (best as { depth?: number }).depth, cprob: (best as { cprob?: number }).cprob } : ((best as Weights).search ?? {});
          const what = [carried.depth !== undefined ? `depth ${carried.depth}` : '', carried.cprob !== undefined ? `cprob ${carried.cprob}` : ''].filter(Boolean).join(' and ');
          if (opts.format === 'json' && template === null) {
            const play = opts.out ? `: ${suggest(isNetworkSettings(best) ? ['play', '--player', `network:${opts.out}`] : ['play', '-w', opts.out])}` : '';
            console.error(`tune2048: run ${runId} tuned the search too: the file carries it (${what}) and plays at it unless -d or --cprob says otherwise${play}`);
          } else if (opts.format !== 'nneonneo') {
            console.error(`tune2048: run ${runId} tuned the search too: ${what}, named ${isNetworkSettings(best) ? 'depth and cprob' : 'search.depth and search.cprob'} here`);
          } else {
            const flags = [search.depth !== undefined ? `-d ${search.depth}` : '', search.cprob !== undefined ? `--cprob ${search.cprob}` : ''].filter(Boolean).join(' ');
            console.error(`tune2048: run ${runId} tuned the search too: nneonneo's constants do not hold it; it was validated at ${what} (${flags})`);
          }
        }
        if (gap) console.error(`tune2048: run ${runId}: ${gap}`);
        // Said after the file is written (a refused export says only why): the export may be the start itself.
        // The verdict weighs the run's best; a point chosen from a front is another one.
        const chosen = opts.point !== undefined || opts.maxCost !== undefined || opts.maxMsPerMove !== undefined;
        const { bestCandidate } = store.requireRun(runId);
        if (opts.candidate !== undefined && opts.candidate !== bestCandidate) {
          console.error(`tune2048: run ${runId}: candidate ${opts.candidate} is not the run's best, candidate ${bestCandidate} (${suggest(['export', String(runId)], store.path)} writes that one)`);
        } else {
          const verdict = chosen ? null : runStartVerdict(store, loadRunProblem(store, runId));
          if (verdict && !verdict.clear) console.error(`tune2048: run ${runId}: ${describeStartVerdict(verdict)}`);
        }
      });
    });
}
