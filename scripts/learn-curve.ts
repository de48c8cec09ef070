/**
 * A training curve of an n-tuple network against training time: trains a learning config's network for
 * --minutes of training (wall time while the threads train; held-out games are not counted), and every
 * --every minutes plays its held-out greedy games, printing one JSON line per point (and appending it to
 * --log). Saves the tables at the end (and at each --save-at minute mark) as network files in --out.
 *
 *   npx tsx scripts/learn-curve.ts configs/learn-ntuple.json --minutes 60 --every 5 --out db/curves
 */
import { installProcessGuards } from '../src/cli/process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { DEFAULT_HELD_OUT, loadLearnConfig, networkShapeOf } from '../src/learn/config';
import { NetworkTraining } from '../src/learn/ntuple/training';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const program = new Command()
  .argument('<config>', 'a learning config with a network')
  .option('--minutes <m>', 'training minutes', Number, 60)
  .option('--every <m>', 'minutes between held-out evaluations', Number, 5)
  .option('--threads <n>', "training threads (default: the config's)", Number)
  .option('--save-at <m...>', 'also save the tables at these minute marks', (s: string, acc: number[] = []) => [...acc, Number(s)])
  .option('--out <dir>', 'where the network files go', 'db/curves')
  .option('--log <file>', 'append each point as a JSON line')
  .parse();
const opts = program.opts<{ minutes: number; every: number; threads?: number; saveAt?: number[]; out: string; log?: string }>();
const config = loadLearnConfig(program.args[0]);
const shape = networkShapeOf(config);
if (!shape) throw new Error('the config has no network');
mkdirSync(opts.out, { recursive: true });

async function main() {
  const training = new NetworkTraining({ shape: shape!, threads: opts.threads ?? config.threads ?? 1, seed: config.seed, learningRate: config.learningRate, heldOut: config.heldOut ?? DEFAULT_HELD_OUT });
  let trainMs = 0;
  const cpu0 = process.cpuUsage();
  let nextEval = opts.every;
  const saveAt = [...(opts.saveAt ?? [])].sort((a, b) => a - b);
  const chunk = 2000;
  const point = async () => {
    const t = performance.now();
    const held = await training.heldOut();
    const cpu = process.cpuUsage(cpu0);
    const line = {
      config: config.name,
      threads: training.settings.threads,
      trainMinutes: +(trainMs / 60000).toFixed(2),
      games: training.games,
      moves: training.movesDone(),
      movesPerSecond: Math.round(training.movesDone() / (trainMs / 1000)),
      cpuMinutes: +((cpu.user + cpu.system) / 6e7).toFixed(2),
      recent: training.recent(1000),
      heldOut: held,
      evalSeconds: +((performance.now() - t) / 1000).toFixed(1),
    };
    console.log(JSON.stringify(line));
    if (opts.log) appendFileSync(opts.log, JSON.stringify(line) + '\n');
  };
  while (trainMs < opts.minutes * 60000) {
    const t = performance.now();
    await training.trainTo(training.games + chunk);
    trainMs += performance.now() - t;
    if (trainMs >= nextEval * 60000) {
      await point();
      nextEval += opts.every;
    }
    while (saveAt.length > 0 && trainMs >= saveAt[0] * 60000) {
      const m = saveAt.shift()!;
      const path = join(opts.out, `${config.name}-${m}min.bin`);
      console.error(`saved ${path} (sha256 ${training.save(path)})`);
    }
  }
  const path = join(opts.out, `${config.name}-${opts.minutes}min.bin`);
  console.error(`saved ${path} (sha256 ${training.save(path)})`);
  await training.close();
}

main().catch((e) => {
  console.error(`learn-curve: ${(e as Error).message}`);
  process.exit(1);
});
