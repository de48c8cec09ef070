/**
 * "The same point", one definition: two genomes are one point when they play as one player, the same game on
 * every seed — the gamesKey of the player each describes (player/spec.ts: its settings as played, a depth or a
 * rule's threshold rounded as the player rounds it, a network's cutoff that never prunes left out). The model
 * pools a point's games by it, validation takes distinct finalists and the front distinct points by it, and the
 * start is the candidate that is its point.
 */
import { createHash } from 'node:crypto';
import { gamesKey, type PlayerSpec } from '../../player/spec';

/** A genome's point key, from the run's player of a genome (a short hash of gamesKey: keys are compared by the thousand). */
export function pointKeyOf(playerOf: (genome: readonly number[]) => PlayerSpec): (genome: readonly number[]) => string {
  return (genome) => createHash('sha1').update(gamesKey(playerOf(genome))).digest('base64');
}
