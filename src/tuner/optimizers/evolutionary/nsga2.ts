/**
 * NSGA-II (Deb, Pratap, Agarwal & Meyarivan 2002) in the optimizer seam: a population of N is kept by
 * non-dominated rank, then crowding distance (pareto.ts), from the parents and their evaluated offspring
 * together (elitist); the next N offspring come from binary tournaments on (rank, crowding), simulated binary
 * crossover and polynomial mutation in the normalised genome [0, 1]^n. The kept population is the state,
 * JSON with each generation, so a resumed run goes on to the same fronts.
 *
 * One change for noisy games (`reevaluate`, the default in runs): the kept population is proposed again each
 * generation (origin "elite") and plays the new seeds, a member's objectives becoming the mean over all its
 * games; measured once, a lucky point would hold its place for good.
 *
 * It reads each candidate's `objectives` (every one maximised; a cost negated): the tuner gives them for a
 * two-objective run (strength, and cost per move).
 */
import type { Generation, Optimizer, Proposal } from '../optimizer';
import { uniformGenome } from '../operators';
import { crowdingDistance, nonDominatedSort } from './pareto';

export interface Nsga2Config {
  /** N: the population kept, and the offspring per generation. */
  population: number;
  /** Probability that two parents are crossed (else the first is copied). */
  crossoverRate: number;
  /** SBX's distribution index (larger: children nearer their parents). */
  crossoverEta: number;
  /** Polynomial mutation's distribution index, and the chance of mutating each gene (default 1/n). */
  mutationEta: number;
  mutationRate?: number;
  /**
   * Under noise a kept member's objectives are a draw: kept as measured once, a lucky point would stay for good.
   * true: the kept population plays each generation's seeds again (as elites), its objectives the mean over
   * all its games (2N candidates a generation). false: Deb's NSGA-II, each point measured once.
   */
  reevaluate: boolean;
}

export const NSGA2_DEFAULTS: Omit<Nsga2Config, 'population'> = { crossoverRate: 0.9, crossoverEta: 15, mutationEta: 20, reevaluate: true };

/** A kept member: enough to rank it again beside the next offspring. */
interface Member {
  id: number;
  genome: number[];
  objectives: number[];
  /** The games its objectives are the mean of (absent: one measurement, weighed as one). */
  games?: number;
}

export interface Nsga2State {
  /** The population after environmental selection (empty in generation 0: its candidates are the first members). */
  population: Member[];
}

type Rng = () => number;

/** The N best of `pool` by rank then crowding; each with its rank and distance (for the tournaments). */
export function selectSurvivors(pool: readonly Member[], n: number): { members: Member[]; rank: number[]; crowding: number[] } {
  const points = pool.map((m) => m.objectives);
  const members: Member[] = [];
  const rank: number[] = [];
  const crowding: number[] = [];
  const fronts = nonDominatedSort(points);
  for (let f = 0; f < fronts.length && members.length < n; f++) {
    const front = fronts[f];
    const distance = crowdingDistance(points, front);
    // The last front that fits only in part keeps its most spread members (ties: the earlier candidate).
    const order = front.map((_, i) => i).sort((a, b) => distance[b] - distance[a] || pool[front[a]].id - pool[front[b]].id);
    for (const i of order.slice(0, n - members.length)) {
      members.push(pool[front[i]]);
      rank.push(f);
      crowding.push(distance[i]);
    }
  }
  return { members, rank, crowding };
}

/** Simulated binary crossover of two genomes in [0, 1] (Deb & Agrawal 1995, bounded form). */
function sbx(a: readonly number[], b: readonly number[], eta: number, rng: Rng): number[] {
  return a.map((x, i) => {
    const y = b[i];
    if (rng() > 0.5 || Math.abs(x - y) < 1e-14) return x;
    const [lo, hi] = x < y ? [x, y] : [y, x];
    const u = rng();
    const beta = 1 + (2 * Math.min(lo, 1 - hi)) / (hi - lo);
    const alpha = 2 - beta ** -(eta + 1);
    const q = u <= 1 / alpha ? (u * alpha) ** (1 / (eta + 1)) : (1 / (2 - u * alpha)) ** (1 / (eta + 1));
    const child = rng() < 0.5 ? 0.5 * (lo + hi - q * (hi - lo)) : 0.5 * (lo + hi + q * (hi - lo));
    return Math.min(1, Math.max(0, child));
  });
}

