/**
 * tune2048 serve: the dashboard's HTTP server (Node's http, no framework: a
 * handful of routes). Pages are one shell that the bundled front end
 * (build/web/dashboard.js) fills from the JSON API; everything is served from
 * the package, nothing from a CDN.
 *
 * The database is opened read-only, per request, without a lock held in
 * between: a tuner writing the file is never blocked or slowed, and never
 * sees "database is locked" because of us (WAL readers do not block writers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { listPresets, loadWeights, type Weights } from '../heuristic/weights';
import { readNetworkFile } from '../learn/table-file';
import { runDetail } from '../report/run-data';
import { escapeHtml } from '../report/svg';
import { listRunItems } from '../report/run-list';
import { learnDetail, listLearnItems } from '../report/learn-data';
import { Store } from '../store/store';
import { exportBest } from '../tuner/output/export';
import { networkPlayerOf } from '../tuner/config/config';
import { ExternalSpace } from '../tuner/space/external-space';
import { loadRunProblem } from '../tuner/run/run-problem';
import { suggest } from '../util/command-hint';
import { InputError } from '../util/errors';
import { NetworkGames } from './network-games';
import { networkPlayerSpec } from '../player/network-player';
import type { NetworkPlayerSpec } from '../player/spec';
import { isNetworkSettings } from '../player/network-settings';
import { readNetworkShape } from '../learn/ntuple/network-file';
import { storedNetworkPath } from '../learn/ntuple/network-run';
import type { DepthSetting } from '../player/expectimax';
import { MAX_DEPTH } from '../player/limits';

/** build/ of this package: the front end bundles and the search module. */
const BUILD = resolve(__dirname, '..', '..', 'build');
const ASSETS: Record<string, { file: string; type: string }> = {
  'dashboard.js': { file: join(BUILD, 'web', 'dashboard.js'), type: 'text/javascript; charset=utf-8' },
  'search-worker.js': { file: join(BUILD, 'web', 'search-worker.js'), type: 'text/javascript; charset=utf-8' },
  'uPlot.min.css': { file: join(BUILD, 'web', 'uPlot.min.css'), type: 'text/css; charset=utf-8' },
  'dashboard.css': { file: join(BUILD, 'web', 'dashboard.css'), type: 'text/css; charset=utf-8' },
  'search.wasm': { file: join(BUILD, 'search.wasm'), type: 'application/wasm' },
};

export interface ServeOptions {
  db: string;
  port: number;
  host: string;
  /** Folders whose weights files (*.json) the viewer may load, besides the presets. */
  weightsDirs: string[];
}

/** Checks the database (exists, is ours, not damaged) and the front end; throws one clear error. */
export function checkServe(o: ServeOptions): void {
  Store.open(o.db, { readonly: true }).close();
  for (const { file } of Object.values(ASSETS)) {
    try {
      statSync(file);
    } catch {
      throw new Error(`the web front end "${file}" is missing; build it with: npm run build`);
    }
  }
}

function readStore<T>(db: string, use: (store: Store) => T): T {
  const store = Store.open(db, { readonly: true, check: false });
  try {
    return use(store);
  } finally {
    store.close();
  }
}

function shell(title: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/uPlot.min.css"><link rel="stylesheet" href="/assets/dashboard.css">
</head><body><nav><a href="/">runs</a> <a href="/viewer">game viewer</a> <span id="db"></span></nav><main id="app"></main>
<script src="/assets/dashboard.js"></script></body></html>
`;
}

function notFoundPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found — tune2048</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/dashboard.css"></head>
<body><nav><a href="/">runs</a> <a href="/viewer">game viewer</a></nav><main><h1>Not found</h1><p id="not-found">${escapeHtml(message)}</p><p><a href="/">Back to the runs</a></p></main></body></html>
`;
}

/**
 * The files of the allowed folders that `accepts` (it may throw: a file it cannot read is not one), by file
 * name, the first folder's first: the only files the viewer may load. A folder that does not exist lists nothing.
 */
function filesIn(dirs: readonly string[], accepts: (path: string, name: string) => boolean): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        if (!files.has(name) && accepts(path, name)) files.set(name, path);
      } catch {
        // unreadable, or not of the kind asked for
      }
    }
  }
  return files;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { format?: string };

/** Weights files (*.json, tune2048/weights). */
const weightsFiles = (dirs: readonly string[]) => filesIn(dirs, (path, name) => name.endsWith('.json') && readJson(path).format === 'tune2048/weights');

/** Network files (*.bin with the n-tuple network header) and network player files (*.json). */
const networkFiles = (dirs: readonly string[]) =>
  filesIn(dirs, (path, name) => (name.endsWith('.bin') ? (readNetworkShape(path), true) : name.endsWith('.json') && isNetworkSettings(readJson(path))));

