/**
 * Genetic operators as small pure functions on genomes in [0, 1]^n (DEAP
 * style): all randomness comes from the rng passed in, and every result stays
 * inside the bounds.
 */
export type Genome = readonly number[];
export type Rng = () => number;

/** Folds x back into [0, 1] (mirror at the bounds), keeping mutations' spread near the edges. */
export function reflect(x: number): number {
  let y = x;
  for (let i = 0; i < 4 && (y < 0 || y > 1); i++) y = y < 0 ? -y : 2 - y;
  return Math.min(1, Math.max(0, y));
}

/** A standard normal draw (Box–Muller). */
export function gaussian(rng: Rng): number {
  let u = 0;
  while (u === 0) u = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

/** The index of the fittest of k entrants drawn with replacement (ties: the lower index). */
export function tournamentSelect(fitness: readonly number[], k: number, rng: Rng): number {
  let best = Math.floor(rng() * fitness.length);
  for (let i = 1; i < k; i++) {
    const j = Math.floor(rng() * fitness.length);
    if (fitness[j] > fitness[best] || (fitness[j] === fitness[best] && j < best)) best = j;
  }
  return best;
}

/** Each gene from either parent with probability 1/2. */
export function uniformCrossover(a: Genome, b: Genome, rng: Rng): number[] {
  return a.map((x, i) => (rng() < 0.5 ? x : b[i]));
}

/** BLX-α: each gene uniform in [lo − α·d, hi + α·d] of the parents' genes, reflected into bounds. */
export function blendCrossover(a: Genome, b: Genome, alpha: number, rng: Rng): number[] {
  return a.map((x, i) => {
    const lo = Math.min(x, b[i]);
    const hi = Math.max(x, b[i]);
    const d = hi - lo;
    return reflect(lo - alpha * d + rng() * (d + 2 * alpha * d));
  });
}

/** Adds N(0, σ²) to each gene with probability `rate`, reflected into bounds. */
export function gaussianMutation(g: Genome, sigma: number, rate: number, rng: Rng): number[] {
  return g.map((x) => (rng() < rate ? reflect(x + sigma * gaussian(rng)) : x));
}

/** A genome drawn uniformly from the space. */
export function uniformGenome(n: number, rng: Rng): number[] {
  return Array.from({ length: n }, () => rng());
}
