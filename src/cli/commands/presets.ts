import { Command } from 'commander';
import { listPresets, loadWeights } from '../../heuristic/weights';
import { table } from '../format';

export function command(): Command {
  return new Command('presets')
    .description('list the weight presets (configs/weights) with their descriptions; any of them works as --weights NAME')
    .option('--json', 'a JSON array on stdout (with every weight)')
    .action((opts: { json?: boolean }) => {
      const presets = listPresets().map((name) => ({ name, weights: loadWeights(name) }));
      if (opts.json) {
        console.log(JSON.stringify(presets.map(({ name, weights }) => ({ preset: name, ...weights }))));
        return;
      }
      // The description's first sentence; the whole text is in the file (and in --json).
      const first = (text = '') => text.split(/(?<=\.)\s/)[0];
      console.log(table([['preset', 'description'], ...presets.map(({ name, weights }) => [name, first(weights.description)])]));
    });
}
