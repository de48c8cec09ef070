/**
 * Issue 22's depth-1 ablation of the learned term. Trains configs/learn-lines.json's line network in
 * db/learn.sqlite (unless a finished run of it is there), writes its table (db/lines-<run>.bin), weights that
 * are tuned-d1 plus the learned term at weight 0 (so they play exactly as tuned-d1, the baseline's start)
 * and a race config that is configs/ablation-d1-base.json plus the parameter `learned.weight`; then prints
 * the race command. Nothing generated goes into configs/ (the table is a build product of the command).
 *
 *   npx tsx scripts/ablation-learned.ts
 */
import { installProcessGuards } from '../src/cli/process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { heuristicFields, loadWeights, WEIGHTS_FORMAT } from '../src/heuristic/weights';
import { loadLearnConfig } from '../src/learn/config';
import { learnState, runLearning } from '../src/learn/learn-run';
import { encodeNetwork, sha256 } from '../src/learn/table-file';
import { Store } from '../src/store/store';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

async function main(): Promise<void> {
  mkdirSync('db', { recursive: true });
  const config = loadLearnConfig('configs/learn-lines.json');
  const store = Store.open('db/learn.sqlite');
  try {
    let run = store.listLearnRuns().find((r) => r.name === config.name && JSON.stringify(r.storedConfig) === JSON.stringify(config));
    const id = run?.id ?? store.createLearnRun({ name: config.name, storedConfig: config });
    if (run?.status !== 'finished') {
      console.error(`training learning run ${id} (${config.games} games)…`);
      await runLearning(store, id);
    }
    run = store.requireLearnRun(id);
    const bytes = encodeNetwork(learnState(store, id).net);
    const table = resolve(`db/lines-${id}.bin`);
    writeFileSync(table, bytes);
    const start = { format: WEIGHTS_FORMAT, version: 2, name: 'tuned-d1+learned-x0', ...heuristicFields(loadWeights('tuned-d1')), learned: { table, sha256: sha256(bytes), weight: 0 } };
    writeFileSync('db/ablation-d1-learned-start.json', JSON.stringify(start, null, 2) + '\n');
    const base = JSON.parse(readFileSync('configs/ablation-d1-base.json', 'utf8'));
    const race = {
      ...base,
      name: 'ablation-d1-learned',
      description: 'configs/ablation-d1-base.json plus the learned term (weight from 0: the same start), written by scripts/ablation-learned.ts',
      space: { ...base.space, start: 'db/ablation-d1-learned-start.json', params: { ...base.space.params, 'learned.weight': { min: 0, max: 16 } } },
    };
    writeFileSync('db/ablation-d1-learned.json', JSON.stringify(race, null, 2) + '\n');
    console.log('tune2048 race -c db/ablation-d1-learned.json --optimizers surrogate --seeds 1,2,3 --budget 10000 --checkpoints 5 --holdout 1000 --db db/abl-learned.sqlite');
  } finally {
    store.close();
  }
}

void main();
