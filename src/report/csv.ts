/**
 * Tidy per-game data for pandas and R: one row a game, one column a variable (docs/statistics.md lists the
 * columns). compare --csv, play --csv and show RUN --csv write it; their JSON is unchanged.
 */
import type { PlayedGame } from '../engine/game';
import type { RunGame } from '../store/store';

/** A field as CSV writes it: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function field(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? String(v) : v;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csv(header: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\n') + '\n';
}

/** The columns every game row has: seed, score, max_tile, moves, ms (the game's wall time), nodes (positions searched; empty where not counted). */
const GAME = ['seed', 'score', 'max_tile', 'moves', 'ms', 'nodes'] as const;
const gameCells = (g: Pick<PlayedGame, 'seed' | 'score' | 'maxTile' | 'moves' | 'ms' | 'nodes'>) => [g.seed, g.score, g.maxTile, g.moves, g.ms, g.nodes];

/** A comparison's games: contender (its label, as the tables print it), then the game's columns; in contender order, each in seed order. */
export function comparisonCsv(contenders: readonly { label: string; games: readonly PlayedGame[] }[]): string {
  return csv(['contender', ...GAME], contenders.flatMap((c) => c.games.map((g) => [c.label, ...gameCells(g)])));
}

/** One player's games (play): player, then the game's columns. */
export function playCsv(player: string, games: readonly PlayedGame[]): string {
  return csv(['player', ...GAME], games.map((g) => [player, ...gameCells(g)]));
}

/**
 * A run's games: generation, candidate, origin, purpose (fitness, validation, confirmation), the game's columns,
 * then one column per tuned parameter (its value as the candidate played it), in the store's order.
 */
export function runCsv(games: readonly RunGame[], candidates: ReadonlyMap<number, { origin: string; params: Record<string, number> }>, params: readonly string[]): string {
  return csv(
    ['generation', 'candidate', 'origin', 'purpose', ...GAME, ...params],
    games.map((g) => {
      const c = candidates.get(g.candidateId);
      return [g.generation, g.candidateId, c?.origin, g.purpose, ...gameCells(g), ...params.map((p) => c?.params[p])];
    }),
  );
}
