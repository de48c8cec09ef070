import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { loadWeights, parseWeights } from '../src/heuristic/weights';
import { loadLearnConfig } from '../src/learn/config';
import { createExpectimaxPlayer } from '../src/player/expectimax';
import { playGame } from '../src/engine/game';
import { configHash, loadConfig, parseConfig } from '../src/tuner/config/config';
import { ParameterSpace, snakeCells, structuredMatrix } from '../src/tuner/space/space';
import { exportBestWeights } from '../src/tuner/output/export';
import { smokeConfig, tempDb, tuneToEnd } from './helpers/runs';
import { createRun, prepareRun } from '../src/tuner/run/run-problem';
import { Store } from '../src/store/store';
import { trainSmallNetwork } from './helpers/network';

const minimal = { space: { start: 'nneonneo', params: { empty: { min: 0, max: 1000 } } } };

describe('run configs', () => {
  it('fill in defaults for everything but the space', () => {
    const c = parseConfig(minimal);
    expect(c.optimizer.population).toBe(16);
    expect(c.fitness).toMatchObject({ games: 16, depth: 1, objective: 'mean-score' });
    expect(c.validation).toEqual({ finalists: 3, games: 100 });
  });

  it('every shipped config is valid, its start weights exist and its space fits them (learning configs as learning configs)', async () => {
    const dir = join(__dirname, '..', 'configs');
    const names = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(names).toEqual(expect.arrayContaining(['smoke.json', 'quick.json', 'default.json', 'depth3.json', 'depth3-matrix.json', 'learn-lines.json']));
    // A network config names the network the docs export (db/ntuple.bin); here it is given one, as --network does.
    const network = join(mkdtempSync(join(tmpdir(), 'tune2048-c-')), 'tiny.bin');
    await trainSmallNetwork({ tuples: [[0, 1, 2, 3], [0, 4, 8, 12]], stages: [{ maxTile: [2, 4096] }, { maxTile: [8192, 32768] }], promote: true }, network, 1, 20);
    for (const name of names) {
      const data = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { format?: string; fitness?: { player?: { kind?: string } } };
      const learning = data.format === 'tune2048/learn';
      const options = data.fitness?.player?.kind === 'network' ? { network } : {};
      // Awaited: an external player's run starts its program (npm run build makes the C example) to read its parameters.
      const prepared = Promise.resolve().then((): unknown => (learning ? loadLearnConfig(join(dir, name)) : prepareRun(loadConfig(join(dir, name), options))));
      await expect(prepared, name).resolves.toBeTruthy();
    }
  });

  it("--network gives a network config its network, and is refused for any other; a config's missing network names --network", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-c-'));
    const config = join(dir, 'front.json');
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(join(__dirname, '..', 'configs', 'front-network.json'), 'utf8')), fitness: { games: 2, cost: 'nodes', player: { kind: 'network', file: 'absent.bin' } } }));
    expect(() => loadConfig(config)).toThrow(`config "${config}" tunes on the network "${join(dir, 'absent.bin')}", which does not exist: give yours with --network FILE (tune2048 learn export RUN --out FILE writes one)`);
    // Resolved from the working folder, as every command-line path is.
    const given = loadConfig(config, { network: 'some/net.bin' });
    expect((given.fitness.player as { file: string }).file).toBe(join(process.cwd(), 'some', 'net.bin'));
    expect(() => loadConfig('quick', { network: 'net.bin' })).toThrow(/^--network "net.bin": config ".*quick.json" does not tune on a network \(its fitness.player is expectimax\)/);
  });

  it('equal configs hash alike whatever the key order', () => {
    const a = parseConfig({ seed: 3, ...minimal });
    const b = parseConfig({ ...minimal, seed: 3 });
    expect(configHash(a)).toBe(configHash(b));
    expect(configHash(parseConfig({ ...minimal, seed: 4 }))).not.toBe(configHash(a));
  });

  const bad: [string, unknown, RegExp][] = [
    ['an unknown top-level key', { ...minimal, sed: 3 }, /unknown key\(s\) "sed"/],
    ['an unknown nested key', { ...minimal, optimizer: { populaton: 8 } }, /field "optimizer": unknown key\(s\) "populaton"/],
    ['a wrong type', { ...minimal, seed: 'one' }, /field "seed": .*expected number/],
    ['an out-of-range value', { ...minimal, fitness: { games: 0 } }, /field "fitness.games"/],
    ['a missing space', { seed: 1 }, /field "space"/],
    ['no parameter to tune', { space: { start: 'nneonneo', params: {} } }, /field "space.params": name at least one parameter/],
    ['inverted bounds', { space: { start: 'nneonneo', params: { empty: { min: 5, max: 1 } } } }, /space.params.empty.*max must be greater than min/],
    ['a log scale through zero', { space: { start: 'nneonneo', params: { empty: { min: 0, max: 9, scale: 'log' } } } }, /a log scale needs min > 0/],
    ['elitism as large as the population', { ...minimal, optimizer: { population: 4, elitism: 4 } }, /field "optimizer.elitism": elitism must be smaller/],
    ['an unknown crossover', { ...minimal, optimizer: { crossover: 'spiral' } }, /field "optimizer.crossover"/],
    ['a bad depth', { ...minimal, fitness: { depth: 99 } }, /field "fitness.depth"/],
    ['an unknown objective', { ...minimal, fitness: { objective: 'vibes' } }, /field "fitness.objective"/],
    ['a finalists\' correlation ceiling over 1', { ...minimal, validation: { maxCorrelation: 1.5 } }, /field "validation.maxCorrelation"/],
    ['a finalists\' correlation ceiling of 0', { ...minimal, validation: { maxCorrelation: 0 } }, /field "validation.maxCorrelation"/],
    ['a finalists\' correlation ceiling without a model', { ...minimal, validation: { maxCorrelation: 0.9 } }, /field "validation.maxCorrelation": keeps the model optimizer's finalists apart; optimizer "ga" has no model/],
  ];
  it.each(bad)('reject %s with one line naming the key', (_what, data, message) => {
    expect(() => parseConfig(data, 'config "x.json"')).toThrow(message);
    try {
      parseConfig(data, 'config "x.json"');
    } catch (e) {
      expect((e as Error).message).not.toContain('\n');
      expect((e as Error).message.startsWith('config "x.json": ')).toBe(true);
    }
  });

  it('say which key wants what where a check fails (a whole number, a bound), never "expected null"', () => {
    const space = { start: 'nneonneo', params: { empty: { min: 0, max: 1 } } };
    expect(() => parseConfig({ seed: 2.5, space }, 'config "x.json"')).toThrow(/^config "x\.json": field "seed": must be a whole number, received 2\.5$/);
    expect(() => parseConfig({ seed: -1, space }, 'config "x.json"')).toThrow(/^config "x\.json": field "seed": must be at least 0, received -1$/);
    expect(() => parseConfig({ space, fitness: { games: 0 } }, 'config "x.json"')).toThrow(/field "fitness\.games": must be at least 1, received 0$/);
  });

  it('reject files that are missing or not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tune2048-c-'));
    writeFileSync(join(dir, 'broken.json'), '{"space": ');
    expect(() => loadConfig(join(dir, 'broken.json'))).toThrow(/is not valid JSON/);
    expect(() => loadConfig(join(dir, 'absent.json'))).toThrow(/cannot read config file .*no such file or folder/);
  });

  it('reject an unknown parameter or a start value outside its bounds when the run is created', () => {
    const store = Store.open(join(mkdtempSync(join(tmpdir(), 'tune2048-c-')), 'x.sqlite'));
    expect(() => createRun(store, parseConfig({ space: { start: 'nneonneo', params: { emptiness: { min: 0, max: 1 } } } }))).toThrow(/unknown parameter "emptiness"/);
    expect(() => createRun(store, parseConfig({ space: { start: 'nneonneo', params: { empty: { min: 300, max: 1000 } } } }))).toThrow(/start value 270 is outside \[300, 1000\]/);
    expect(() => createRun(store, parseConfig({ space: { start: 'no-such', params: { empty: { min: 0, max: 1 } } } }))).toThrow(/unknown weights preset/);
    store.close();
  });
});

