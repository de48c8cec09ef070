import { Command } from 'commander';
import { listRunItems } from '../../report/run-list';
import { dbOption, withStore } from '../db';
import { fmt, formatDuration, formatTime, table } from '../format';
import { suggest } from '../../util/command-hint';

export function command(): Command {
  return new Command('runs')
    .description('list the runs in the database: status, generation, validated best, games, start time and duration')
    .addOption(dbOption())
    .option('--json', 'a JSON array on stdout')
    .action(async (opts: { db: string; json?: boolean }) => {
      await withStore(opts.db, 'read', (store) => {
        const runs = listRunItems(store).map((r) => ({
          id: r.id,
          name: r.name,
          status: r.status,
          ...(r.processGone ? { processGone: true } : {}),
          generation: r.generation,
          generations: r.generations,
          validation: r.validation,
          validatedBest: r.validatedBest,
          bestFitnessInSample: r.bestInSample,
          gamesPlayed: r.games,
          bestCandidate: r.bestCandidate,
          startedAt: new Date(r.startedAt).toISOString(),
          seconds: r.elapsedSec,
          error: r.error,
        }));
        if (opts.json) return console.log(JSON.stringify(runs));
        if (runs.length === 0) {
          // Learning runs are listed by their own command: say they are there.
          const learning = store.listLearnRuns().length;
          return console.log(learning > 0 ? `no tuning runs; ${learning} learning run${learning === 1 ? '' : 's'}: ${suggest('learn show', store.path)}` : 'no runs');
        }
        const rows = [['id', 'name', 'status', 'generations done', 'validated best', 'best in-sample (not validated)', 'games', 'started', 'duration']];
        for (const r of runs) {
          rows.push([
            String(r.id),
            r.name,
            r.processGone ? 'stopped (process gone)' : r.status,
            `${r.generation}/${r.generations}${r.status === 'running' && r.validation ? `, validating ${r.validation.done}/${r.validation.total}` : ''}`,
            fmt(r.validatedBest),
            // Once a run is validated its held-out figure is the one to read: an in-sample best is a lucky candidate's.
            r.validatedBest === null ? fmt(r.bestFitnessInSample) : '-',
            String(r.gamesPlayed),
            formatTime(Date.parse(r.startedAt)),
            formatDuration(r.seconds === null ? null : r.seconds * 1000),
          ]);
        }
        console.log(table(rows));
      });
    });
}
