/**
 * tune2048 learn with an n-tuple network as a user runs it: start to the end with held-out games at each
 * checkpoint, show and export, the exported network playing the held-out games' scores through play and
 * compare; kill -9 and Ctrl-C mid-run, each resumed to the very tables of a run never stopped (one thread).
 * (learn-ntuple-checks.test.ts: following, reports, a full disk, damaged checkpoints and bad configs.)
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runPrinted, startCli, waitFor } from './helpers/cli';
import { peek } from './helpers/runs';
import { checkpoints, exportedNetwork, networkFiles, smallLearnConfig } from './helpers/learn';
import { folders } from './helpers/folders';

const dir = folders('tune2048-ntuple-cli-');
const GAMES = 4000;
const EVERY = 1000;
const config = (extra: Record<string, unknown> = {}, where = dir()) => smallLearnConfig(where, extra);
const exported = (db: string) => exportedNetwork(db, dir());

describe('tune2048 learn with an n-tuple network', () => {
  let uninterrupted: Buffer;

  it('start runs to the end: a checkpoint every 1,000 games with its held-out games, one network file kept; show draws the curve', () => {
    const db = join(dir(), 'learn.sqlite');
    const r = runCli(['learn', 'start', '-c', config(), '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('learning run 1 created');
    expect(r.stderr).toContain('4 tuples of 4 cells, one stage');
    expect(r.stdout).toMatch(/learning run 1 \(small tuples\) finished at 4000\/4000 games/);
    expect(r.stdout).toContain(`next: tune2048 learn export 1 --out network-1.bin --db ${db}`);
    expect(networkFiles(db)).toEqual(['learn-1-4000.bin']);
    const shown = JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout) as { curve: { games: number; heldOut: { games: number; mean: number }; recent: { games: number; mean: number } }[] };
    expect(shown.curve.map((c) => c.games)).toEqual([1000, 2000, 3000, 4000]);
    for (const c of shown.curve) expect([c.heldOut.games, c.recent.games]).toEqual([50, 1000]);
    // It learns: an empty network plays greedily on the reward alone (about 2,000 a game).
    expect(shown.curve[0].heldOut.mean).toBeGreaterThan(8000);
    expect(shown.curve.at(-1)!.heldOut.mean).toBeGreaterThan(shown.curve[0].heldOut.mean);
    // The run ends by quoting the latest checkpoint's held-out mean, the figure learn show gives.
    expect(r.stdout).toContain(`held-out greedy mean ${Math.round(shown.curve.at(-1)!.heldOut.mean).toLocaleString('en-US')} (50 games) at the latest checkpoint`);
    const text = runCli(['learn', 'show', '1', '--db', db]).stdout;
    expect(text).toMatch(/^4000\s+[\d.]+\s+[\d.]+\s+\d+\s+\d+/m); // games, minutes, cpu min, moves/s, last 1000
    expect(text).toContain('held-out greedy mean against training minutes');
    uninterrupted = exported(db);

    // The exported network plays the held-out seeds greedily (-d 0) to the same mean in play (this process) and compare (workers).
    const out = join(dir(), 'net.bin');
    writeFileSync(out, uninterrupted);
    const played = (depth: string) => JSON.parse(runCli(['play', '--player', `network:${out}`, '-n', '50', '-s', '424242', '-d', depth, '--json']).stdout) as { depth: number; summary: { meanScore: number } };
    const greedy = played('0');
    expect(greedy.summary.meanScore).toBeCloseTo(shown.curve.at(-1)!.heldOut.mean, 6);
    const compared = (depth: string) => {
      const c = runCli(['compare', `network:${out}`, 'nneonneo', '-n', '50', '-s', '424242', '-d', depth, '--workers', '2', '--json']);
      expect(c.code, c.stderr).toBe(0);
      return (JSON.parse(c.stdout) as { contenders: { summary: { meanScore: number } }[] }).contenders[0].summary.meanScore;
    };
    expect(compared('0')).toBeCloseTo(greedy.summary.meanScore, 6);
    // One chance layer deeper (the default depth): the search's games, alike in play and in compare's workers, and better.
    const searched = played('1');
    expect(searched.depth).toBe(1);
    expect(compared('1')).toBeCloseTo(searched.summary.meanScore, 6);
    expect(searched.summary.meanScore).toBeGreaterThan(greedy.summary.meanScore);
  });

  it('kill -9 after a checkpoint, then resume: the same network, to the bit, as the run never stopped', async () => {
    const db = join(dir(), 'learn.sqlite');
    const run = startCli(['learn', 'start', '-c', config(), '--db', db]);
    await waitFor(() => checkpoints(db) >= 2);
    run.child.kill('SIGKILL');
    await run.done;
    expect(peek<{ games: number }>(db, 'SELECT max(games) AS games FROM learn_checkpoints')!.games).toBeLessThan(GAMES);
    // learn show sees the process gone (not "running" for ever) and says how to go on, as a command that works as printed.
    const listed = runCli(['learn', 'show', '--db', db]).stdout;
    expect(listed).toMatch(/^id\s+name\s+status\s+games$/m);
    expect(listed).toContain(`stopped (its process, pid ${run.child.pid}, is gone`);
    const shown = runCli(['learn', 'show', '1', '--db', db]).stdout;
    expect(shown).toContain(`learning run 1 (small tuples): stopped (its process, pid ${run.child.pid}, is gone`);
    const hint = shown.match(/^resume it with: (tune2048 .*)$/m)![1];
    expect(hint).toBe(`tune2048 learn resume 1 --db ${db}`);
    expect(JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout).processGone).toBe(true);
    const r = runPrinted(hint);
    expect(r.code, r.stderr).toBe(0);
    expect(runCli(['learn', 'show', '1', '--db', db]).stdout).not.toContain('resume it with');
    expect(exported(db).equals(uninterrupted)).toBe(true);
    expect(networkFiles(db)).toEqual(['learn-1-4000.bin']); // strays of the killed process removed
  });

  it('paths with spaces and quotes: the next commands of learn export and player-file work as printed; an existing output is refused without --force; a killed write leaves no temporary file for good', () => {
    const where = join(dir(), 'my runs', "lé arn's");
    mkdirSync(where, { recursive: true });
    const db = join(where, 'le arn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: 1000, heldOut: { games: 10, seed: 1 } }), '--db', db]).code).toBe(0);
    const out = join(where, 'nét 1.bin');
    const e = runCli(['learn', 'export', '1', '--db', db, '--out', out]);
    expect(e.code, e.stderr).toBe(0);
    const play = runPrinted(e.stdout.match(/^next: (tune2048 .*)$/m)![1]);
    expect(play.code, play.stderr).toBe(0);
    expect(play.stdout).toMatch(/score +mean /);
    const playerFile = join(where, "pl'ayer 1.json");
    const p = runCli(['learn', 'player-file', out, '-o', playerFile]);
    expect(p.code, p.stderr).toBe(0);
    const played = runPrinted(p.stdout.match(/^next: (tune2048 .*)$/m)![1]);
    expect(played.code, played.stderr).toBe(0);
    // A file written for a depth of its own: its hint plays that depth (no -d of another), and play says so (issue 67).
    const deep = join(where, 'deep.json');
    const d = runCli(['learn', 'player-file', out, '-o', deep, '--depth', '2', '--deeper-at-empty', '2']);
    expect(d.code, d.stderr).toBe(0);
    const hint = d.stdout.match(/^next: (tune2048 .*)$/m)![1];
    expect(hint).not.toMatch(/ -d /);
    const atDepth = runPrinted(hint.replace('-n 100', '-n 2'));
    expect(atDepth.code, atDepth.stderr).toBe(0);
    expect(atDepth.stdout).toMatch(/\(depth 2 \+ its depth rule, /);
    // Written again: refused without --force, the file as it was (a player file names its network by hash).
    const before = readFileSync(out);
    for (const args of [['learn', 'export', '1', '--db', db, '--out', out], ['learn', 'player-file', out, '-o', playerFile]]) {
      const again = runCli(args);
      expect([again.code, again.stderr.trim()]).toEqual([2, `tune2048: --out "${args.at(-1)}" exists; add --force to overwrite it, or name another file`]);
      expect(runCli([...args, '--force']).code).toBe(0);
    }
    expect(readFileSync(out).equals(before)).toBe(true);
    // A temporary file of an export killed part way (kill -9: no chance to clean) goes at the next write of that file.
    const dead = spawnSync('true').pid!;
    writeFileSync(`${out}.tmp-${dead}`, 'half a network');
    expect(runCli(['learn', 'export', '1', '--db', db, '--out', out, '--force']).code).toBe(0);
    expect(readdirSync(where).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('a finished run goes on with resume --games N: the network of a run started for N games, to the bit; a target not above the games played is refused', () => {
    const db = join(dir(), 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: GAMES / 2 }), '--db', db]).code).toBe(0);
    const below = runCli(['learn', 'resume', '1', '--db', db, '--games', String(GAMES / 2)]);
    expect(below.code).toBe(2);
    expect(below.stderr.trim()).toBe(`tune2048: --games ${GAMES / 2} is not above the ${GAMES / 2} games learning run 1 has already played`);
    const r = runCli(['learn', 'resume', '1', '--db', db, '--games', String(GAMES)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/finished at 4000\/4000 games/);
    expect(exported(db).equals(uninterrupted)).toBe(true);
  });

  it('resume --learning-rate R trains on at R from the latest checkpoint: the network of a run whose config planned that rate change there, to the bit (and not the one of a run that kept its rate)', () => {
    const db = join(dir(), 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: GAMES / 2 }), '--db', db]).code).toBe(0);
    const noGames = runCli(['learn', 'resume', '1', '--db', db, '--learning-rate', '0.05']);
    expect(noGames.code).toBe(2);
    expect(noGames.stderr.trim()).toBe(`tune2048: learning run 1 has played all its ${GAMES / 2} games: add --games N (above ${GAMES / 2}) to train on at another rate`);
    const zero = runCli(['learn', 'resume', '1', '--db', db, '--games', String(GAMES), '--learning-rate', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--learning-rate must be a number from 0\.000001 to 1, got "0"/);
    const r = runCli(['learn', 'resume', '1', '--db', db, '--games', String(GAMES), '--learning-rate', '0.05']);
    expect(r.code, r.stderr).toBe(0);
    const resumed = exported(db);
    expect(resumed.equals(uninterrupted)).toBe(false);
    const stored = JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout) as { storedConfig: { rateChanges: unknown } };
    expect(stored.storedConfig.rateChanges).toEqual([{ games: GAMES / 2, learningRate: 0.05 }]);
    expect(runCli(['learn', 'show', '1', '--db', db]).stdout).toContain('learning rate 0.1, 0.05 from game 2,000');

    const planned = join(dir(), 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ rateChanges: [{ games: GAMES / 2, learningRate: 0.05 }] }), '--db', planned]).code).toBe(0);
    expect(exported(planned).equals(resumed)).toBe(true);
  });

  it('temporal coherence: the accumulators are kept beside each checkpoint, so kill -9 and resume give the network of a run never stopped, to the bit; their file is no network, and a changed one is refused', async () => {
    const tc = { coherence: true, learningRate: 1, games: GAMES / 2, checkpointEvery: EVERY / 2 };
    const whole = join(dir(), 'learn.sqlite');
    const r = runCli(['learn', 'start', '-c', config(tc), '--db', whole]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('temporal coherence, learning rate 1');
    expect(networkFiles(whole).sort()).toEqual([`learn-1-${GAMES / 2}.accumulators`, `learn-1-${GAMES / 2}.bin`]);
    const coherent = exported(whole);
    const shown = JSON.parse(runCli(['learn', 'show', '1', '--db', whole, '--json']).stdout) as { curve: { heldOut: { mean: number } }[] };
    expect(shown.curve.at(-1)!.heldOut.mean).toBeGreaterThan(shown.curve[0].heldOut.mean);

    const db = join(dir(), 'learn.sqlite');
    const run = startCli(['learn', 'start', '-c', config(tc), '--db', db]);
    await waitFor(() => checkpoints(db) >= 1);
    run.child.kill('SIGKILL');
    await run.done;
    const at = peek<{ games: number }>(db, 'SELECT max(games) AS games FROM learn_checkpoints')!.games;
    expect(at).toBeLessThan(GAMES / 2);
    // The accumulators file is for resuming, not for playing: one line naming it.
    const acc = join(`${db}.networks`, `learn-1-${at}.accumulators`);
    const played = runCli(['play', '--player', `network:${acc}`, '-n', '1']);
    expect(played.code).toBe(2);
    expect(played.stderr.trim()).toMatch(/^tune2048: ".*\.accumulators" holds a learning run's temporal coherence accumulators \(for resuming it\), not a network: use the run's network file \(tune2048 learn export RUN --out FILE writes it\)$/);
    // Changed, the checkpoint is refused; restored, it resumes to the network of the run never stopped.
    const good = readFileSync(acc);
    const changed = Buffer.from(good);
    const header = 16 + changed.readUInt32LE(12);
    changed.writeFloatLE(changed.readFloatLE(header + 400) + 1, header + 400);
    writeFileSync(acc, changed);
    const refused = runCli(['learn', 'resume', '1', '--db', db]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`accumulators file ".*learn-1-${at}\\.accumulators" is not the one its checkpoint at ${at} games stored`));
    writeFileSync(acc, good);
    const resumed = runCli(['learn', 'resume', '1', '--db', db]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(exported(db).equals(coherent)).toBe(true);
    expect(networkFiles(db).sort()).toEqual([`learn-1-${GAMES / 2}.accumulators`, `learn-1-${GAMES / 2}.bin`]);
    // Not the plain network of the same games.
    const plain = join(dir(), 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ games: GAMES / 2 }), '--db', plain]).code).toBe(0);
    expect(exported(plain).equals(coherent)).toBe(false);
  });

  it('restarts and TD(λ) with temporal coherence: kill -9 and resume give the network of a run never stopped, to the bit; other tables than online TD(0) without restarts', async () => {
    const late = { coherence: true, learningRate: 1, lambda: 0.5, restarts: { maxInRow: 8 }, games: 600, checkpointEvery: 200 };
    const whole = join(dir(), 'learn.sqlite');
    const r = runCli(['learn', 'start', '-c', config(late), '--db', whole]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('TD(λ = 0.5), restarts at 0.5 of the last episode while it made more than 10 moves, at most 8 in a row, temporal coherence');
    const learned = exported(whole);
    // The show names the episodes: more than one a game.
    const shown = JSON.parse(runCli(['learn', 'show', '1', '--db', whole, '--json']).stdout) as { curve: { recent: { games: number; episodes?: number } }[] };
    const recent = shown.curve.at(-1)!.recent;
    expect(recent.episodes).toBeGreaterThan(2 * recent.games);
    expect(runCli(['learn', 'show', '1', '--db', whole]).stdout).toMatch(/episodes\/game/);

    const db = join(dir(), 'learn.sqlite');
    const run = startCli(['learn', 'start', '-c', config(late), '--db', db]);
    await waitFor(() => checkpoints(db) >= 1);
    run.child.kill('SIGKILL');
    await run.done;
    expect(peek<{ games: number }>(db, 'SELECT max(games) AS games FROM learn_checkpoints')!.games).toBeLessThan(600);
    const resumed = runCli(['learn', 'resume', '1', '--db', db]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(exported(db).equals(learned)).toBe(true);
    const online = join(dir(), 'learn.sqlite');
    expect(runCli(['learn', 'start', '-c', config({ coherence: true, learningRate: 1, games: 600, checkpointEvery: 200 }), '--db', online]).code).toBe(0);
    expect(exported(online).equals(learned)).toBe(false);
  });

  it("resumed, a checkpoint's last training games are the ones this process played (never the empty ring of the games before)", async () => {
    const db = join(dir(), 'learn.sqlite');
    const run = startCli(['learn', 'start', '-c', config({ games: 3000, checkpointEvery: 500, heldOut: { games: 0, seed: 1 } }), '--db', db]);
    await waitFor(() => checkpoints(db) >= 1);
    run.child.kill('SIGKILL');
    await run.done;
    const killedAt = peek<{ games: number }>(db, 'SELECT max(games) AS games FROM learn_checkpoints')!.games;
    expect(runCli(['learn', 'resume', '1', '--db', db]).code).toBe(0);
    const curve = (JSON.parse(runCli(['learn', 'show', '1', '--db', db, '--json']).stdout) as { curve: { games: number; recent: { games: number; mean: number } }[] }).curve;
    const after = curve.find((c) => c.games > killedAt)!;
    expect(after.games).toBe(killedAt + 500);
    expect(after.recent.games).toBe(500);
    expect(after.recent.mean).toBeGreaterThan(1000);
  });

  it('Ctrl-C stops at a game boundary (exit 130, a checkpoint there, the hint resumes it); resumed, the same network', async () => {
    const db = join(dir(), 'learn.sqlite');
    const run = startCli(['learn', 'start', '-c', config(), '--db', db]);
    await waitFor(() => checkpoints(db) >= 1);
    run.child.kill('SIGINT');
    const done = await run.done;
    expect(done.code).toBe(130);
    expect(done.stderr).toContain('SIGINT: stopping: waiting for the games under way to end and a checkpoint to be stored');
    expect(done.stdout).toContain(`next: tune2048 learn resume 1 --db ${db}`);
    expect(peek<{ status: string }>(db, 'SELECT status FROM learn_runs WHERE id = 1')!.status).toBe('stopped');
    const r = runCli(['learn', 'resume', '1', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(exported(db).equals(uninterrupted)).toBe(true);
  });

  it('a disk that fills during a checkpoint: one line, exit 2, the previous checkpoint stays valid and resumes to the same network', async () => {
    const mount = dir();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      console.warn('skipped: mounting a small tmpfs needs root (CI runs as root)');
      return;
    }
    try {
      // Too small for two network files (1 MB each): refused before anything is created, saying how much it needs.
      execFileSync('mount', ['-o', 'remount,size=1m', mount]);
      const refused = runCli(['learn', 'start', '-c', config({}, mount), '--db', join(mount, 'learn.sqlite')]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^tune2048: a checkpoint of this network needs 2\.0 MiB free on the disk of ".*" \(two checkpoints' files of 1\.0 MiB\); it has [01]\.\d MiB\n$/);
      expect(readdirSync(mount)).toEqual(['learn.json']);
      execFileSync('mount', ['-o', 'remount,size=4m', mount]);
      const db = join(mount, 'learn.sqlite');
      const run = startCli(['learn', 'start', '-c', config({}, mount), '--db', db]);
      await waitFor(() => checkpoints(db) >= 1);
      // Fill the disk but for ~200 KB: the database's next transaction fits, the next network file (1 MB) does not.
      const free = Number(execFileSync('df', ['--output=avail', '-B1', mount]).toString().split('\n')[1]);
      writeFileSync(join(mount, 'filler'), Buffer.alloc(Math.max(0, free - 200_000)));
      const done = await run.done;
      expect(done.code).toBe(2);
      expect(done.stderr).toMatch(/cannot write network file ".*learn-1-\d+\.bin": the disk is full/);
      const stored = peek<{ games: number; file: string }>(db, 'SELECT games, table_file AS file FROM learn_checkpoints WHERE table_file IS NOT NULL');
      expect(stored!.games % EVERY).toBe(0);
      expect(networkFiles(db)).toEqual([`learn-1-${stored!.games}.bin`]); // no half-written file
      rmSync(join(mount, 'filler'));
      const r = runCli(['learn', 'resume', '1', '--db', db]);
      expect(r.code, r.stderr).toBe(0);
      expect(exported(db).equals(uninterrupted)).toBe(true);
    } finally {
      execFileSync('umount', [mount]);
    }
  });
});
