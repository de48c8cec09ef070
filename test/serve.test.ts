/// <reference lib="dom" />
/**
 * tune2048 serve end to end, in real headless Chromium: the runs page lists a
 * run this test started, the run page's generation count rises while the tune
 * writes (no reload), the viewer plays a seeded game to the same final score
 * as `tune2048 play`, hint mode agrees with `tune2048 hint`, the static report
 * draws its charts — all without console errors. Plus the bad inputs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, openPage } from './helpers/browser';
import { runCli, startCli, waitFor, waitForOutput, type RunningCli } from './helpers/cli';
import { SLOW, SMOKE, gamesIn, peek, tempDb, writeConfig } from './helpers/runs';
import { handBuiltRun } from './helpers/front-run';
import { networkFrontConfig, trainSmallNetwork } from './helpers/network';
import { PUBLISHED_NETWORK_ROWS } from '../src/report/published';

let browser: Browser;
const errors: string[] = [];
const started: RunningCli[] = [];

/** Starts `serve` on a free port and returns its URL (the one line it prints on stdout). */
async function serve(db: string, extra: string[] = []): Promise<string> {
  const s = startCli(['serve', '--db', db, '--port', '0', ...extra]);
  started.push(s);
  let out = '';
  s.child.stdout!.on('data', (d) => (out += d));
  await waitForOutput(s, 'stdout', /^http:\/\/\S+\n/);
  return out.trim().split('\n')[0];
}

beforeAll(async () => {
  browser = await launchBrowser();
});

/** The board hint mode sets up: 2 4 / 2 8 in the top-left corner. */
const HINT_BOARD = '2 4 0 0/2 8 0 0/0 0 0 0/0 0 0 0';

/** Sets HINT_BOARD up in the viewer's hint mode (a click raises a tile by one rank) and asks for the best move. */
async function askHint(page: Page): Promise<void> {
  await page.click('#hint-mode');
  await page.click('#hint-clear');
  const cells = await page.$$('#board .cell');
  for (const [cell, clicks] of [[0, 1], [1, 2], [4, 1], [5, 3]] as const) for (let i = 0; i < clicks; i++) await cells[cell].click();
  await page.click('#hint-go');
  await page.waitForSelector('#hint-move');
}

afterAll(async () => {
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await browser?.close();
});

