/**
 * What the generation loop (tuner.ts) drives: an optimizer proposes whole generations and
 * learns from their fitness. It never touches storage; its state is plain
 * JSON stored with each generation, so a resumed run continues exactly.
 */
export interface Proposal {
  genome: number[];
  origin: string;
  /** Candidate ids this one was made from. */
  parents: number[];
}

export interface Evaluated {
  id: number;
  genome: number[];
  origin: string;
  fitness: number;
  /** Each game's objective value, in seed order (fitness is their mean). */
  scores: number[];
}

export interface Generation {
  candidates: Proposal[];
  /** The optimizer state that produced these candidates (JSON-serialisable). */
  state: unknown;
}

export interface StateSummary {
  /** Mutation σ (GA) or step size σ (CMA-ES), in the normalised space; null when there is none. */
  stepSize: number | null;
  /** Games per candidate this generation asks for (null: the config's fitness.games). */
  games: number | null;
}

export interface Optimizer {
  /** Generation 0 around (or regardless of) the start genome. */
  initial(start: readonly number[], rng: () => number): Generation;
  /** Generation g from generation g − 1's evaluated candidates and the state that produced them. */
  next(previous: readonly Evaluated[], previousState: unknown, rng: () => number): Generation;
  /** What a stored state says, for progress lines and reports. */
  summary(state: unknown): StateSummary;
}
