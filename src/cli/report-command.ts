import { Command } from 'commander';
import { join } from 'node:path';
import type { Store } from '../store/store';
import { dbOption, withStore } from './db';
import { parseRunId } from './options';
import { writeOutputFile } from './output';

/**
 * A report command (a tuning run's `report`, a learning run's `learn report`): one run's page built from the
 * database, written to --out or to reports/<prefix>-<id>.html, its path printed.
 */
export function reportCommand(name: string, about: { description: string; run: string; prefix: string; again: string; purpose?: 'tuning' | 'learning' }, build: (store: Store, runId: number) => string): Command {
  return new Command(name)
    .description(about.description)
    .argument('<run>', about.run, parseRunId)
    .addOption(dbOption())
    .option('-o, --out <file>', `output file (default: reports/${about.prefix}-<id>.html)`)
    .option('--force', `overwrite the output file when it exists (${about.again})`)
    .option('--json', 'one JSON object on stdout: {run, out, bytes}')
    .action(async (runId: number, opts: { db: string; out?: string; json?: boolean; force?: boolean }) => {
      await withStore(opts.db, 'read', (store) => {
        const html = build(store, runId);
        const out = opts.out ?? join('reports', `${about.prefix}-${runId}.html`);
        writeOutputFile(out, html, { createFolder: opts.out === undefined, force: opts.force }); // the default folder is made when missing
        // As export says it: "wrote FILE" on stderr (--json: the path and size on stdout, for scripts).
        if (opts.json) console.log(JSON.stringify({ run: runId, out, bytes: Buffer.byteLength(html) }));
        else console.error(`wrote ${out}`);
      }, { purpose: about.purpose });
    });
}