describe('tune2048 serve in Chromium', () => {
  it('lists a running tune, and its page follows the generations live', async () => {
    const db = tempDb();
    // Depth-2 games: a generation takes seconds, long enough to be watched rising.
    const tune = startCli(['tune', '-c', writeConfig({ ...SLOW, name: 'live', fitness: { games: 12, depth: 2 } }), '--db', db]);
    started.push(tune);
    await waitFor(() => gamesIn(db) > 0);
    const url = await serve(db);
    const page = await openPage(browser, errors);
    await page.goto(url);
    await page.waitForSelector('#runs-table a[href="/runs/1"]');
    expect(await page.$eval('#runs-table tbody tr', (tr) => tr.textContent)).toMatch(/live.*running/);

    await page.goto(`${url}/runs/1`);
    await page.waitForSelector('#generation');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42)); // gone if the page reloads
    const generation = async () => Number(/generation (\d+) of/.exec((await page.$eval('#generation', (e) => e.textContent)) ?? '')![1]);
    const first = await generation();
    await page.waitForFunction((n) => Number(/generation (\d+) of/.exec(document.getElementById('generation')?.textContent ?? '')?.[1]) > n, { timeout: 240_000 }, first);
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);
    expect(await generation()).toBeGreaterThan(first);
    expect(await page.$$eval('#chart-fitness canvas', (c) => c.length)).toBe(1); // uPlot drew the fitness chart
    tune.child.kill('SIGINT');
    const t = await tune.done;
    expect(t.stderr).not.toMatch(/locked|busy/i); // the dashboard's reads never stood in the writer's way
  });

  it('a run validating its finalists says so on its page, with the held-out games played of those planned', async () => {
    const db = tempDb();
    const config = { ...SMOKE, optimizer: { ...SMOKE.optimizer, generations: 1 }, fitness: { ...SMOKE.fitness, depth: 1 }, validation: { finalists: 2, games: 400 } };
    const tune = startCli(['tune', '-c', writeConfig(config), '--db', db, '--workers', '2']);
    started.push(tune);
    const validated = () => peek<{ n: number }>(db, "SELECT count(*) AS n FROM games WHERE purpose = 'validation'")?.n ?? 0;
    await waitFor(() => validated() >= 10);
    const url = await serve(db);
    const page = await openPage(browser, errors);
    await page.goto(`${url}/runs/1`);
    await page.waitForSelector('#phase');
    expect(await page.$eval('#phase', (e) => e.textContent)).toMatch(/^validating: [\d,]+ of 1,200 held-out games$/);
    await page.goto(url);
    await page.waitForSelector('#runs-table .generation');
    expect(await page.$eval('#runs-table .generation', (e) => e.textContent)).toBe('1 / 1, validating');
    tune.child.kill('SIGKILL');
  });

  it("the viewer replays an external player's stored best held-out game to its stored score (the page cannot run the program)", async () => {
    const db = tempDb();
    const fixture = join(__dirname, 'fixtures', 'players', 'fixture-player.js');
    const config = { ...SMOKE, space: { start: 'defaults' }, fitness: { games: 4, player: { kind: 'external', name: 'fixture', command: [process.execPath, fixture, 'good'] } } };
    expect((await startCli(['tune', '-c', writeConfig(config), '--db', db]).done).code).toBe(0);
    const best = peek<{ score: number; moves: number }>(db, "SELECT g.score, g.moves FROM games g JOIN runs r ON r.best_candidate = g.candidate_id WHERE g.purpose = 'validation' ORDER BY g.score DESC, g.seed LIMIT 1")!;
    const url = await serve(db);
    const page = await openPage(browser, errors);
    await page.goto(`${url}/runs/1`);
    await page.waitForSelector('a[href="/viewer?replay=run:1&play=1"]');
    await page.goto(`${url}/viewer?replay=run:1&speed=max`);
    await page.waitForSelector('#replay-note');
    expect(await page.$eval('#replay-note', (e) => e.textContent)).toMatch(/the external player fixture 1 on seed \d+/);
    // The controls name what plays: the run's stored game, not the page's weights, player kind or depth.
    expect(await page.$$eval('#weights option, #player option, #depth option', (os) => os.map((o) => o.textContent))).toEqual(['run:1: its stored game', "the run's own", 'its own']);
    await page.click('#start');
    await page.waitForSelector('#final-score', { timeout: 240_000 });
    expect(Number(await page.$eval('#final-score', (e) => e.textContent))).toBe(best.score);
    expect(Number(await page.$eval('#moves', (e) => e.textContent))).toBe(best.moves);
    expect(await page.$('#replay-note')).not.toBeNull(); // still named after every move
    // The page cannot play it: the weights list does not offer it, and the API says why and what to open.
    const listed = (await (await fetch(`${url}/api/weights`)).json()) as { source: string }[];
    expect(listed.map((w) => w.source)).not.toContain('run:1');
    const refused = await fetch(`${url}/api/weights/one?source=run:1`);
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([409, 'run 1 tuned the external player "fixture", a program the page cannot run; watch its best held-out game replayed instead: /viewer?replay=run:1']);
    // A built-in player's run keeps no moves: the API points to its play in the page, and "watch the best play" starts it.
    const builtIn = tempDb();
    expect((await startCli(['tune', '-c', writeConfig(SMOKE), '--db', builtIn]).done).code).toBe(0);
    const other = await serve(builtIn);
    const r = await fetch(`${other}/api/runs/1/replay`);
    // Not an error (issue 67): 200, with where the page plays it.
    expect([r.status, await r.json()]).toEqual([200, { run: 1, live: '/viewer?weights=run:1&play=1', note: "run 1's best plays in the page (its moves are not stored): watch it at /viewer?weights=run:1&play=1" }]);
    // Opened as a replay anyway, the viewer says where it plays (a link, not an error) over its seed's first board (issue 67).
    await page.goto(`${other}/viewer?replay=run:1`);
    await page.waitForSelector('#live-link');
    expect(await page.$eval('#status', (e) => e.textContent)).not.toMatch(/error/);
    expect(await page.$eval('#live-link', (e) => e.getAttribute('href'))).toBe('/viewer?weights=run:1&play=1');
    // A viewer opened to play shows the seed's first board before play: two tiles, not an empty grid.
    await page.goto(`${other}/viewer?seed=7`);
    await page.waitForFunction(() => Array.from(document.querySelectorAll('#board .cell')).filter((c) => c.textContent !== '').length === 2, { timeout: 60_000 });
    await page.goto(`${other}/runs/1`);
    await page.waitForSelector('a[href="/viewer?weights=run:1&play=1"]');
    await page.goto(`${other}/viewer?weights=run:1&play=1&speed=max`);
    await page.waitForSelector('#final-score', { timeout: 240_000 }); // played without a click
    // A long line in the side panel wraps there: the panel stays beside the board.
    await page.setViewport({ width: 1000, height: 800 });
    await page.$eval('#status', (e) => (e.textContent = `error: ${'a-long-message '.repeat(40)}`));
    const [board, panel] = await Promise.all(['#board', '.side-panel'].map((q) => page.$eval(q, (e) => e.getBoundingClientRect().top)));
    expect(panel).toBeLessThan(board + 50);
    expect(errors).toEqual([]);
  });

  it('the viewer plays a seeded game to the final score `tune2048 play` gives, and hint mode agrees with `tune2048 hint`', async () => {
    const db = tempDb();
    expect((await startCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).done).code).toBe(0);
    const url = await serve(db);
    const expected = JSON.parse(runCli(['play', '-w', 'tuned-d1', '-n', '1', '-s', '5', '-d', '1', '--json']).stdout).games[0];
    const page = await openPage(browser, errors);
    await page.goto(`${url}/viewer?weights=preset:tuned-d1&depth=1&seed=5&speed=max`);
    await page.waitForSelector('#weights option[value="preset:tuned-d1"]');
    await page.click('#start');
    await page.waitForSelector('#final-score', { timeout: 240_000 });
    expect(Number(await page.$eval('#final-score', (e) => e.textContent))).toBe(expected.score);
    expect(Number(await page.$eval('#moves', (e) => e.textContent))).toBe(expected.moves);

    // Weights of version 2 (stages: the tables switch when the largest tile reaches 1024) play there as here.
    const staged = JSON.parse(runCli(['play', '-w', 'haskell-staged', '-n', '1', '-s', '5', '-d', '1', '--json']).stdout).games[0];
    expect(staged.maxTile).toBeGreaterThanOrEqual(1024); // the game reached the late stage
    await page.goto(`${url}/viewer?weights=preset:haskell-staged&depth=1&seed=5&speed=max`);
    await page.waitForSelector('#weights option[value="preset:haskell-staged"]');
    await page.click('#start');
    await page.waitForSelector('#final-score', { timeout: 240_000 });
    expect(Number(await page.$eval('#final-score', (e) => e.textContent))).toBe(staged.score);
    await page.goto(`${url}/viewer?weights=preset:tuned-d1&depth=1&seed=5&speed=max`);
    await page.waitForSelector('#weights option[value="preset:tuned-d1"]');

    await askHint(page);
    const cli = JSON.parse(runCli(['hint', '-w', 'tuned-d1', '-d', '1', '--json', HINT_BOARD]).stdout);
    expect(await page.$eval('#hint-move', (e) => e.textContent)).toBe(cli.best);
  });

  it("a finished run's page: the export button downloads the exported weights; the static report draws its charts", async () => {
    const db = tempDb();
    expect((await startCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).done).code).toBe(0);
    const url = await serve(db);
    const page = await openPage(browser, errors);
    await page.goto(`${url}/runs/1`);
    await page.waitForSelector('#export:not(.disabled)');
    const href = await page.$eval('#export', (a) => (a as HTMLAnchorElement).href);
    const downloaded = await page.evaluate(async (h) => (await fetch(h)).text(), href);
    const strip = (t: string) => JSON.parse(t, (k, v) => (k === 'exportedAt' ? undefined : v));
    expect(strip(downloaded)).toEqual(strip(runCli(['export', '1', '--db', db, '--json']).stdout).weights);
    expect(await page.$$eval('canvas', (c) => c.length)).toBeGreaterThanOrEqual(3);

    const report = join(mkdtempSync(join(tmpdir(), 'tune2048-r-')), 'report.html');
    expect(runCli(['report', '1', '--db', db, '--out', report]).code).toBe(0);
    await page.goto(`file://${report}`);
    await page.waitForSelector('#chart-fitness canvas');
    expect(await page.$$eval('canvas', (c) => c.length)).toBeGreaterThanOrEqual(3);
    // A static page's legends name the series, with no "--" where a hovered value would go.
    const legends = await page.$$eval('.u-legend', (ls) => ls.map((l) => l.textContent ?? ''));
    expect(legends.length).toBeGreaterThan(0);
    for (const l of legends) expect(l).not.toContain('--');
  });

  it("a two-objective run's report draws its validated front, each point in the legend's series", async () => {
    const { db } = handBuiltRun();
    const report = join(mkdtempSync(join(tmpdir(), 'tune2048-r-')), 'front.html');
    expect(runCli(['report', '1', '--db', db, '--out', report]).code).toBe(0);
    const page = await openPage(browser, errors);
    await page.goto(`file://${report}`);
    await page.waitForSelector('#chart-front canvas');
    expect(JSON.parse(await page.$eval('#chart-front', (e) => (e as HTMLElement).dataset.series ?? '[]'))).toEqual(['the validated front (held-out)']);
    expect(await page.$eval('#chart-front .u-legend', (l) => l.textContent ?? '')).toContain('held-out ± 95 %'.replace('±', '−'));
  });

  it('weights with learned line tables: the page fetches the tables and plays the same game as the CLI', async () => {
    const db = tempDb();
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-learned-'));
    const config = join(dir, 'learn.json');
    writeFileSync(config, JSON.stringify({ format: 'tune2048/learn', name: 'viewer', seed: 1, games: 2000, learningRate: 0.25 }));
    expect(runCli(['learn', 'start', '-c', config, '--db', db]).code).toBe(0);
    expect(runCli(['learn', 'export', '1', '--db', db, '--out', join(dir, 'lines.bin'), '--base', 'tuned-d1', '--weight', '2', '--weights-out', join(dir, 'learned.json')]).code).toBe(0);
    const expected = JSON.parse(runCli(['play', '-w', join(dir, 'learned.json'), '-n', '1', '-s', '5', '-d', '1', '--json']).stdout).games[0];
    const url = await serve(db, ['--weights-dir', dir]);
    const page = await openPage(browser, errors);
    await page.goto(`${url}/viewer?weights=file:learned.json&depth=1&seed=5&speed=max`);
    await page.waitForSelector('#weights option[value="file:learned.json"]');
    await page.click('#start');
    await page.waitForSelector('#final-score', { timeout: 240_000 });
    expect(Number(await page.$eval('#final-score', (e) => e.textContent))).toBe(expected.score);
    expect(Number(await page.$eval('#moves', (e) => e.textContent))).toBe(expected.moves);
  });

  it('a network plays live on the server: the viewer watches it move by move (values, depth and the search\'s time) to the final score `tune2048 play` gives; hint mode asks the server', async () => {
    const db = tempDb();
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-net-viewer-'));
    const config = join(dir, 'learn.json');
    writeFileSync(config, JSON.stringify({ format: 'tune2048/learn', name: 'small', seed: 3, games: 400, learningRate: 0.1, checkpointEvery: 200, network: { tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5]] }, heldOut: { games: 4, seed: 99 } }));
    expect(runCli(['learn', 'start', '-c', config, '--db', db]).code).toBe(0);
    const net = join(dir, 'small.bin');
    expect(runCli(['learn', 'export', '1', '--db', db, '--out', net]).code).toBe(0);
    const expected = JSON.parse(runCli(['play', '--player', `network:${net}`, '-n', '1', '-s', '5', '-d', '1', '--json']).stdout).games[0];
    const url = await serve(db, ['--weights-dir', dir]);
    const page = await openPage(browser, errors);
    await page.goto(`${url}/viewer?weights=network:small.bin&depth=1&seed=5`);
    await page.waitForSelector('#weights option[value="network:small.bin"]');
    expect(await page.$('#weights option[value="learn:1"]')).not.toBeNull(); // the learning run's own network too
    expect(await page.$eval('#player', (e) => (e as HTMLSelectElement).disabled)).toBe(true);
    // It names what plays (not a greyed "expectimax"); another source brings the player kinds back.
    expect(await page.$$eval('#player option', (os) => os.map((o) => o.textContent))).toEqual(["the network's search"]);
    await page.select('#weights', 'preset:nneonneo');
    expect(await page.$eval('#player', (e) => [(e as HTMLSelectElement).disabled, (e as HTMLSelectElement).value])).toEqual([false, 'expectimax']);
    await page.select('#weights', 'network:small.bin');
    expect(await page.$$eval('#player option', (os) => os.map((o) => o.textContent))).toEqual(["the network's search"]);
    // One move at a time: each comes with the depth searched and the server's time.
    await page.click('#start');
    await page.waitForSelector('#step:not([disabled])'); // the server's game has started (a click before would be lost)
    await page.click('#step');
    await page.waitForFunction(() => /^moved (up|down|left|right) · depth 1, [\d.]+ ms on the server$/.test(document.getElementById('status')!.textContent ?? ''));
    expect(await page.$$eval('#values tbody td:nth-child(2)', (cells) => cells.filter((c) => /^-?\d+$/.test(c.textContent ?? '')).length)).toBeGreaterThan(0);
    // Then at full speed, to the end: the game `tune2048 play` plays on that seed.
    await page.$eval('#speed', (e) => ((e as HTMLInputElement).value = '61'));
    await page.click('#pause');
    await page.waitForSelector('#final-score', { timeout: 240_000 });
    expect(Number(await page.$eval('#final-score', (e) => e.textContent))).toBe(expected.score);
    expect(Number(await page.$eval('#moves', (e) => e.textContent))).toBe(expected.moves);

    // Hint mode, decided by the server as `tune2048 hint` decides it.
    await askHint(page);
    const cli = JSON.parse(runCli(['hint', '--player', `network:${net}`, '-d', '1', '--json', HINT_BOARD]).stdout);
    expect(await page.$eval('#hint-move', (e) => e.textContent)).toBe(cli.best);
    expect(await page.$eval('#hint-result', (e) => e.textContent)).toMatch(/on the server$/);

    // A game the server does not know (restarted, or forgotten): one line that says what to do.
    const r = await fetch(`${url}/api/network-game/999/step`, { method: 'POST' });
    expect([r.status, ((await r.json()) as { error: string }).error]).toEqual([409, 'no game 999 on this server (it keeps the last 32, and forgets them when it restarts): press play again']);
    expect((await fetch(`${url}/api/network-game/start?source=network:nope.bin&seed=1`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${url}/api/network-game/start?source=network:small.bin&seed=1`)).status).toBe(405); // a game is started by POST
  });

  it('a learning run of an n-tuple network: listed on the runs page, its page draws the held-out curve and lists its checkpoints', async () => {
    const db = tempDb();
    const config = join(mkdtempSync(join(tmpdir(), 'tune2048-cfg-')), 'learn.json');
    writeFileSync(config, JSON.stringify({ format: 'tune2048/learn', name: 'tuples', seed: 2, games: 3000, learningRate: 0.1, checkpointEvery: 1000, network: { tuples: [[0, 1, 2, 3], [4, 5, 6, 7]] }, heldOut: { games: 20, seed: 99 } }));
    expect(runCli(['learn', 'start', '-c', config, '--db', db]).code).toBe(0);
    const url = await serve(db);
    const page = await openPage(browser, errors);
    await page.goto(url);
    await page.waitForSelector('#learn-table a[href="/learn/1"]');
    expect(await page.$eval('#learn-table tbody tr', (tr) => tr.textContent)).toMatch(/tuples.*2 tuples of 4 cells, one stage.*finished.*3,000 \/ 3,000/);
    // The database holds a learning run and no tuning run: the page says which it has none of.
    await page.waitForSelector('#no-tuning-runs');
    // It says how to start one: the command as it runs where the server was started, with this database.
    await page.waitForFunction(() => document.getElementById('no-tuning-runs')!.textContent!.includes('Start one'));
    expect(await page.$eval('#no-tuning-runs', (p) => p.textContent)).toBe(`No tuning runs in this database yet. Start one with tune2048 tune -c quick --db ${db}.`);
    await page.goto(`${url}/learn/1`);
    await page.waitForSelector('#checkpoints-table');
    // "watch it play": the viewer with the run's latest network chosen, playing.
    const watch = await page.$eval('#learn-watch', (a) => (a as HTMLAnchorElement).getAttribute('href'));
    expect(watch).toBe('/viewer?weights=learn:1&depth=1&play=1');
    const viewer = await openPage(browser, errors);
    await viewer.goto(`${url}${watch}`);
    await viewer.waitForFunction(() => (document.getElementById('weights') as HTMLSelectElement | null)?.value === 'learn:1');
    await viewer.close();
    await page.goto(`${url}/learn/1`);
    await page.waitForSelector('#checkpoints-table');
    expect(await page.$$eval('#checkpoints-table tbody tr', (rows) => rows.length)).toBe(3);
    expect(await page.$$eval('#chart-learn canvas', (c) => c.length)).toBe(1);
    const shown = JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout) as { curve: { heldOut: { mean: number } }[] };
    const last = Math.round(shown.curve[2].heldOut.mean).toLocaleString('en-US');
    expect(await page.$eval('#checkpoints-table tbody tr:last-child', (tr) => tr.textContent)).toContain(last);
    // Both groups of tile rates, each column saying which games it counts, as learn show has them.
    const head = await page.$$eval('#checkpoints-table th', (ths) => ths.map((t) => t.textContent));
    for (const tile of ['2048', '4096', '8192', '16384', '32768']) expect(head).toEqual(expect.arrayContaining([`training: ${tile}`, `held-out: ${tile}`]));
    const csv = decodeURIComponent((await page.$eval('#checkpoints-csv', (a) => (a as HTMLAnchorElement).href)).replace(/^data:text\/csv;charset=utf-8,/, ''));
    expect(csv.split('\n')).toHaveLength(4); // the head and the three checkpoints
    // At 700 px the wide table scrolls in its box; the page itself does not overflow.
    await page.setViewport({ width: 700, height: 800 });
    await page.reload();
    await page.waitForSelector('#checkpoints-table');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(700);
    // Its offline report draws the same two charts from the data in the page, nothing fetched; its table, the same rows.
    const report = join(mkdtempSync(join(tmpdir(), 'tune2048-learn-report-')), 'learn.html');
    expect(runCli(['learn', 'report', '1', '--db', db, '--out', report]).code).toBe(0);
    await page.goto(`file://${report}`);
    await page.waitForSelector('#chart-learn-rates canvas');
    expect(await page.$$eval('canvas', (c) => c.length)).toBe(2);
    expect(await page.$eval('.table-scroll tbody tr:last-child', (tr) => tr.textContent)).toContain(last);
  });

  it("a network's front page: the y axis spans the run's own points (each marked), the published levels far above are named under the chart, it fits 1280 px, no empty section, the network named as one", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-netfront-'));
    await trainSmallNetwork({ tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [4, 5, 8, 9]], stages: [{ maxTile: [2, 32768] }], promote: true }, join(dir, 'net.bin'), 4, 1000);
    const config = join(dir, 'front.json');
    writeFileSync(config, JSON.stringify(networkFrontConfig(4)));
    const db = tempDb();
    const tuned = runCli(['tune', '-c', config, '--db', db, '--workers', '2']);
    expect(tuned.code, tuned.stderr).toBe(0);
    const url = await serve(db);
    const page = await openPage(browser, errors);
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${url}/runs/1`);
    await page.waitForSelector('#chart-front[data-y-range]');
    const chart = await page.$eval('#chart-front', (e) => ({ ...(e as HTMLElement).dataset }));
    const front = (JSON.parse(runCli(['show', '1', '--db', db, '--json']).stdout) as { front: { validation: number; halfWidth: number | null }[] }).front;
    const [low, high] = JSON.parse(chart.yRange!) as [number, number];
    expect(low).toBeLessThanOrEqual(Math.min(...front.map((p) => p.validation - (p.halfWidth ?? 0))));
    expect(high).toBeGreaterThanOrEqual(Math.max(...front.map((p) => p.validation + (p.halfWidth ?? 0))));
    expect(high).toBeLessThan(2 * Math.max(...front.map((p) => p.validation + (p.halfWidth ?? 0))) + 1000); // not stretched to the published 200,000+
    expect(JSON.parse(chart.markers!)).toContain('the validated front (held-out)');
    const notes = await page.$$eval('#chart-front .chart-notes li', (li) => li.map((l) => l.textContent));
    expect(notes).toHaveLength(PUBLISHED_NETWORK_ROWS.length);
    for (const note of notes) expect(note).toMatch(/^published: .*\(above this chart\)$/);
    expect(await page.$('#chart-step')).toBeNull();
    expect(await page.$$eval('h2', (h) => h.map((x) => x.textContent))).not.toContain('Step size');
    expect(await page.$eval('#best', (e) => e.textContent)).toMatch(/of the network net\.bin \(sha256 [0-9a-f]{12}…\)/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    // The front's table whole in its box: no column (the settings) hidden behind a scroll.
    expect(await page.$eval('#front-table', (t) => [t.parentElement!.scrollWidth, t.parentElement!.clientWidth])).toSatisfy(([scroll, client]: number[]) => scroll <= client);
  });

  it('no page logged a console error', () => {
    expect(errors).toEqual([]);
  });
});

describe('tune2048 serve: bad input', () => {
  it('an unknown run is a 404 page that says so; an unknown API path a 404 JSON', async () => {
    const db = tempDb();
    expect((await startCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).done).code).toBe(0);
    const url = await serve(db);
    const page = await fetch(`${url}/runs/99`);
    expect(page.status).toBe(404);
    expect(await page.text()).toMatch(/There is no run 99 in /);
    const api = await fetch(`${url}/api/runs/99`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: string }).error).toMatch(/no run 99/);
  });

  it('a missing or foreign database, or a port in use: one clear error, non-zero exit', async () => {
    const missing = runCli(['serve', '--db', join(mkdtempSync(join(tmpdir(), 'tune2048-s-')), 'none.sqlite')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toMatch(/^tune2048: no database at ".*none\.sqlite"/);
    const foreign = join(mkdtempSync(join(tmpdir(), 'tune2048-s-')), 'foreign.sqlite');
    writeFileSync(foreign, 'not a database at all, just text that is long enough to be read as a header.........');
    const f = runCli(['serve', '--db', foreign]);
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/is not a SQLite database/);
    const db = tempDb();
    expect((await startCli(['tune', '-c', writeConfig(SMOKE), '--db', db]).done).code).toBe(0);
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const busy = runCli(['serve', '--db', db, '--port', String(port)]);
      expect(busy.code).toBe(2);
      expect(busy.stderr.trim()).toBe(`tune2048: port ${port} on 127.0.0.1 is in use; pick another with --port`);
    } finally {
      blocker.close();
    }
    expect(peek(db, 'SELECT 1 AS one')).toEqual({ one: 1 }); // serve wrote nothing: the file is as the tune left it
  });
});
