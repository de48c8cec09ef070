// Builds the web front end into build/web (git-ignored): the dashboard, the viewer's search worker and
// the report's chart script, bundled by esbuild with uPlot, plus the CSS. Part of `npm run build` and `npm test`.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build', 'web');
mkdirSync(out, { recursive: true });

// The engine's Node-only corners (reading presets, build/search.wasm and network files from disk, the root
// split's threads) are never reached in a browser (the page hands the module's bytes over; it searches with one
// thread per Web Worker); they resolve to stubs that say so if they ever are.
const nodeStubs = {
  name: 'node-stubs',
  setup(b) {
    b.onResolve({ filter: /^node:(fs|fs\/promises|path|worker_threads|crypto|os|zlib|v8|vm|module)$/ }, (a) => ({ path: a.path, namespace: 'node-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'node-stub' }, () => ({
      contents: `const no = () => { throw new Error('no file system in the browser'); };
        export const readFileSync = no, existsSync = () => false, readdirSync = () => [], statSync = no, realpathSync = no;
        export const join = (...p) => p.join('/'), resolve = (...p) => p.join('/'), dirname = (p) => p, basename = (p) => p.split('/').pop(), isAbsolute = (p) => p.startsWith('/'), relative = no, delimiter = ':';
        export const MessageChannel = no, Worker = no, receiveMessageOnPort = no, workerData = null, createHash = no;
        export const openSync = no, readSync = no, writeSync = no, closeSync = no, fsyncSync = no, renameSync = no, rmSync = no, freemem = no, crc32 = no;
        export const setFlagsFromString = no, runInNewContext = no, open = no, rename = no, rm = no, createRequire = no;`,
      loader: 'js',
    }));
  },
};

const common = { bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: true, sourcemap: false, define: { __dirname: '"/"' }, plugins: [nodeStubs], logLevel: 'warning' };
await Promise.all([
  build({ ...common, entryPoints: [join(root, 'src/web/client/dashboard.ts')], outfile: join(out, 'dashboard.js') }),
  build({ ...common, entryPoints: [join(root, 'src/web/client/search-worker.ts')], outfile: join(out, 'search-worker.js') }),
  build({ ...common, entryPoints: [join(root, 'src/web/client/report-charts.ts')], outfile: join(out, 'report-charts.js') }),
]);
copyFileSync(join(root, 'node_modules/uplot/dist/uPlot.min.css'), join(out, 'uPlot.min.css'));
copyFileSync(join(root, 'src/web/dashboard.css'), join(out, 'dashboard.css'));
