import { Command } from 'commander';
import { dbOption, withStore } from '../db';
import { fmt, formatDuration, formatTime, table } from '../format';

export function command(): Command {
  return new Command('runs')
    .description('list the runs in the database: status, generation, validated best, games, start time and duration')
    .addOption(dbOption())
    .option('--json', 'a JSON array on stdout')
    .action(async (opts: { db: string; json?: boolean }) => {
      await withStore(opts.db, 'read', (store) => {
        const now = Date.now();
        const runs = store.listRuns().map((r) => {
          // Only the planned generation count is needed: read it without loading the config schema (start-up).
          const planned = (JSON.parse(r.config) as { config: { optimizer: { generations: number } } }).config.optimizer.generations;
          const end = r.finished_at ?? (r.status === 'running' ? now : r.last_activity);
          return {
            id: r.id,
            name: r.name,
            status: r.status,
            generation: r.generations,
            generations: planned,
            validatedBest: r.best_validation,
            bestFitnessInSample: r.best_fitness,
            gamesPlayed: r.games_played,
            bestCandidate: r.best_candidate,
            startedAt: new Date(r.created_at).toISOString(),
            seconds: end === null ? null : (end - r.created_at) / 1000,
            error: r.error,
          };
        });
        if (opts.json) return console.log(JSON.stringify(runs));
        if (runs.length === 0) return console.log('no runs');
        const rows = [['id', 'name', 'status', 'generations done', 'validated best', 'best in-sample', 'games', 'started', 'duration']];
        for (const r of runs) {
          rows.push([
            String(r.id),
            r.name,
            r.status,
            `${r.generation}/${r.generations}`,
            fmt(r.validatedBest),
            fmt(r.bestFitnessInSample),
            String(r.gamesPlayed),
            formatTime(Date.parse(r.startedAt)),
            formatDuration(r.seconds === null ? null : r.seconds * 1000),
          ]);
        }
        console.log(table(rows));
      });
    });
}
