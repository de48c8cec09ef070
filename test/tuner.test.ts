import { describe, expect, it, beforeAll } from 'vitest';
import { join } from 'node:path';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Store } from '../src/store/store';
import { createRun } from '../src/tuner/run/run-problem';
import { Tuner } from '../src/tuner/run/tuner';
import { exportBestWeights } from '../src/tuner/output/export';
import { generationSeeds, validationSeeds } from '../src/tuner/run/seeds';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { playGame } from '../src/engine/game';
import { dumpRun, smokeConfig, straightAndStopped, tempDb, tuneToEnd } from './helpers/runs';
import type { LocalRunner } from '../src/runner/local';

const FIXTURES = join(__dirname, 'fixtures', 'workers');

describe('a tuning run', () => {
  let reference: ReturnType<typeof dumpRun>;
  let referenceDb: string;

  beforeAll(async () => {
    referenceDb = tempDb();
    const { id, outcome } = await tuneToEnd(referenceDb, smokeConfig(), { workers: 2 });
    expect(outcome.status).toBe('finished');
    reference = dumpRun(referenceDb, id);
  });

  it('stores every game, fitness, generation and a validated best', () => {
    expect(reference.run).toMatchObject({ status: 'finished' });
    expect(reference.generations).toHaveLength(3);
    expect(reference.candidates).toHaveLength(18);
    const fitnessGames = reference.games.filter((g: any) => g.purpose === 'fitness');
    expect(fitnessGames).toHaveLength(18 * 6);
    const validation = reference.games.filter((g: any) => g.purpose === 'validation');
    expect(validation).toHaveLength((2 + 1) * 8); // two finalists and the start
    expect((reference.run as any).best_candidate).not.toBeNull();
  });

  it('plays the same fresh seeds for every candidate of a generation (common random numbers)', () => {
    const c = smokeConfig();
    for (let g = 0; g < 3; g++) {
      const ids = (reference.candidates as any[]).filter((x) => x.generation === g).map((x) => x.id);
      const seeds = generationSeeds(c.seed, g, 6).sort((a, b) => a - b);
      for (const id of ids) {
        expect((reference.games as any[]).filter((x) => x.candidate_id === id && x.purpose === 'fitness').map((x) => x.seed)).toEqual(seeds);
      }
    }
    const gen0 = new Set(generationSeeds(c.seed, 0, 6));
    expect(generationSeeds(c.seed, 1, 6).some((s) => gen0.has(s))).toBe(false);
    const held = validationSeeds(c.seed, 8);
    expect(held.every((s) => s % 2 === 1)).toBe(true);
    expect([0, 1, 2].flatMap((g) => generationSeeds(c.seed, g, 6)).every((s) => s % 2 === 0)).toBe(true);
  });

  it('re-scores elites on the new seeds instead of keeping old fitness', () => {
    const cands = reference.candidates as any[];
    const elite = cands.find((c) => c.generation === 1 && c.origin === 'elite');
    const parent = cands.find((c) => c.id === JSON.parse(elite.parents)[0]);
    expect(elite.genome).toBe(parent.genome);
    expect((reference.games as any[]).filter((g) => g.candidate_id === elite.id)).toHaveLength(6);
    expect(elite.fitness).not.toBe(parent.fitness);
  });

  it('a stored game replays exactly from its seed and weights', () => {
    const store = Store.open(referenceDb, { create: false });
    const weights = exportBestWeights(store, 1);
    const best = (reference.run as any).best_candidate;
    const game = (reference.games as any[]).find((g) => g.candidate_id === best && g.purpose === 'validation');
    const replay = playGame(createExpectimaxPlayer(weights, { depth: 0 }), game.seed);
    expect({ score: replay.score, moves: replay.moves, max_tile: replay.maxTile }).toMatchObject({ score: game.score, moves: game.moves, max_tile: game.max_tile });
    expect(weights.provenance).toMatchObject({ run: 1, candidate: best, search: { depth: 0 }, validation: { games: 8 } });
    store.close();
  });

  it('reads each generation\'s games from the store once (and validation\'s once), with racing too', async () => {
    for (const racing of [undefined, { rounds: 3, keep: 0.5 }]) {
      const db = tempDb();
      const store = Store.open(db);
      const reads: string[] = [];
      const generationGames = store.generationGames.bind(store);
      store.generationGames = (runId, generation, purpose) => {
        reads.push(`${generation}:${purpose}`);
        return generationGames(runId, generation, purpose);
      };
      store.getGames = () => {
        throw new Error('the tuner reads games per generation, never per candidate');
      };
      const config = smokeConfig(racing ? { fitness: { games: 6, depth: 0, racing } } : {});
      const outcome = await new Tuner(store, createRun(store, config, 'test'), { workers: 2 }).run(false);
      store.close();
      expect(outcome.status).toBe('finished');
      // Validation reads the last generation's games and the start's (generation 0).
      expect(reads).toEqual(['0:fitness', '1:fitness', '2:fitness', '2:validation', '0:validation']);
    }
  });

  it('gives the same rows with 1 worker as with 2', async () => {
    const db = tempDb();
    const { id } = await tuneToEnd(db, smokeConfig(), { workers: 1 });
    expect(dumpRun(db, id)).toEqual(reference);
  });

  it('stopped (Ctrl-C) at several points and resumed, equals the uninterrupted run', async () => {
    const db = tempDb();
    const store = Store.open(db);
    const id = createRun(store, smokeConfig(), 'test');
    store.close();
    let stops = 0;
    for (const stopAt of [5, 40, 70, 110, 125]) {
      const s = Store.open(db);
      const tuner: Tuner = new Tuner(s, id, {
        workers: 2,
        onProgress: (p) => {
          const played = (s.connectionForTests().prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n;
          if (played >= stopAt && p.done > 0) tuner.stop();
        },
      });
      const outcome = await tuner.run(true);
      s.close();
      if (outcome.status === 'finished') break;
      expect(outcome.status).toBe('stopped');
      expect(dumpRun(db, id).run).toMatchObject({ status: 'stopped' });
      stops++;
    }
    expect(stops).toBeGreaterThanOrEqual(4);
    await tuneToEnd(db, smokeConfig(), {}, id);
    expect(dumpRun(db, id)).toEqual(reference);
  });

  it.each([
    ['every candidate plays every seed', {}],
    ['racing', { racing: { rounds: 2, keep: 0.5 } }],
  ])('copies of a weight set get the games of the first instead of playing them again (%s)', async (_label, racing) => {
    // No crossover and no mutation: every offspring is a copy of a parent.
    const config = smokeConfig({
      optimizer: { population: 6, generations: 3, elitism: 1, tournament: 2, crossoverRate: 0, mutationRate: 0 },
      fitness: { games: 6, depth: 0, ...racing },
    });
    const played: string[] = [];
    const db = tempDb();
    const { id, outcome } = await tuneToEnd(db, config, {
      workers: 2,
      onRunner: (runner) => {
        const play = runner.playBatch.bind(runner);
        runner.playBatch = (spec, seeds) => {
          for (const seed of seeds) played.push(`${JSON.stringify(spec)}@${seed}`);
          return play(spec, seeds);
        };
      },
    });
    expect(outcome.status).toBe('finished');
    expect(new Set(played).size).toBe(played.length); // no game played twice
    const { candidates, games } = dumpRun(db, id) as { candidates: { id: number; generation: number; params: string; validation: number | null }[]; games: { candidate_id: number; purpose: string; seed: number; score: number; max_tile: number; moves: number }[] };
    const copies = candidates.filter((c, i) => candidates.findIndex((d) => d.generation === c.generation && d.params === c.params) < i);
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const first = candidates.find((d) => d.generation === copy.generation && d.params === copy.params)!;
      const gamesOf = (cid: number) => games.filter((g) => g.candidate_id === cid && g.purpose === 'fitness').map(({ candidate_id: _c, ...g }) => g);
      expect(gamesOf(copy.id)).toEqual(gamesOf(first.id).filter((g) => gamesOf(copy.id).some((x) => x.seed === g.seed)));
      expect(gamesOf(copy.id).length).toBeGreaterThan(0);
    }
    if (!('racing' in racing)) {
      // every candidate has all its games, played or copied
      for (const c of candidates) expect(games.filter((g) => g.candidate_id === c.id && g.purpose === 'fitness')).toHaveLength(6);
      expect(played.length).toBeLessThan(candidates.length * 6 + 2 * 8);
    }
    const finalists = candidates.filter((c) => c.validation !== null);
    expect(new Set(finalists.map((c) => c.params)).size).toBe(finalists.length); // distinct finalists
    // the same run with one worker: identical
    const db1 = tempDb();
    const again = await tuneToEnd(db1, config, { workers: 1 });
    expect(dumpRun(db, id)).toEqual(dumpRun(db1, again.id));
  });

  it('survives a worker killed mid-batch: the batch is retried and the run equals the uninterrupted one', async () => {
    // Depth-1 games keep workers busy, so the kills land mid-batch.
    const config = smokeConfig({ fitness: { games: 6, depth: 1 } });
    const quiet = tempDb();
    const straight = await tuneToEnd(quiet, config, { workers: 1 });
    const db = tempDb();
    const pids = new Set<number>();
    let killed = 0;
    const { id, outcome } = await tuneToEnd(db, config, {
      workers: 2,
      onRunner: (runner) => {
        // Kills on events, not on a clock: after the 2nd, 5th and 8th finished batch one worker is killed,
        // while the other (and soon the killed one's replacement) is in the middle of its next batch.
        const pool = (runner as LocalRunner).pool;
        const play = runner.playBatch.bind(runner);
        let finished = 0;
        runner.playBatch = (spec, seeds) =>
          play(spec, seeds).then((games) => {
            finished++;
            for (const c of pool.children()) pids.add(c.pid as number);
            const child = pool.children()[killed % 2];
            if (child && killed < 3 && finished >= 2 + 3 * killed) {
              child.kill('SIGKILL');
              killed++;
            }
            return games;
          });
      },
    });
    expect(killed).toBe(3);
    expect(pids.size).toBeGreaterThan(2); // killed workers were replaced
    expect(outcome.status).toBe('finished');
    expect(dumpRun(db, id)).toEqual(dumpRun(quiet, straight.id));
  });

  it('re-queues a batch whose worker hangs past the time limit', async () => {
    const db = tempDb();
    process.env.TUNE2048_TEST_MARKER = join(mkdtempSync(join(tmpdir(), 'tune2048-m-')), 'hung');
    const { id, outcome } = await tuneToEnd(db, smokeConfig(), { workers: 2, pool: { workerPath: join(FIXTURES, 'hang-once.ts'), callTimeoutMs: 4000 } });
    expect(existsSync(process.env.TUNE2048_TEST_MARKER)).toBe(true); // a worker did hang
    expect(outcome.status).toBe('finished');
    expect(dumpRun(db, id)).toEqual(reference);
  });

  it('stops cleanly when retries run out, keeps what finished, and resumes to the same result', async () => {
    const db = tempDb();
    process.env.TUNE2048_TEST_MARKER = join(mkdtempSync(join(tmpdir(), 'tune2048-m-')), 'count');
    process.env.TUNE2048_TEST_LIMIT = '10';
    const first = await tuneToEnd(db, smokeConfig(), { workers: 2, pool: { workerPath: join(FIXTURES, 'crash-after.ts') } });
    expect(first.outcome.status).toBe('failed');
    expect(first.outcome.error).toMatch(/died, 3 times; giving up/);
    const partial = dumpRun(db, first.id);
    expect(partial.run).toMatchObject({ status: 'failed' });
    // At least the ten served batches of two games are stored (two workers may both pass the check at the limit).
    const served = statSync(process.env.TUNE2048_TEST_MARKER).size;
    expect(partial.games.length).toBeGreaterThanOrEqual(20);
    expect(partial.games.length).toBeLessThanOrEqual(served * 2);
    await tuneToEnd(db, smokeConfig(), {}, first.id);
    expect(dumpRun(db, first.id)).toEqual(reference);
  });

  it('elites keep their parent\'s fitness when re-evaluation is turned off', async () => {
    const db = tempDb();
    const { id } = await tuneToEnd(db, smokeConfig({ reevaluateElites: false }));
    const cands = dumpRun(db, id).candidates as any[];
    const elite = cands.find((c) => c.generation === 2 && c.origin === 'elite');
    expect(elite.fitness).toBe(cands.find((c) => c.id === JSON.parse(elite.parents)[0]).fitness);
  });
});

describe.each([
  ['cmaes', { kind: 'cmaes', generations: 4, sigma0: 0.2 }],
  ['random', { kind: 'random', population: 6, generations: 3, elitism: 1 }],
])('a %s run', (_kind, optimizer) => {
  const config = () => smokeConfig({ optimizer });

  it('stopped at several points and resumed equals the straight run, with 1 or 2 workers', async () => {
    const { straight, straightStatus, stopped } = await straightAndStopped(config(), [7, 40, 80]);
    expect(straightStatus).toBe('finished');
    expect(stopped).toEqual(straight);
  });

  if (_kind === 'cmaes') {
    it('validates the distribution mean of the last generation among the finalists', async () => {
      const db = tempDb();
      const { id } = await tuneToEnd(db, config());
      const cands = dumpRun(db, id).candidates as any[];
      const lastMean = cands.find((c) => c.generation === 3 && c.origin === 'mean');
      expect(lastMean.validation).not.toBeNull();
    });
  }
});
