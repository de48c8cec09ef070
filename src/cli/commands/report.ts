import { Command } from 'commander';
import { buildRunReport } from '../../report/report';
import { reportCommand } from '../report-command';

export function command(): Command {
  return reportCommand(
    'report',
    {
      description: 'write a self-contained offline HTML report of a run (its charts drawn by a script inlined in the page: no network needed) and print its path',
      run: 'run id',
      prefix: 'run',
      again: 'a report written again after more generations',
    },
    buildRunReport,
  );
}
