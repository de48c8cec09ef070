/**
 * tune2048 learn with an n-tuple network, what is around the training: following a run live, its report and
 * closing hint, Ctrl-C while late starts are collected, a disk that fills during a checkpoint, checkpoints
 * whose files were changed, removed or replaced, bad configs and network files: one line each, nothing lost.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, runPrinted, startCli, waitFor } from './helpers/cli';
import { peek } from './helpers/runs';
import { checkpoints, exportedNetwork, networkFiles, smallLearnConfig } from './helpers/learn';
import { folders } from './helpers/folders';

const dir = folders('tune2048-ntuple-cli-');
const config = (extra: Record<string, unknown> = {}, where = dir()) => smallLearnConfig(where, extra);

describe('tune2048 learn with an n-tuple network: around the training', () => {
  it('learn show --follow: each checkpoint as it is stored, live, then the run\'s status when it stops (exit 0); --json one object a checkpoint', async () => {
    const db = join(dir(), 'learn.sqlite');
    const run = startCli(['learn', 'start', '-c', config({ games: 1_000_000, checkpointEvery: 500, heldOut: { games: 10, seed: 1 } }), '--db', db]);
    await waitFor(() => checkpoints(db) >= 1);
    const follow = startCli(['learn', 'show', '1', '--db', db, '--follow']);
    let text = '';
    follow.child.stdout!.on('data', (d) => (text += d));
    await waitFor(() => /checkpoint at 500 games, [\d.]+ cpu min: held-out \d+ \(10 games; 8192 \S+ 16384 \S+ 32768 \S+\); last 1000 \d+/.test(text));
    // Live: a checkpoint stored after the follow had shown what there was is shown too.
    const maxGames = () => peek<{ g: number }>(db, 'SELECT max(games) AS g FROM learn_checkpoints WHERE run_id = 1')!.g;
    const before = maxGames();
    await waitFor(() => maxGames() > before);
    const later = maxGames();
    await waitFor(() => text.includes(`checkpoint at ${later} games`));
    run.child.kill('SIGINT');
    expect((await run.done).code).toBe(130);
    const followed = await follow.done;
    expect(followed.code, followed.stderr).toBe(0);
    const curve = (JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout) as { curve: { games: number }[] }).curve;
    const lines = followed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^learning run 1 \(small tuples\): 4 tuples of 4 cells, one stage; learning rate 0.1; \d+ checkpoints? so far$/);
    expect(lines.filter((l) => l.startsWith('checkpoint at ')).map((l) => Number(/at (\d+) games/.exec(l)![1]))).toEqual(curve.map((c) => c.games));
    expect(lines.slice(-3)).toEqual(['learning run 1: stopped', '', `resume it with: tune2048 learn resume 1 --db ${db}`]);
    // A run that no longer trains is shown whole at once; --json gives each checkpoint's figures.
    const json = runCli(['learn', 'show', '1', '--db', db, '--follow', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { games: number }).games)).toEqual(curve.map((c) => c.games));
    const noRun = runCli(['learn', 'show', '--db', db, '--follow']);
    expect([noRun.code, noRun.stderr.trim()]).toEqual([2, `tune2048: --follow follows one run: give its id (tune2048 learn show --db ${db} lists them)`]);
  });

  it("the closing hint names an output that does not exist yet (an existing file would be refused without --force), and works as printed", () => {
    const where = dir();
    writeFileSync(join(where, 'network-1.bin'), 'mine');
    const db = join(where, 'learn.sqlite');
    const r = runCli(['learn', 'start', '-c', config({ games: 1000 }), '--db', db], { cwd: where });
    expect(r.code, r.stderr).toBe(0);
    const next = /^next: (.*)$/m.exec(r.stdout)![1];
    expect(next).toBe(`tune2048 learn export 1 --out network-1-2.bin --db ${db}`);
    expect(runPrinted(next, { cwd: where }).code).toBe(0);
    expect(readFileSync(join(where, 'network-1.bin'), 'utf8')).toBe('mine');
  });

  it('learn report: one offline HTML page of the run (checkpoints, the curve\'s data for its charts, the latest network, the config); an existing file is kept without --force', () => {
    const db = join(dir(), 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: 2000 }), '--db', db]).code).toBe(0);
    const out = join(dir(), 'my report.html');
    const r = runCli(['learn', 'report', '1', '--db', db, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ run: 1, out });
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script[^>]*\bsrc=|<link|https?:\/\//); // everything inline: nothing to fetch
    const shown = JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout) as { curve: { games: number; heldOut: { mean: number; rates: number[] } }[] };
    const data = JSON.parse(/<script type="application\/json" id="learn-data">(.*?)<\/script>/s.exec(html)![1]) as { curve: { games: number; heldOutMean: number }[] };
    expect(data.curve.map((c) => [c.games, c.heldOutMean])).toEqual(shown.curve.map((c) => [c.games, c.heldOut.mean]));
    for (const c of shown.curve) expect(html).toContain(`<td>${Math.round(c.heldOut.mean).toLocaleString('en-US')}</td><td>${(100 * c.heldOut.rates[0]).toFixed(1)}%</td>`);
    for (const id of ['chart-learn', 'chart-learn-rates']) expect(html).toContain(`<div id="${id}" class="chart"></div>`);
    expect(html).toContain('learn-1-2000.bin');
    expect(html).toContain('&quot;checkpointEvery&quot;: 1000');
    const again = runCli(['learn', 'report', '1', '--db', db, '--out', out]);
    expect([again.code, again.stderr.trim()]).toEqual([2, `tune2048: --out "${out}" exists; add --force to overwrite it, or name another file`]);
    expect(runCli(['learn', 'report', '1', '--db', db, '--out', out, '--force']).code).toBe(0);
    const missing = runCli(['learn', 'report', '7', '--db', db, '--out', join(dir(), 'x.html')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('Ctrl-C while the late-start boards are collected (minutes for a deep tile): stopped there, exit 130, nothing trained; resumed, it collects them, stores them with the run and trains; resumed again, it reads them back', async () => {
    const db = join(dir(), 'learn.sqlite');
    const slow = { games: 1000, checkpointEvery: 500, starts: { weights: 'tuned-d1', depth: 1, maxTile: 4096, positions: 200, share: 0.2 } };
    const run = startCli(['learn', 'start', '-c', config(slow), '--db', db]);
    await waitFor(() => peek<{ status: string }>(db, 'SELECT status FROM learn_runs WHERE id = 1')?.status === 'running');
    run.child.kill('SIGINT');
    const done = await run.done;
    expect(done.code).toBe(130);
    expect(done.stdout).toContain(`learning run 1 (small tuples) stopped at 0/1000 games`);
    expect(done.stdout).toContain(`next: tune2048 learn resume 1 --db ${db}`);
    expect(done.stderr).not.toContain('collected 200 start boards');
    expect(checkpoints(db)).toBe(0);
    expect(peek<{ status: string }>(db, 'SELECT status FROM learn_runs WHERE id = 1')!.status).toBe('stopped');
    const r = runCli(['learn', 'resume', '1', '--db', db, '--games', '500']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('collected 200 start boards holding 4096 (tuned-d1 at depth 1)');
    expect(checkpoints(db)).toBe(1);
    const again = runCli(['learn', 'resume', '1', '--db', db, '--games', '1000']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/collect/);
    expect(checkpoints(db)).toBe(2);
  });

  it('a checkpoint whose network file was changed or removed: resume says so in one line (exit 2), nothing is lost', () => {
    const db = join(dir(), 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: 2000 }), '--db', db]).code).toBe(0);
    const path = join(`${db}.networks`, 'learn-1-2000.bin');
    const good = readFileSync(path);
    const changed = Buffer.from(good);
    changed[changed.length - 5000] ^= 1; // a bit of a table entry
    writeFileSync(path, changed);
    // export checks the file whole against the checkpoint's hash as it copies it, and leaves nothing.
    const out = join(dir(), 'x.bin');
    const more = runCli(['learn', 'export', '1', '--db', db, '--out', out]);
    expect(more.code).toBe(2);
    expect(more.stderr.trim().split('\n').at(-1)).toMatch(/^tune2048: network file ".*learn-1-2000\.bin" is not the one its checkpoint stored \(sha256 \w{12}…, stored \w{12}…\)$/);
    expect(readdirSync(dirname(out))).toEqual([]);
    // resume checks it whole against the checkpoint before it changes anything.
    const resumed = runCli(['learn', 'resume', '1', '--db', db, '--games', '3000']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr.trim().split('\n').at(-1)).toMatch(/^tune2048: learning run 1's network file ".*learn-1-2000\.bin" is not the one its checkpoint at 2000 games stored \(sha256 \w{12}…, stored \w{12}…\)$/);
    rmSync(path);
    const gone = runCli(['learn', 'export', '1', '--db', db, '--out', join(dir(), 'x.bin')]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/cannot read network file ".*learn-1-2000\.bin": no such file or folder/);
    writeFileSync(path, good);
    expect(runCli(['learn', 'export', '1', '--db', db, '--out', join(dir(), 'x.bin')]).code).toBe(0);
  });

  it("resume of a run whose network files are missing or another config's: one line naming the file, exit 2, nothing changed", () => {
    const where = dir();
    const db = join(where, 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: 2000, coherence: true, learningRate: 1 }, where), '--db', db]).code).toBe(0);
    const other = join(dir(), 'other.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: 1000, network: { tuples: [[0, 1, 2, 3], [4, 5, 6, 7]] } }), '--db', other]).code).toBe(0);
    const net = join(`${db}.networks`, 'learn-1-2000.bin');
    const acc = join(`${db}.networks`, 'learn-1-2000.accumulators');
    const state = () => ({ run: peek<Record<string, unknown>>(db, 'SELECT status, error, config, finished_at FROM learn_runs WHERE id = 1'), checkpoints: checkpoints(db), files: networkFiles(db).sort() });
    const before = state();
    const refused = (pattern: RegExp) => {
      const r = runCli(['learn', 'resume', '1', '--games', '3000', '--db', db]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
    };
    const good = readFileSync(net);
    writeFileSync(net, readFileSync(join(`${other}.networks`, 'learn-1-1000.bin')));
    refused(/^tune2048: learning run 1's network file ".*learn-1-2000\.bin" holds another network \(2 tuples of 4 cells, one stage\) than the run's \(4 tuples of 4 cells, one stage\): written by another config/);
    expect(state()).toEqual({ ...before, files: before.files });
    rmSync(net);
    refused(/^tune2048: cannot read network file ".*learn-1-2000\.bin": no such file or folder/);
    writeFileSync(net, good);
    const accumulators = readFileSync(acc);
    rmSync(acc);
    refused(/^tune2048: learning run 1's accumulators file ".*learn-1-2000\.accumulators" is missing/);
    writeFileSync(acc, accumulators);
    // Files of the right shape changed inside: their hashes are not the checkpoint's.
    const changed = Buffer.from(good);
    changed[changed.length - 5000] ^= 1;
    writeFileSync(net, changed);
    refused(/^tune2048: learning run 1's network file ".*learn-1-2000\.bin" is not the one its checkpoint at 2000 games stored/);
    writeFileSync(net, good);
    const otherAccumulators = Buffer.from(accumulators);
    otherAccumulators[otherAccumulators.length - 8] ^= 1;
    writeFileSync(acc, otherAccumulators);
    refused(/^tune2048: learning run 1's accumulators file ".*learn-1-2000\.accumulators" is not the one its checkpoint at 2000 games stored/);
    writeFileSync(acc, accumulators);
    expect(state()).toEqual(before);
    expect(runCli(['learn', 'resume', '1', '--db', db, '--games', '3000']).code).toBe(0);
  });

  it('keepNetworkEvery: the network at each multiple is kept, the very one a run of that length ends with; learn export --at writes it; a wrong --at or a changed file: one line, exit 2, nothing written', () => {
    const where = dir();
    const db = join(where, 'learn.sqlite');
    const r = runCli(['learn', 'start', '-c', config({ games: 4000, keepNetworkEvery: 2000 }, where), '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    // The reference: the same config (one thread: exact to the bit) run to 2,000 games only.
    const short = dir();
    const shortDb = join(short, 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: 2000 }, short), '--db', shortDb]).code).toBe(0);
    const at2000 = exportedNetwork(shortDb, short);
    expect(networkFiles(db).sort()).toEqual(['kept-1-2000.bin', 'kept-1-4000.bin', 'learn-1-4000.bin']);
    const shown = JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout) as { keptNetworks: number[] };
    expect(shown.keptNetworks).toEqual([2000, 4000]);
    // The hint learn show prints works as printed and writes the network at 2,000 games.
    const text = runCli(['learn', 'show', '1', '--db', db], { cwd: where }).stdout;
    const hint = /^networks kept at 2000, 4000 games; write one with: (.*)$/m.exec(text)![1];
    expect(hint).toBe(`tune2048 learn export 1 --at 2000 --out network-1-2000.bin --db ${db}`);
    expect(runPrinted(hint, { cwd: where }).code).toBe(0);
    expect(readFileSync(join(where, 'network-1-2000.bin')).equals(at2000)).toBe(true);
    expect(readFileSync(join(where, 'network-1-2000.bin')).equals(exportedNetwork(db, where))).toBe(false);
    const out = join(where, 'out.bin');
    const refused = (args: string[], message: RegExp) => {
      const e = runCli(['learn', 'export', '1', '--db', db, '--out', out, ...args]);
      expect([e.code, e.stderr.trim().split('\n').length], e.stderr).toEqual([2, 1]);
      expect(e.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    };
    refused(['--at', '3000'], /^tune2048: --at: learning run 1 kept no network at 3000 games \(its config keeps one every 2000 games; it holds the networks at 2000, 4000 games\)$/m);
    refused(['--at', '5000'], /^tune2048: --at: learning run 1 has no checkpoint at 5000 games \(it holds the networks at 2000, 4000 games\)$/m);
    refused(['--at', '0'], /--at/);
    const kept = join(`${db}.networks`, 'kept-1-2000.bin');
    const bytes = readFileSync(kept);
    const changed = Buffer.from(bytes);
    changed[changed.length - 1] ^= 1;
    rmSync(kept); // a new file, not the checkpoint's hard link changed in place
    writeFileSync(kept, changed);
    refused(['--at', '2000'], /network file ".*kept-1-2000\.bin" is not the one its checkpoint stored/);
    // The latest checkpoint's network is untouched by it.
    expect(runCli(['learn', 'export', '1', '--db', db, '--out', out, '--at', '4000']).code).toBe(0);
    expect(readFileSync(out).equals(exportedNetwork(db, where))).toBe(true);
    // A kill between the checkpoint at 4,000 games and its keeping: the next resume keeps it, then goes on
    // (and removes the half copy a kill left where the file system has no hard links).
    rmSync(join(`${db}.networks`, 'kept-1-4000.bin'));
    writeFileSync(join(`${db}.networks`, 'kept-1-4000.bin.part'), 'half');
    const resumed = runCli(['learn', 'resume', '1', '--db', db, '--games', '6000']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(networkFiles(db).sort()).toEqual(['kept-1-2000.bin', 'kept-1-4000.bin', 'kept-1-6000.bin', 'learn-1-6000.bin']);
    expect(readFileSync(join(`${db}.networks`, 'kept-1-4000.bin')).equals(readFileSync(out))).toBe(true);
  });

  it('bad configs: one line naming the field, exit 2, no database created', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ network: { tuples: [[0, 1, 1]] } }, /network\.tuples\[0\]: cell 1 is repeated/],
      [{ network: { tuples: [[0, 1, 2, 3, 4, 5, 6]] } }, /has 7 cells; a tuple has at most 6/],
      [{ network: { tuples: [] } }, /network\.tuples is empty/],
      [{ network: { stages: [{ maxTile: [2, 4096] }, { maxTile: [4096, 32768] }] } }, /overlap: both hold boards whose largest tile is 4096/],
      [{ network: { stages: [{ maxTile: [2, 1024] }] } }, /leave boards whose largest tile is 2048 in no stage/],
      [{ learningRate: 0 }, /learningRate/],
      [{ threads: 0 }, /threads/],
      [{ rateChanges: [{ games: 4000, learningRate: 0.05 }, { games: 4000, learningRate: 0.02 }] }, /field "rateChanges\.1\.games": 4000 must be above the change before it \(4000\)/],
      [{ rateChanges: [{ games: 4000, learningRate: 2 }] }, /field "rateChanges\.0\.learningRate": must be at most 1/],
      [{ network: undefined, threads: undefined, heldOut: undefined, rateChanges: [{ games: 10, learningRate: 0.05 }] }, /field "rateChanges": threads, heldOut, rateChanges, coherence, lambda, restarts and keepNetworkEvery are for n-tuple networks/],
      [{ network: undefined, threads: undefined, heldOut: undefined, lambda: 0.5 }, /field "lambda": threads, heldOut, rateChanges, coherence, lambda, restarts and keepNetworkEvery are for n-tuple networks/],
      [{ network: undefined, threads: undefined, heldOut: undefined, restarts: {} }, /field "restarts": .* are for n-tuple networks/],
      [{ lambda: 1.5 }, /field "lambda": must be from 0 to 1/],
      [{ lambda: -0.1 }, /field "lambda": must be from 0 to 1/],
      [{ lambda: '0.5' }, /field "lambda"/],
      [{ restarts: { at: 1 } }, /field "restarts\.at": must be above 0 and below 1/],
      [{ restarts: { at: 0 } }, /field "restarts\.at": must be above 0 and below 1/],
      [{ restarts: { minMoves: -1 } }, /field "restarts\.minMoves": must be at least 1/],
      [{ restarts: { minMoves: 2.5 } }, /field "restarts\.minMoves": must be a whole number/],
      [{ restarts: { maxInRow: 0 } }, /field "restarts\.maxInRow": must be at least 1/],
      [{ restarts: { every: 3 } }, /restarts.*every/],
      [{ keepNetworkEvery: 1500 }, /field "keepNetworkEvery": 1500 is not a multiple of checkpointEvery \(1000\)/],
      [{ keepNetworkEvery: 0 }, /field "keepNetworkEvery": must be at least 1/],
      [{ network: undefined, threads: undefined, heldOut: undefined, keepNetworkEvery: 2000 }, /field "keepNetworkEvery": .* are for n-tuple networks/],
    ];
    for (const [change, message] of cases) {
      const db = join(dir(), 'never.sqlite');
      const r = runCli(['learn', 'start', '-c', config(change), '--db', db]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(existsSync(db)).toBe(false);
    }
  });
});

describe('network players: bad input', () => {
  it('play and compare with a missing or foreign network file: one line, exit 2', () => {
    const missing = runCli(['play', '--player', 'network:/nonexistent/net.bin', '-n', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read network file "\/nonexistent\/net\.bin": no such file or folder/);
    const foreign = join(dir(), 'foreign.bin');
    mkdirSync(dir(), { recursive: true });
    writeFileSync(foreign, 'not a network');
    const c = runCli(['compare', `network:${foreign}`, 'nneonneo', '-n', '2']);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/is not a tune2048 network file/);
  });
});
