/**
 * Published results of n-tuple networks at the plies tune2048's search reaches, as the front chart draws them
 * beside a network's front (a line at each row's mean: the programs ran on other machines, so their cost
 * cannot share the chart's x axis; their ply can be read against the front's depths). Plain data with no
 * Node import, so the dashboard's bundle takes it too. The sources are the programs' READMEs and papers.
 */

export interface PublishedRow {
  /** Who, with which network and training. */
  program: string;
  /** Layers of the player's moves, as the source counts them. */
  ply: number;
  /** The same search in tune2048's count (chance layers below the root move): ply − 1. */
  depth: number;
  mean: number;
  /** Share of games that made 32768, in [0, 1]. */
  rate32768: number;
}

/**
 * ziap/2048-tdl's 4×6 network with restarts, TD(λ 0.5) and coherence (one stage) after 400,000 and 1,000,000
 * training games: greedy (1-ply) and 3-ply (tune2048's depth 2) with the 3-ply rates, from its README and the
 * README's history; the curve tables of a learning run print them beside its own (learn/ntuple/training-table.ts).
 */
export const ZIAP_4X6_RESTARTS = [
  { games: 400_000, greedy: 169_236, threePly: 390_726, r16384: 0.803, r32768: 0.308, source: 'ziap/2048-tdl README history' },
  { games: 1_000_000, greedy: 201_381, threePly: 419_479, r16384: 0.802, r32768: 0.357, source: 'ziap/2048-tdl README' },
] as const;
const ZIAP_1M = ZIAP_4X6_RESTARTS[1];

export const PUBLISHED_NETWORK_ROWS: readonly PublishedRow[] = [
  { program: 'ziap/2048-tdl 4×6, TD(λ) + TC + restarts, 1 M games', ply: 1, depth: 0, mean: ZIAP_1M.greedy, rate32768: 0.036 },
  { program: 'ziap/2048-tdl 4×6, TD(λ) + TC, no restarts, 1 M games', ply: 3, depth: 2, mean: 328_087, rate32768: 0.002 },
  { program: 'ziap/2048-tdl 4×6, TD(λ) + TC + restarts, 1 M games', ply: 3, depth: 2, mean: ZIAP_1M.threePly, rate32768: ZIAP_1M.r32768 },
  { program: 'Jaśkowski 2018, 5×6 + redundant tuples, 16 stages', ply: 2, depth: 1, mean: 457_079, rate32768: 0.34 },
  { program: 'Jaśkowski 2018, 5×6 + redundant tuples, 16 stages', ply: 3, depth: 2, mean: 511_759, rate32768: 0.5 },
];

/** A row as a chart legend names it. */
export function publishedLabel(row: PublishedRow): string {
  return `published: ${row.program}, ${row.ply}-ply (depth ${row.depth}): ${row.mean.toLocaleString('en-US')}, 32768 in ${Math.round(row.rate32768 * 1000) / 10} %`;
}

/**
 * The published rows a front chart draws: a network's mean-score front (its own, or another in the database)
 * is measured against them; a heuristic's alone is not (they stand 3× above it and would flatten it).
 */
export function publishedRowsFor(objective: string, players: readonly string[]): readonly PublishedRow[] {
  return objective === 'mean-score' && players.some((p) => p.startsWith('network:')) ? PUBLISHED_NETWORK_ROWS : [];
}
