import { Command } from 'commander';
import { join } from 'node:path';
import { buildRunReport } from '../../report/report';
import { dbOption, withStore } from '../db';
import { parseRunId } from '../options';
import { writeOutputFile } from '../output';

export function command(): Command {
  return new Command('report')
    .description('write a self-contained offline HTML report of a run (its charts drawn by a script inlined in the page: no network needed) and print its path')
    .argument('<run>', 'run id', parseRunId)
    .addOption(dbOption())
    .option('-o, --out <file>', 'output file (default: reports/run-<id>.html)')
    .option('--force', 'overwrite the output file when it exists (a report written again after more generations)')
    .option('--json', 'one JSON object on stdout: {run, out, bytes}')
    .action(async (runId: number, opts: { db: string; out?: string; json?: boolean; force?: boolean }) => {
      await withStore(opts.db, 'read', (store) => {
        const html = buildRunReport(store, runId);
        const out = opts.out ?? join('reports', `run-${runId}.html`);
        writeOutputFile(out, html, { createFolder: opts.out === undefined, force: opts.force }); // the default folder is made when missing
        console.log(opts.json ? JSON.stringify({ run: runId, out, bytes: Buffer.byteLength(html) }) : out);
      });
    });
}