/** "0"…"MAX_DEPTH" or "auto"; null otherwise. */
function viewerDepth(text: string | null): DepthSetting | null {
  if (text === 'auto') return 'auto';
  const d = Number(text);
  return text !== null && /^\d+$/.test(text) && d <= MAX_DEPTH ? d : null;
}

export function createDashboardServer(o: ServeOptions): Server {
  const dbName = basename(o.db);
  const networkGames = new NetworkGames();
  /** Network specs by file, its size and time: a network file is hashed whole once, not at every game. */
  const specs = new Map<string, NetworkPlayerSpec>();

  function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  }
  function html(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  }
  const runExists = (id: number) => readStore(o.db, (s) => s.getRun(id) !== undefined);

  /**
   * Why the page cannot play a run's best (a network or an external program), in one line naming what to do
   * instead; null when it can (weights).
   */
  function notPlayableInPage(source: string): string | null {
    const id = /^run:(\d+)$/.exec(source)?.[1];
    if (!id || !runExists(Number(id))) return null;
    return readStore(o.db, (s) => runNotPlayable(s, Number(id)));
  }

  /** notPlayableInPage for a run, on a store already open (the run list asks it of every run in one read). */
  function runNotPlayable(s: Store, id: number): string | null {
    const problem = loadRunProblem(s, id);
    const replay = `watch its best held-out game replayed instead: /viewer?replay=run:${id}`;
    const network = networkPlayerOf(problem.config);
    if (network) {
      let size = '';
      try {
        size = ` (${Math.round(statSync(network.file).size / 1e6)} MB of tables)`;
      } catch {
        // a network file gone since: the line still says why
      }
      return `run ${id} tuned what sits on the network "${basename(network.file)}"${size}: a network is played by the server, not in the page (its tables would be downloaded whole into the tab's memory); to watch this run's best play live, export it into a weights folder (${suggest(['export', String(id), '--out', 'best.json'], o.db)}) and pick network:best.json, or ${replay}`;
    }
    if (problem.space instanceof ExternalSpace) return `run ${id} tuned the external player "${problem.space.announcement.name}", a program the page cannot run; ${replay}`;
    return null;
  }

  /** A weights source of the viewer: preset:NAME, file:NAME (a listed file) or run:ID (its best so far). */
  function weightsFor(source: string): Weights | null {
    const [kind, ...rest] = source.split(':');
    const name = rest.join(':');
    if (kind === 'preset' && listPresets().includes(name)) return loadWeights(name);
    if (kind === 'file') {
      const path = weightsFiles(o.weightsDirs).get(name);
      return path ? loadWeights(path) : null;
    }
    if (kind === 'run' && /^\d+$/.test(name) && runExists(Number(name))) return readStore(o.db, (s) => runDetail(s, Number(name)).best?.weights ?? null);
    return null;
  }

  /** The networks the viewer may watch (played on the server): learning runs' latest networks, network (player) files in the weights folders. */
  function networkSources(): { source: string; label: string; description: string }[] {
    const runs = readStore(o.db, (s) => listLearnItems(s).filter((r) => r.network !== null && r.games > 0));
    const learned = runs.map((r) => ({ source: `learn:${r.id}`, label: `network of learning run ${r.id} (${r.name}), ${r.games.toLocaleString('en-US')} games`, description: 'played on the server' }));
    const files = [...networkFiles(o.weightsDirs).keys()].map((name) => ({ source: `network:${name}`, label: `network ${name}`, description: 'played on the server' }));
    return [...learned, ...files];
  }

  /** The spec a network source plays at `depth`, or null when there is no such source. */
  function networkSpecFor(source: string, depth: DepthSetting): NetworkPlayerSpec | null {
    const [kind, ...rest] = source.split(':');
    const name = rest.join(':');
    let base: NetworkPlayerSpec | null = null;
    if (kind === 'learn' && /^\d+$/.test(name)) {
      base = readStore(o.db, (s) => {
        const run = s.listLearnRuns().find((r) => r.id === Number(name));
        const last = run ? s.lastLearnCheckpoint(run.id) : undefined;
        if (!last?.tableFile || !last.tableSha256) return null;
        return { kind: 'network', network: { file: storedNetworkPath(s.path, last.tableFile), sha256: last.tableSha256 }, search: { depth: 0, cprob: 1e-4 } } as NetworkPlayerSpec;
      });
    } else if (kind === 'network') {
      const path = networkFiles(o.weightsDirs).get(name);
      if (!path) return null;
      const { size, mtimeMs } = statSync(path);
      const key = `${path}\0${size}\0${mtimeMs}`;
      base = specs.get(key) ?? networkPlayerSpec(path, { depth: 0, cprob: 1e-4 });
      specs.set(key, base);
    }
    return base && { ...base, search: { ...base.search, depth } };
  }

  /** The network game routes (POST start and step: they change a game; GET hint). */
  async function networkRoute(path: string, url: URL): Promise<{ status: number; body: unknown }> {
    const depth = viewerDepth(url.searchParams.get('depth') ?? '1');
    if (depth === null) return { status: 400, body: { error: `depth must be 0 to ${MAX_DEPTH} or auto` } };
    const source = url.searchParams.get('source') ?? '';
    let m: RegExpExecArray | null;
    if ((m = /^\/api\/network-game\/(\d+)\/step$/.exec(path))) return { status: 200, body: await networkGames.step(Number(m[1])) };
    const spec = networkSpecFor(source, depth);
    if (!spec) return { status: 404, body: { error: `no network "${source}" (learn:ID of a learning run with a checkpoint, or network:FILE in ${o.weightsDirs.join(', ')})` } };
    if (path === '/api/network-game/start') {
      const seed = Number(url.searchParams.get('seed'));
      if (!Number.isSafeInteger(seed) || seed < 0) return { status: 400, body: { error: 'the seed must be a whole number ≥ 0' } };
      return { status: 200, body: networkGames.start(spec, seed) };
    }
    const ranks = (url.searchParams.get('ranks') ?? '').split(',').map(Number);
    if (ranks.length !== 16 || ranks.some((r) => !Number.isInteger(r) || r < 0 || r > 15)) return { status: 400, body: { error: 'ranks: 16 whole numbers from 0 to 15, comma-separated' } };
    return { status: 200, body: await networkGames.hint(spec, ranks) };
  }

  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const network = (path === '/api/network-game/start' || /^\/api\/network-game\/\d+\/step$/.test(path)) ? 'POST' : path === '/api/network-game/hint' ? 'GET' : null;
    if (network !== null) {
      if (req.method !== network) return json(res, 405, { error: `${path}: ${network} only` });
      // A network that cannot be read, or a game forgotten, is the user's to fix: 409 with the one line.
      return void networkRoute(path, url).then(
        ({ status, body }) => json(res, status, body),
        (e: Error) => json(res, e instanceof InputError ? 409 : 500, { error: e.message }),
      );
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'only GET' });
    let m: RegExpExecArray | null;
    if (path === '/' || path === '/viewer') return html(res, 200, shell(path === '/' ? `tune2048 — ${dbName}` : 'tune2048 — game viewer'));
    if ((m = /^\/runs\/(\d+)$/.exec(path))) {
      const id = Number(m[1]);
      if (!runExists(id)) return html(res, 404, notFoundPage(`There is no run ${id} in ${o.db}.`));
      return html(res, 200, shell(`tune2048 — run ${id}`));
    }
    if ((m = /^\/assets\/([\w.-]+)$/.exec(path)) && ASSETS[m[1]]) {
      const asset = ASSETS[m[1]];
      res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-cache' });
      return void res.end(readFileSync(asset.file));
    }
    if ((m = /^\/learn\/(\d+)$/.exec(path))) {
      const id = Number(m[1]);
      if (!readStore(o.db, (s) => s.listLearnRuns().some((r) => r.id === id))) return html(res, 404, notFoundPage(`There is no learning run ${id} in ${o.db}.`));
      return html(res, 200, shell(`tune2048 — learning run ${id}`));
    }
    if (path === '/api/info') return json(res, 200, { db: o.db, start: suggest(['tune', '-c', 'quick'], o.db) });
    if (path === '/api/learn') return json(res, 200, readStore(o.db, listLearnItems));
    if ((m = /^\/api\/learn\/(\d+)$/.exec(path))) {
      const id = Number(m[1]);
      const detail = readStore(o.db, (s) => (s.listLearnRuns().some((r) => r.id === id) ? learnDetail(s, id) : null));
      if (!detail) return json(res, 404, { error: `no learning run ${id} in ${o.db}` });
      return json(res, 200, detail);
    }
    if (path === '/api/runs') return json(res, 200, readStore(o.db, listRunItems));
    if ((m = /^\/api\/runs\/(\d+)$/.exec(path))) {
      const id = Number(m[1]);
      if (!runExists(id)) return json(res, 404, { error: `no run ${id} in ${o.db}` });
      return json(res, 200, readStore(o.db, (s) => runDetail(s, id)));
    }
    if ((m = /^\/api\/runs\/(\d+)\/replay$/.exec(path))) {
      // The best's highest-scoring held-out game with its stored moves: how the viewer shows a player it cannot run.
      const id = Number(m[1]);
      if (!runExists(id)) return json(res, 404, { error: `no run ${id} in ${o.db}` });
      const replay = readStore(o.db, (s) => {
        const detail = runDetail(s, id);
        const game = detail.best ? s.bestReplay(detail.best.candidate) : null;
        return game && detail.best ? { run: id, candidate: detail.best.candidate, player: detail.best.player, seed: game.seed, score: game.score, moves: game.moveList } : null;
      });
      if (!replay) {
        // Moves are stored only for players the page cannot run; a run of weights plays in the page instead.
        const why = notPlayableInPage(`run:${id}`);
        // Not an error: where the page plays it (live), which the viewer links to.
        if (why === null) return json(res, 200, { run: id, live: `/viewer?weights=run:${id}&play=1`, note: `run ${id}'s best plays in the page (its moves are not stored): watch it at /viewer?weights=run:${id}&play=1` });
        return json(res, 409, { error: `run ${id} has no held-out game with stored moves yet: they are kept for its validation games, played at the end of the run` });
      }
      return json(res, 200, replay);
    }
    if ((m = /^\/api\/runs\/(\d+)\/export$/.exec(path))) {
      const id = Number(m[1]);
      if (!runExists(id)) return json(res, 404, { error: `no run ${id} in ${o.db}` });
      try {
        const weights = readStore(o.db, (s) => exportBest(s, id));
        return json(res, 200, weights, { 'content-disposition': `attachment; filename="run-${id}-best.json"` });
      } catch (e) {
        if (e instanceof InputError) return json(res, 409, { error: e.message });
        throw e;
      }
    }
    if (path === '/api/weights') {
      const presets = listPresets().map((name) => ({ source: `preset:${name}`, label: `preset ${name}`, description: loadWeights(name).description ?? '' }));
      const files = [...weightsFiles(o.weightsDirs).keys()].map((name) => ({ source: `file:${name}`, label: `file ${name}`, description: '' }));
      // Only runs whose best the page can play (an external program's or a network's run is replayed instead, from its run page).
      const runs = readStore(o.db, (s) => listRunItems(s).filter((r) => runNotPlayable(s, r.id) === null)).map((r) => ({ source: `run:${r.id}`, label: `run ${r.id} (${r.name}) best`, description: r.status }));
      return json(res, 200, [...presets, ...files, ...runs, ...networkSources()]);
    }
    if (path === '/api/weights/one') {
      const why = notPlayableInPage(url.searchParams.get('source') ?? '');
      if (why) return json(res, 409, { error: why });
      const weights = weightsFor(url.searchParams.get('source') ?? '');
      if (!weights) return json(res, 404, { error: `no weights "${url.searchParams.get('source')}"` });
      return json(res, 200, weights);
    }
    if (path === '/api/tables/one') {
      // The learned line tables of weights the viewer may load (never any other file), checked against their hash.
      const learned = weightsFor(url.searchParams.get('source') ?? '')?.learned;
      if (!learned) return json(res, 404, { error: `no learned tables in weights "${url.searchParams.get('source')}"` });
      try {
        const { bytes } = readNetworkFile(learned.table, learned.sha256);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' });
        return void res.end(bytes);
      } catch (e) {
        if (e instanceof InputError) return json(res, 409, { error: e.message });
        throw e;
      }
    }
    if (path.startsWith('/api/')) return json(res, 404, { error: `no API ${path}` });
    return html(res, 404, notFoundPage(`Nothing at ${path}.`));
  }

  const server = createServer((req, res) => {
    try {
      route(req, res);
    } catch (e) {
      if (!res.headersSent) json(res, e instanceof InputError ? 409 : 500, { error: (e as Error).message });
      else res.end();
    }
  });
  // An idle kept-alive connection stays open a minute (Node's default is 5 s): a client that was busy longer than
  // that (a script between two looks) would otherwise send its next request on a socket the server had closed.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  server.on('close', () => void networkGames.close());
  return server;
}

/** Listens; a port in use or a host that cannot be bound becomes one clear error. */
export function listen(server: Server, o: Pick<ServeOptions, 'port' | 'host'>): Promise<{ url: string }> {
  return new Promise((resolvePromise, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') reject(new InputError(`port ${o.port} on ${o.host} is in use; pick another with --port`));
      else if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') reject(new InputError(`cannot listen on host "${o.host}": ${e.code}`));
      else if (e.code === 'EACCES') reject(new InputError(`not allowed to listen on port ${o.port} (ports below 1024 need privileges)`));
      else reject(e);
    });
    server.listen(o.port, o.host, () => {
      const address = server.address() as { port: number };
      resolvePromise({ url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${address.port}` });
    });
  });
}