describe('parameter space', () => {
  const space = new ParameterSpace(loadWeights('nneonneo'), {
    empty: { min: 0, max: 1000, scale: 'linear' },
    monotonicity: { min: 1, max: 1000, scale: 'log' },
    'matrix[3][0]': { min: -10, max: 10, scale: 'linear' },
  });

  it('for export, the start\'s genes give the start\'s values as given, not as log and exp leave them (3, not 2.9999999999999996)', () => {
    const fives = new ParameterSpace({ ...loadWeights('nneonneo'), monotonicity: 3, empty: 0.3 }, { monotonicity: { min: 1, max: 1000, scale: 'log' }, empty: { min: 0.1, max: 7, scale: 'log' } });
    const i = fives.names.indexOf('monotonicity');
    expect(fives.denormalize(i, fives.startGenome()[i])).toBe(2.9999999999999996); // the round-off this guards against
    expect(fives.params(fives.startGenome(), true)).toEqual({ monotonicity: 3, empty: 0.3 });
    expect(fives.params(fives.startGenome()).monotonicity).toBe(2.9999999999999996); // what games and stored runs use, unchanged
  });

  it('round-trips values through the genome on linear and log scales', () => {
    const rng = seedrandom.alea('space');
    for (let i = 0; i < 1000; i++) {
      const g = [rng(), rng(), rng()];
      const back = space.names.map((_, k) => space.normalize(k, space.denormalize(k, g[k])));
      back.forEach((x, k) => expect(x).toBeCloseTo(g[k], 9));
    }
    expect(space.denormalize(1, 0.5)).toBeCloseTo(Math.sqrt(1000), 9); // log midpoint = geometric mean
  });

  it('the start genome maps back to the start weights', () => {
    const w = space.toWeights(space.startGenome());
    expect(w.empty).toBeCloseTo(270, 9);
    expect(w.monotonicity).toBeCloseTo(47, 9);
    expect(w.matrix?.[3][0]).toBeCloseTo(0, 9);
    expect(w.sum).toBe(11); // not tuned: kept
  });

  it('always respects the bounds, even for genomes outside [0, 1]', () => {
    const w = space.toWeights([-3, 7, 0.5]);
    expect(w.empty).toBe(0);
    expect(w.monotonicity).toBe(1000);
    expect(w.matrix?.[3][0]).toBeCloseTo(0, 9);
  });
});

