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

export const PUBLISHED_NETWORK_ROWS: readonly PublishedRow[] = [
  { program: 'ziap/2048-tdl 4×6, TD(λ) + TC + restarts, 1 M games', ply: 1, depth: 0, mean: 201_381, rate32768: 0.036 },
  { program: 'ziap/2048-tdl 4×6, TD(λ) + TC, no restarts, 1 M games', ply: 3, depth: 2, mean: 328_087, rate32768: 0.002 },
  { program: 'ziap/2048-tdl 4×6, TD(λ) + TC + restarts, 1 M games', ply: 3, depth: 2, mean: 419_479, rate32768: 0.357 },
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