/** Polynomial mutation in [0, 1] (Deb & Goyal 1996). */
function polynomialMutation(g: readonly number[], eta: number, rate: number, rng: Rng): number[] {
  return g.map((x) => {
    if (rng() >= rate) return x;
    const u = rng();
    const delta = u < 0.5 ? (2 * u + (1 - 2 * u) * (1 - x) ** (eta + 1)) ** (1 / (eta + 1)) - 1 : 1 - (2 * (1 - u) + 2 * (u - 0.5) * x ** (eta + 1)) ** (1 / (eta + 1));
    return Math.min(1, Math.max(0, x + delta));
  });
}

export function createNsga2(cfg: Nsga2Config): Optimizer {
  return {
    initial(start, rng): Generation {
      const candidates: Proposal[] = [{ genome: [...start], origin: 'start', parents: [] }];
      while (candidates.length < cfg.population) candidates.push({ genome: uniformGenome(start.length, rng), origin: 'init', parents: [] });
      const state: Nsga2State = { population: [] };
      return { candidates, state };
    },

    next(previous, previousState, rng): Generation {
      const kept = new Map((previousState as Nsga2State).population.map((m) => [m.id, m]));
      const pool: Member[] = [];
      for (const c of previous) {
        if (!c.objectives) throw new Error(`NSGA-II: candidate ${c.id} has no objectives (a two-objective run gives them)`);
        const games = Math.max(1, c.scores.length);
        const parent = c.origin === 'elite' && c.parents ? kept.get(c.parents[0]) : undefined;
        if (!parent) {
          pool.push({ id: c.id, genome: [...c.genome], objectives: [...c.objectives], games });
          continue;
        }
        // A kept member measured again: the mean over all its games, under the newest id.
        kept.delete(parent.id);
        const before = parent.games ?? 1;
        pool.push({ id: c.id, genome: [...c.genome], objectives: c.objectives.map((x, k) => (parent.objectives[k] * before + x * games) / (before + games)), games: before + games });
      }
      // Members not measured again (Deb's form) stand as they were measured.
      const { members, rank, crowding } = selectSurvivors([...kept.values(), ...pool], cfg.population);
      // Binary tournament: the lower rank, then the larger crowding distance, then the earlier.
      const pick = (): number => {
        const a = Math.floor(rng() * members.length);
        const b = Math.floor(rng() * members.length);
        if (rank[a] !== rank[b]) return rank[a] < rank[b] ? a : b;
        if (crowding[a] !== crowding[b]) return crowding[a] > crowding[b] ? a : b;
        return Math.min(a, b);
      };
      const rate = cfg.mutationRate ?? 1 / Math.max(1, members[0]?.genome.length ?? 1);
      const candidates: Proposal[] = cfg.reevaluate ? members.map((m) => ({ genome: [...m.genome], origin: 'elite', parents: [m.id] })) : [];
      while (candidates.length < cfg.population * (cfg.reevaluate ? 2 : 1)) {
        const a = members[pick()];
        const b = members[pick()];
        const crossed = rng() < cfg.crossoverRate;
        const genome = polynomialMutation(crossed ? sbx(a.genome, b.genome, cfg.crossoverEta, rng) : a.genome, cfg.mutationEta, rate, rng);
        candidates.push({ genome, origin: 'offspring', parents: crossed ? [a.id, b.id] : [a.id] });
      }
      const state: Nsga2State = { population: members };
      return { candidates, state };
    },

    summary() {
      return { stepSize: null, games: null };
    },
  };
}