describe('matrices in the genome', () => {
  const haskell = loadWeights('haskell');

  it('symmetric: a cell i ≤ j sets its transpose too; a cell below the diagonal is refused', () => {
    const space = new ParameterSpace(haskell, { 'matrix[0][1]': { min: 0, max: 50, scale: 'linear' }, 'matrix[0][0]': { min: 0, max: 50, scale: 'linear' } }, 'symmetric');
    const w = space.toWeights([0.5, 1]);
    expect(w.matrix![0][1]).toBe(25);
    expect(w.matrix![1][0]).toBe(25);
    expect(w.matrix![0][0]).toBe(50);
    expect(w.matrix![2][0]).toBe(3); // not tuned: kept
    expect(() => new ParameterSpace(haskell, { 'matrix[1][0]': { min: 0, max: 50, scale: 'linear' } }, 'symmetric')).toThrow(/name the cell with i ≤ j \(matrix\[0\]\[1\]\)/);
  });

  const snakeParams = {
    'matrix.amplitude': { min: 1, max: 1e6, scale: 'log' as const, start: 1000 },
    'matrix.base': { min: 1, max: 8, scale: 'linear' as const, start: 2 },
  };

  it('snake: amplitude · base^−k along the snake path, the whole matrix from two genes', () => {
    const space = new ParameterSpace(loadWeights('nneonneo'), snakeParams, 'snake');
    const w = space.toWeights(space.startGenome());
    const order = snakeCells();
    expect(order.slice(0, 8)).toEqual([[0, 0], [0, 1], [0, 2], [0, 3], [1, 3], [1, 2], [1, 1], [1, 0]]);
    order.forEach(([i, j], k) => expect(w.matrix![i][j]).toBeCloseTo(1000 * 2 ** -k, 9));
    // One gene moves every cell at once.
    const steeper = space.toWeights([space.startGenome()[0], 1]);
    expect(steeper.matrix![0][1] / steeper.matrix![0][0]).toBeCloseTo(1 / 8, 12);
  });

  it('corner: amplitude · base^−(rowExp·i + colExp·j); every structured parameter needs a start', () => {
    const p = { 'matrix.amplitude': 100, 'matrix.base': 3, 'matrix.rowExp': 2, 'matrix.colExp': 1 };
    const m = structuredMatrix('corner', p);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(m[i][j]).toBeCloseTo(100 * 3 ** -(2 * i + j), 12);
    expect(() => new ParameterSpace(loadWeights('nneonneo'), { 'matrix.amplitude': { min: 1, max: 10, scale: 'linear', start: 5 } }, 'snake')).toThrow(/needs "matrix.base"/);
    expect(() => new ParameterSpace(loadWeights('nneonneo'), { ...snakeParams, 'matrix.base': { min: 1, max: 8, scale: 'linear' } }, 'snake')).toThrow(/needs a "start" value/);
    expect(() => new ParameterSpace(loadWeights('nneonneo'), { ...snakeParams, 'matrix[0][0]': { min: 0, max: 1, scale: 'linear' } }, 'snake')).toThrow(/unknown parameter "matrix\[0\]\[0\]" for a snake matrix/);
  });

  it('version-2 terms: line-position and per-stage parameters, each starting where the start weights play', () => {
    const start = loadWeights('tuned-d3m');
    const params = {
      'lines.outerRows.empty': { min: 10, max: 1000, scale: 'log' as const },
      'stages.1.monotonicity': { min: 10, max: 500, scale: 'log' as const },
      'stages.1.matrix.amplitude': { min: 10, max: 200, scale: 'log' as const, start: 80 },
      'matrix.amplitude': { min: 10, max: 200, scale: 'log' as const, start: 59 },
      'matrix.base': { min: 1.05, max: 4, scale: 'linear' as const, start: 1.87 },
    };
    const space = new ParameterSpace(start, params, 'snake', { by: 'maxTile', at: [2048] });
    const p = space.params(space.startGenome());
    expect(p['lines.outerRows.empty']).toBeCloseTo(start.empty, 6); // a group's term starts at the base's
    expect(p['stages.1.monotonicity']).toBeCloseTo(start.monotonicity, 6);
    const w = space.toWeights(space.startGenome());
    expect(w.version).toBe(2);
    expect(w.stages!.list.map((s) => [s.from, s.to])).toEqual([[0, 2048], [2048, undefined]]);
    expect(w.lines!.outerRows!.empty).toBeCloseTo(start.empty, 6);
    // Stage 1 has a snake matrix of its own amplitude, stage 0 the base's.
    expect(w.matrix![0][0]).toBeCloseTo(59, 9);
    expect(w.stages!.list[0].matrix).toBeUndefined();
    expect(w.stages!.list[1].matrix![0][0]).toBeCloseTo(80, 9);
    expect(w.stages!.list[1].matrix![0][1]).toBeCloseTo(80 / 1.87, 9);
    // Moving one stage's gene changes that stage only.
    const g = space.startGenome();
    g[1] = 1;
    const moved = space.toWeights(g);
    expect(moved.stages!.list[1].monotonicity).toBeCloseTo(500, 6);
    expect(moved.stages!.list[0].monotonicity).toBeUndefined();
  });

  it('refuses a stage parameter without stages to put it in, and an unknown line term', () => {
    const nn = loadWeights('nneonneo');
    expect(() => new ParameterSpace(nn, { 'stages.1.empty': { min: 1, max: 10, scale: 'linear' } })).toThrow(/"stages.1.empty": the start weights have no stages; split them with space.stages/);
    expect(() => new ParameterSpace(nn, { 'stages.2.empty': { min: 1, max: 1000, scale: 'linear' } }, 'full', { by: 'maxTile', at: [1024] })).toThrow(/have 2 stages \(0 to 1\)/);
    expect(() => new ParameterSpace(nn, { 'lines.outerRows.matrix': { min: 1, max: 10, scale: 'linear' } })).toThrow(/unknown parameter "lines.outerRows.matrix"/);
    expect(() => parseConfig({ space: { start: 'nneonneo', params: { empty: { min: 0, max: 1000 } }, stages: { by: 'maxTile', at: [2048, 1024] } } })).toThrow(/field "space.stages.at": must increase/);
  });

  it('a run tunes a snake matrix end to end and exports it', async () => {
    const db = tempDb();
    const config = smokeConfig({ space: { start: 'nneonneo', matrix: 'snake', params: { empty: { min: 0, max: 2000 }, ...snakeParams } } });
    const { id, outcome } = await tuneToEnd(db, config);
    expect(outcome.status).toBe('finished');
    const store = Store.open(db, { readonly: true });
    const w = exportBestWeights(store, id);
    store.close();
    const [amp, base] = [w.provenance!.tuned as Record<string, number>].map((t) => [t['matrix.amplitude'], t['matrix.base']])[0];
    expect(w.matrix![1][0]).toBeCloseTo(amp * base ** -7, 6);
  });

  it('a run tunes stage and line-position parameters end to end (worker processes) and exports weights of version 2 that replay its validation', async () => {
    const db = tempDb();
    const params = { 'lines.outerRows.empty': { min: 0, max: 2000 }, 'stages.1.monotonicity': { min: 1, max: 1000, scale: 'log' as const }, empty: { min: 0, max: 2000 } };
    const config = smokeConfig({ space: { start: 'nneonneo', params, stages: { by: 'maxTile', at: [128] } } });
    const { id, outcome } = await tuneToEnd(db, config, { workers: 2 });
    expect(outcome.status).toBe('finished');
    const store = Store.open(db, { readonly: true });
    const w = exportBestWeights(store, id);
    const validation = store.getGames(store.requireRun(id).bestCandidate!, 'validation');
    store.close();
    expect(w.version).toBe(2);
    expect(w.stages!.list[1].monotonicity).toBeCloseTo((w.provenance!.tuned as Record<string, number>)['stages.1.monotonicity'], 9);
    // The exported file plays the validation games the run stored, game for game.
    const player = createExpectimaxPlayer(parseWeights(JSON.parse(JSON.stringify(w))), { depth: config.fitness.depth, cprob: config.fitness.cprob });
    for (const g of validation.slice(0, 3)) expect(playGame(player, g.seed).score).toBe(g.score);
  });
});
