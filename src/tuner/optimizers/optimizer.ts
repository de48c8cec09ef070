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
  /** Candidate ids it was made from (an elite: the one it measures again). */
  parents?: number[];
  fitness: number;
  /** Each game's objective value, in seed order (fitness is their mean). */
  scores: number[];
  /** A multi-objective run's objectives, each to be maximised (a cost negated): NSGA-II ranks by them. */
  objectives?: number[];
  /** A run that counts cost (fitness.cost): each game's positions searched (undefined: its player counted none) and moves, in seed order. */
  costGames?: { nodes?: number; moves: number }[];
  /** With fitness.racing, the round of the generation's race it reached (optimizers/ranking.ts ranks by it first). */
  round?: number;
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
  /**
   * A model-based optimizer's account of how it chose this generation's point, for the log, show and the
   * report: what it did ("step", "hold", "sample: why") and the mean it predicts at the point, with its
   * standard error (absent for optimizers without a model).
   */
  model?: { decision: string; predicted: { mean: number; se: number; gain: number; gainSe: number; lackOfFit: number; misfit: boolean; overStart?: { gain: number; se: number } } | null };
}

export interface Optimizer {
  /**
   * True for an optimizer that learns from every game of the run (the surrogate): the tuner then passes
   * `history`, every evaluated candidate of generations 0 … g − 1 (read from the store, so a resumed run
   * sees what a straight one does).
   */
  readonly pooled?: boolean;
  /** Generation 0 around (or regardless of) the start genome. */
  initial(start: readonly number[], rng: () => number): Generation;
  /** Generation g from generation g − 1's evaluated candidates and the state that produced them. */
  next(previous: readonly Evaluated[], previousState: unknown, rng: () => number, history?: readonly Evaluated[]): Generation;
  /**
   * Lagged proposals (optimizer.lag, no generation barrier): point k alone, from `history` — the evaluated
   * points before k − lag, all of them finished — with `pending`, the genomes proposed since (not yet known),
   * and the state stored with point k − 1. A function of those only, so the run is the same for any number of
   * workers and however often it was resumed. Absent: the optimizer proposes whole generations only.
   */
  proposeAt?(k: number, history: readonly Evaluated[], pending: readonly (readonly number[])[], previousState: unknown, rng: () => number, start: readonly number[]): Generation;
  /** What a stored state says, for progress lines and reports. */
  summary(state: unknown): StateSummary;
  /**
   * An optimizer with a model of the whole space names the finalists itself (the model optimizer): the
   * played points it predicts best, with its prediction at each, from every evaluated candidate of the run
   * and the last generation's state, no two of them correlated above maxCorrelation in its model (1: any).
   * Absent: the finalists are the last generation's best by fitness.
   */
  finalists?(history: readonly Evaluated[], lastState: unknown, count: number, maxCorrelation?: number): { genome: number[]; prediction: { mean: number; sd: number; games: number; cost?: number; withinCeiling?: number } }[];
}

/** One line for a model's account: "step: predicted 121,300 ± 4,700, gain +4,100 ± 3,700, over the start +9,800 ± 6,000 (95 %)". */
export function describeModel(model: NonNullable<StateSummary['model']>): string {
  const p = model.predicted;
  if (!p) return model.decision;
  // Scores in whole points; an objective of small numbers (a regret, a reach rate, log2 of a tile) with two decimals.
  const small = Math.abs(p.mean) < 100;
  const n = (x: number) => (small ? x.toFixed(2) : Math.round(x).toLocaleString('en-US'));
  const signed = (x: number) => `${x > 0 ? '+' : ''}${n(x)}`;
  const gain = (p.gain !== 0 ? `, gain ${signed(p.gain)} ± ${n(1.96 * p.gainSe)}` : '') + (p.overStart ? `, over the start ${signed(p.overStart.gain)} ± ${n(1.96 * p.overStart.se)}` : '');
  // A surface that misses its own points by more than their noise is biased where it peaks: say so.
  const misfit = p.misfit ? `; the surface misses its points by ${p.lackOfFit.toFixed(2)}× their noise: biased near the top, the interval too` : '';
  return `${model.decision}: predicted ${n(p.mean)} ± ${n(1.96 * p.se)}${gain} (95 %${misfit})`;
}
