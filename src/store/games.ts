/**
 * Games as stored: a run's games by candidate and purpose (fitness, validation, confirmation), each finished
 * batch in one transaction; the moves of held-out games (the viewer's replays); and comparisons' games kept by
 * player and seed (compare --db goes on where it stopped).
 */
import type { StoreContext } from './context';
import { decodeStoredGame, gameColumns, type Game, type GamePurpose, type PlayedGame, type RunGame } from './records';

export class GameRecords {
  constructor(private readonly ctx: StoreContext) {}

  /** The games of a comparison's player (compare --db) among these seeds, by seed. */
  comparisonGames(player: string, seeds: readonly number[]): Map<number, PlayedGame> {
    const found = new Map<number, PlayedGame>();
    if (this.ctx.empty || seeds.length === 0) return found;
    const wanted = new Set(seeds);
    const rows = this.ctx.db
      .prepare(`SELECT seed, score, max_tile AS maxTile, moves, ms${this.countsNodes() ? ', nodes' : ''} FROM compare_games WHERE player = ? AND seed BETWEEN ? AND ?`)
      .all(player, Math.min(...seeds), Math.max(...seeds)) as PlayedGame[];
    for (const r of rows) if (wanted.has(r.seed)) found.set(r.seed, decodeStoredGame(r));
    return found;
  }

  /** Keeps a finished batch of a comparison's games in one transaction (a game already kept stays as it is). */
  keepComparisonGames(player: string, games: readonly PlayedGame[]): void {
    const insert = this.ctx.db.prepare('INSERT OR IGNORE INTO compare_games (player, seed, score, max_tile, moves, ms, nodes) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.ctx.db.transaction(() => {
      for (const g of games) insert.run(player, g.seed, g.score, g.maxTile, g.moves, g.ms, g.nodes ?? null);
    }).immediate();
  }

  /** Stores one finished batch in one immediate transaction; a game already stored is left as it is. */
  insertGames(games: readonly Game[]): void {
    this.ctx.write(() => this.putGames(games));
  }

  /** Games stored inside the caller's transaction; a game already stored is left as it is. */
  putGames(games: readonly Game[]): void {
    const insert = this.ctx.db.prepare(
      'INSERT OR IGNORE INTO games (candidate_id, purpose, seed, score, max_tile, moves, ms, nodes, regret) VALUES (@candidateId, @purpose, @seed, @score, @maxTile, @moves, @ms, @nodes, @regret)',
    );
    // Moves are kept for held-out games only: those are the ones the viewer shows (fitness games are many).
    const keepMoves = this.ctx.db.prepare('INSERT OR IGNORE INTO game_moves (candidate_id, purpose, seed, moves) VALUES (?, ?, ?, ?)');
    for (const g of games) {
      insert.run({ candidateId: g.candidateId, purpose: g.purpose, seed: g.seed, score: g.score, maxTile: g.maxTile, moves: g.moves, ms: g.ms, nodes: g.nodes ?? null, regret: g.regret ?? null });
      if (g.moveList !== undefined && g.purpose === 'validation') keepMoves.run(g.candidateId, g.purpose, g.seed, g.moveList);
    }
  }

  /** A run's kept moves of held-out games (an external player's, for the viewer), by "candidate:seed". */
  runMoves(runId: number): Map<string, string> {
    if (this.ctx.empty || this.ctx.schemaVersion() < 7) return new Map(); // an older file kept none
    const rows = this.ctx.db
      .prepare("SELECT m.candidate_id AS candidateId, m.seed, m.moves FROM game_moves m JOIN candidates c ON c.id = m.candidate_id WHERE c.run_id = ? AND m.purpose = 'validation'")
      .all(runId) as { candidateId: number; seed: number; moves: string }[];
    return new Map(rows.map((r) => [`${r.candidateId}:${r.seed}`, r.moves]));
  }

  /** A candidate's held-out game with its stored moves and the highest score (null: none kept, e.g. a built-in player's). */
  bestReplay(candidateId: number): { seed: number; score: number; moves: number; moveList: string } | null {
    if (this.ctx.empty || this.ctx.schemaVersion() < 7) return null; // a read-only look at an older file: no moves kept there
    return (
      (this.ctx.db
        .prepare(
          `SELECT g.seed, g.score, g.moves, m.moves AS moveList FROM games g JOIN game_moves m ON m.candidate_id = g.candidate_id AND m.purpose = g.purpose AND m.seed = g.seed
           WHERE g.candidate_id = ? AND g.purpose = 'validation' ORDER BY g.score DESC, g.seed LIMIT 1`,
        )
        .get(candidateId) as { seed: number; score: number; moves: number; moveList: string } | undefined) ?? null
    );
  }

  /** A candidate's games of one purpose, in seed order. */
  getGames(candidateId: number, purpose: GamePurpose): Game[] {
    return (this.ctx.db.prepare(`SELECT ${gameColumns('', this.countsNodes(), this.keepsRegret())} FROM games WHERE candidate_id = ? AND purpose = ? ORDER BY seed`).all(candidateId, purpose) as Game[]).map(decodeStoredGame);
  }

  /**
   * The games of one purpose of a generation's candidates, in one read: candidate id → its games in seed
   * order (a candidate with none is absent).
   */
  generationGames(runId: number, generation: number, purpose: GamePurpose): Map<number, Game[]> {
    const byCandidate = new Map<number, Game[]>();
    const rows = this.ctx.db
      .prepare(
        `SELECT ${gameColumns('g', this.countsNodes(), this.keepsRegret())} FROM games g JOIN candidates c ON c.id = g.candidate_id
         WHERE c.run_id = ? AND c.generation = ? AND g.purpose = ? ORDER BY c.idx, g.seed`,
      )
      .all(runId, generation, purpose) as Game[];
    for (const g of rows.map(decodeStoredGame)) {
      const list = byCandidate.get(g.candidateId);
      if (list) list.push(g);
      else byCandidate.set(g.candidateId, [g]);
    }
    return byCandidate;
  }

  /** Every game of a run in one read, in a stable order (generation, candidate, purpose, seed). */
  runGames(runId: number): RunGame[] {
    return this.ctx.db
      .prepare(
        `SELECT ${gameColumns('g', this.countsNodes(), this.keepsRegret())}, c.generation, c.idx AS candidateIdx FROM games g JOIN candidates c ON c.id = g.candidate_id
         WHERE c.run_id = ? ORDER BY c.generation, c.idx, g.purpose, g.seed`,
      )
      .all(runId)
      .map((g) => decodeStoredGame(g as RunGame));
  }

  /** Whether games keep their search cost (schema 10 on; a reader of an older file reads none). */
  private countsNodes(): boolean {
    return !this.ctx.empty && this.ctx.schemaVersion() >= 10;
  }

  /** Whether games keep the decision screen's regret (schema 12 on). */
  private keepsRegret(): boolean {
    return !this.ctx.empty && this.ctx.schemaVersion() >= 12;
  }
}
