/** The --queue option and the game runner of a command: local worker processes, or a Redis queue. */
import { Option } from 'commander';
import { parseQueueUrl } from '../runner/queue-url';
import { defaultWorkers, withRunner, type GameRunner } from '../runner/runner';

export function queueOption(): Option {
  return new Option('--queue <url>', 'play on `tune2048 worker` processes through this Redis (redis://[USER:PASSWORD@]HOST:PORT[/DB]; rediss://… for TLS, ?ca=FILE for a private CA) instead of local workers').argParser((v) => {
    parseQueueUrl(v);
    return v;
  });
}

/** Fails now, with one line, if the queue's Redis does not answer: before any file is created or game played. */
export async function checkQueue(url: string | undefined): Promise<void> {
  if (!url) return;
  const { checkRedis } = await import('../runner/redis');
  await checkRedis(parseQueueUrl(url));
}

/** Runs `use` with the runner the options ask for (--queue, else --workers local processes) and releases it. */
export function withCliRunner<T>(opts: { workers?: number; queue?: string }, use: (runner: GameRunner) => Promise<T>): Promise<T> {
  return withRunner({ workers: opts.workers ?? defaultWorkers(), queue: opts.queue, onNotice: (line) => process.stderr.write(`\ntune2048: ${line}\n`) }, use);
}
