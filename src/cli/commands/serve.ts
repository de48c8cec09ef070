import { Command } from 'commander';
import { resolve } from 'node:path';
import { dbOption } from '../db';
import { parseIntegerOption } from '../options';

export function command(): Command {
  return new Command('serve')
    .description('a local web dashboard: the runs of a database live, each run with its charts, and a game viewer where the AI plays in the page')
    .addOption(dbOption())
    .option('--port <n>', 'port to listen on (0: any free port)', parseIntegerOption('--port', 0, 65535), 8048)
    .option('--host <host>', 'address to listen on (0.0.0.0 to let other machines in)', '127.0.0.1')
    .option('--weights-dir <dirs>', 'comma-separated folders whose weights files the viewer may load', 'configs/weights,.')
    .action(async (opts: { db: string; port: number; host: string; weightsDir: string }) => {
      const { checkServe, createDashboardServer, listen } = await import('../../serve/server');
      const options = { db: opts.db, port: opts.port, host: opts.host, weightsDirs: opts.weightsDir.split(',').map((d) => resolve(d.trim())) };
      checkServe(options);
      const server = createDashboardServer(options);
      const { url } = await listen(server, options);
      console.log(url); // data: where to point a browser (a script can read it)
      console.error(`tune2048 serve: ${opts.db} read-only at ${url} (Ctrl-C to stop)`);
      await new Promise<void>((done) => server.once('close', () => done()));
    });
}
