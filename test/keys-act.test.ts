/**
 * Every key a config writes and every option a command is given acts: one that would do nothing for the player
 * it configures is refused, naming it and why (issue 79's rule "every accepted key acts").
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../src/tuner/config/config';
import { runCli } from './helpers/cli';
import { SMOKE, tempDb, writeConfig } from './helpers/runs';

const withFitness = (extra: Record<string, unknown>) => ({ ...SMOKE, fitness: { ...SMOKE.fitness, ...extra } });
const withSpace = (extra: Record<string, unknown>) => ({ ...SMOKE, space: { ...SMOKE.space, ...extra } });

describe('a config key without effect for its player is refused', () => {
  it.each([
    ['fitness.iterations', withFitness({ iterations: 40 }), /field "fitness\.iterations": sets MCTS's search .* this run's player is expectimax, so it would do nothing/],
    ['fitness.rolloutDepth', withFitness({ player: 'minimax', rolloutDepth: 5 }), /field "fitness\.rolloutDepth": sets MCTS's search .* this run's player is minimax/],
    ['fitness.depth for plain MCTS', withFitness({ player: 'mcts', depth: 3 }), /field "fitness\.depth": plain MCTS's rollouts are random moves, with no search, so it would do nothing/],
    ['fitness.cprob for minimax', withFitness({ player: 'minimax', depth: 1, cprob: 0.01 }), /field "fitness\.cprob": minimax searches every reply to its depth, with no probability cutoff/],
    ['fitness.reachTile', withFitness({ reachTile: 4096 }), /field "fitness\.reachTile": the tile of the reach-rate objective, and this run's objective is mean-score, so it would do nothing/],
    ['space.matrix', withSpace({ matrix: 'symmetric' }), /field "space\.matrix": .* no parameter of space\.params is one/],
    ['space.matrix beside a parameter only named like one', withSpace({ matrix: 'symmetric', params: { ...SMOKE.space.params, matrixWeight: { min: 0, max: 1 } } }), /field "space\.matrix"/],
    ['space.matrix for a network', { ...SMOKE, space: { start: 'defaults', matrix: 'symmetric' }, fitness: { games: 4, depth: 1, player: { kind: 'network', file: 'net.bin' } } }, /field "space\.matrix": shapes tune2048's own heuristic, and this run tunes a network's search settings/],
  ])('%s', (_key, data, message) => {
    expect(() => loadConfig(writeConfig(data))).toThrow(message);
  });

  it.each([
    ['a config written out after parsing (every default in it)', parseConfig(SMOKE)],
    ['plain MCTS written out after parsing (depth and cprob at their defaults)', parseConfig({ ...SMOKE, fitness: { games: 6, player: 'mcts' } })],
    ['MCTS keys for MCTS', { ...SMOKE, fitness: { games: 6, player: 'mcts', iterations: 40, c: 1, rolloutDepth: 5 } }],
    ['depth and cprob for MCTS with expectimax rollouts', withFitness({ player: 'mcts-emm', depth: 1, cprob: 0.01 })],
    ['reachTile with reach-rate', withFitness({ objective: 'reach-rate', reachTile: 4096 })],
    ['space.matrix with matrix cells', withSpace({ matrix: 'symmetric', params: { ...SMOKE.space.params, 'matrix[0][1]': { min: 0, max: 10 } } })],
  ])('while the same key where it acts is accepted: %s', (_name, data) => {
    expect(() => loadConfig(writeConfig(data))).not.toThrow();
  });

  it('through the CLI: one line, exit 2, no database', () => {
    const db = tempDb();
    const r = runCli(['tune', '-c', writeConfig(withFitness({ reachTile: 4096 })), '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/field "fitness\.reachTile"/);
    expect(existsSync(db)).toBe(false);
  });
});

describe('a command-line option without effect for the player is refused', () => {
  it.each([
    [['play', '--player', 'external:greedy-py', '-d', '2', '-n', '1'], /^tune2048: --depth sets tune2048's own search, and --player external:greedy-py searches as its program decides, so it would do nothing/],
    [['hint', '--player', 'external:greedy-py', '--cprob', '0.01', '0 0 0 0 0 0 0 0 0 0 0 0 0 0 2 2'], /^tune2048: --cprob sets tune2048's own search/],
    [['play', '--iterations', '40', '-n', '1'], /^tune2048: --iterations sets MCTS's search \(--player mcts or mcts-emm\), and --player expectimax \(the default\) has none/],
    [['compare', 'nneonneo', 'haskell', '--rollout-depth', '4', '-n', '2'], /^tune2048: --rollout-depth sets MCTS's search/],
    [['play', '--player', 'mcts', '-d', '4', '-n', '1'], /^tune2048: --depth: plain MCTS's rollouts are random moves, with no search, so it would do nothing: remove it \(or --player mcts-emm/],
    [['hint', '--player', 'minimax', '-d', '1', '--cprob', '0.3', '0 0 0 0 0 0 0 0 0 0 0 0 0 0 2 2'], /^tune2048: --cprob: minimax searches every reply to its depth, with no probability cutoff/],
    [['sweep', 'nneonneo', '--player', 'mcts', '--depths', '1,3', '-n', '2'], /^tune2048: sweep varies the search depth, and plain MCTS's rollouts are random moves/],
  ])('%j', (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});
