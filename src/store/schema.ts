/**
 * The SQLite schema, as migrations applied in order. PRAGMA user_version is
 * the number of migrations applied; PRAGMA application_id marks the file as
 * tune2048's, so a foreign database is refused instead of written into.
 */

/** "T248" — identifies a tune2048 database. */
export const APPLICATION_ID = 0x54323438;

export const MIGRATIONS: readonly string[] = [
  // 1: runs, generations, candidates, games
  `
  CREATE TABLE runs (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    config        TEXT NOT NULL,            -- the validated config, JSON
    config_hash   TEXT NOT NULL,
    seed          INTEGER NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('running', 'stopped', 'failed', 'finished')),
    owner_pid     INTEGER,
    owner_host    TEXT,
    heartbeat_at  INTEGER,                  -- ms since epoch: the holder's last sign of life (from schema 10 kept at a release)
    created_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    best_candidate INTEGER
  );
  CREATE TABLE generations (
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    idx           INTEGER NOT NULL,
    state         TEXT NOT NULL,            -- optimizer state that produced this generation, JSON
    status        TEXT NOT NULL CHECK (status IN ('open', 'done')),
    best_fitness  REAL,
    mean_fitness  REAL,
    stdev_fitness REAL,
    games         INTEGER NOT NULL DEFAULT 0,
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    PRIMARY KEY (run_id, idx)
  );
  CREATE TABLE candidates (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    generation    INTEGER NOT NULL,
    idx           INTEGER NOT NULL,
    genome        TEXT NOT NULL,            -- normalised parameter vector, JSON
    params        TEXT NOT NULL,            -- tuned weights by name, JSON
    origin        TEXT NOT NULL,            -- init | elite | offspring | ...
    parents       TEXT NOT NULL,            -- candidate ids, JSON
    fitness       REAL,
    validation    REAL,                     -- objective on the validation games (finalists only)
    UNIQUE (run_id, generation, idx)
  );
  CREATE TABLE games (
    candidate_id  INTEGER NOT NULL REFERENCES candidates(id),
    purpose       TEXT NOT NULL CHECK (purpose IN ('fitness', 'validation')),
    seed          INTEGER NOT NULL,
    score         INTEGER NOT NULL,
    max_tile      INTEGER NOT NULL,
    moves         INTEGER NOT NULL,
    ms            REAL NOT NULL,
    PRIMARY KEY (candidate_id, purpose, seed)
  ) WITHOUT ROWID;
  `,
  // 2: why a run failed or stopped, and a lookup of a run's candidates by generation
  `
  ALTER TABLE runs ADD COLUMN error TEXT;
  CREATE INDEX candidates_by_run ON candidates (run_id, generation);
  `,
  // 3: paired comparisons (tune2048 compare --db), optionally tied to a run, for its report
  `
  CREATE TABLE comparisons (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER REFERENCES runs(id),
    created_at    INTEGER NOT NULL,
    result        TEXT NOT NULL             -- the whole comparison (settings, contenders with per-game results, pairs), JSON
  );
  CREATE INDEX comparisons_by_run ON comparisons (run_id);
  `,
  // 4: a comparison's games as they finish (compare --db), so an interrupted comparison goes on from them
  `
  CREATE TABLE compare_games (
    player        TEXT NOT NULL,            -- what decides a game besides its seed: a hash of the player spec and the search build
    seed          INTEGER NOT NULL,
    score         INTEGER NOT NULL,
    max_tile      INTEGER NOT NULL,
    moves         INTEGER NOT NULL,
    ms            REAL NOT NULL,
    PRIMARY KEY (player, seed)
  ) WITHOUT ROWID;
  `,
  // 5: what a stored result is (before, an optional "kind" inside its JSON told sweeps and race checkpoints apart)
  `
  ALTER TABLE comparisons ADD COLUMN kind TEXT NOT NULL DEFAULT 'comparison' CHECK (kind IN ('comparison', 'sweep', 'race-checkpoint'));
  UPDATE comparisons SET kind = json_extract(result, '$.kind') WHERE json_extract(result, '$.kind') IN ('sweep', 'race-checkpoint');
  CREATE INDEX comparisons_by_run_kind ON comparisons (run_id, kind);
  `,
  // 6: learning runs (tune2048 learn): a line network trained by TD learning, checkpointed at game boundaries
  `
  CREATE TABLE learn_runs (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    config        TEXT NOT NULL,            -- the validated learning config, JSON
    status        TEXT NOT NULL CHECK (status IN ('running', 'stopped', 'failed', 'finished')),
    owner_pid     INTEGER,
    owner_host    TEXT,
    heartbeat_at  INTEGER,
    created_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    error         TEXT
  );
  CREATE TABLE learn_checkpoints (
    run_id        INTEGER NOT NULL REFERENCES learn_runs(id),
    games         INTEGER NOT NULL,         -- training games done (the next game to play has this number)
    mean_score    REAL NOT NULL,            -- of the training games since the previous checkpoint
    max_tile      INTEGER NOT NULL,         -- the largest tile of those games
    tables        BLOB,                     -- the network (a line-table file's bytes); kept for the latest checkpoint only
    at            INTEGER NOT NULL,
    PRIMARY KEY (run_id, games)
  ) WITHOUT ROWID;
  `,
  // 7: the moves of held-out games whose player the viewer cannot run (external programs), to replay them
  `
  CREATE TABLE game_moves (
    candidate_id  INTEGER NOT NULL REFERENCES candidates(id),
    purpose       TEXT NOT NULL CHECK (purpose IN ('fitness', 'validation')),
    seed          INTEGER NOT NULL,
    moves         TEXT NOT NULL,            -- one letter a move: u d l r
    PRIMARY KEY (candidate_id, purpose, seed)
  ) WITHOUT ROWID;
  `,
  // 8: n-tuple networks (hundreds of MB): a checkpoint names its network file beside the database, and keeps its curve's figures
  `
  ALTER TABLE learn_checkpoints ADD COLUMN table_file TEXT;     -- the network file, relative to the database's folder; latest checkpoint only
  ALTER TABLE learn_checkpoints ADD COLUMN table_sha256 TEXT;
  ALTER TABLE learn_checkpoints ADD COLUMN stats TEXT;          -- JSON: moves, training seconds, the last training games' and the held-out games' summaries
  `,
  // 9: a learning run's late-start boards, stored at their first collection (minutes of games) so a resume reads them back
  `
  CREATE TABLE learn_starts (
    run_id        INTEGER PRIMARY KEY REFERENCES learn_runs(id),
    boards        BLOB NOT NULL             -- per board its two halves (lo, hi) as int32 little-endian, in collection order
  );
  `,
  // 10: a generation's time without the stops in it (a resumed generation's wall time counted the gap), where a run last played, and each game's search cost
  `
  ALTER TABLE generations ADD COLUMN paused_ms INTEGER NOT NULL DEFAULT 0;  -- time between a stop in this generation and its resume
  ALTER TABLE runs ADD COLUMN last_queue TEXT;  -- the Redis queue its last session played on (as displayed: no password), NULL: local workers
  ALTER TABLE games ADD COLUMN nodes INTEGER;          -- positions the search expanded in the game (its cost); NULL: not counted
  ALTER TABLE compare_games ADD COLUMN nodes INTEGER;
  `,
  // 11: the model's finalists and a second held-out set: a finalist's predicted mean, the confirmation games (validation.confirm) and their value
  `
  ALTER TABLE candidates ADD COLUMN prediction TEXT;     -- the model's prediction at a finalist when validation began, JSON: mean, sd, games (, cost)
  ALTER TABLE candidates ADD COLUMN confirmation REAL;   -- the objective on the confirmation games (the race's winner and the start)
  CREATE TABLE games_v11 (
    candidate_id  INTEGER NOT NULL REFERENCES candidates(id),
    purpose       TEXT NOT NULL CHECK (purpose IN ('fitness', 'validation', 'confirmation')),
    seed          INTEGER NOT NULL,
    score         INTEGER NOT NULL,
    max_tile      INTEGER NOT NULL,
    moves         INTEGER NOT NULL,
    ms            REAL NOT NULL,
    nodes         INTEGER,
    PRIMARY KEY (candidate_id, purpose, seed)
  ) WITHOUT ROWID;
  INSERT INTO games_v11 (candidate_id, purpose, seed, score, max_tile, moves, ms, nodes) SELECT candidate_id, purpose, seed, score, max_tile, moves, ms, nodes FROM games;
  DROP TABLE games;
  ALTER TABLE games_v11 RENAME TO games;
  CREATE TABLE game_moves_v11 (
    candidate_id  INTEGER NOT NULL REFERENCES candidates(id),
    purpose       TEXT NOT NULL CHECK (purpose IN ('fitness', 'validation', 'confirmation')),
    seed          INTEGER NOT NULL,
    moves         TEXT NOT NULL,
    PRIMARY KEY (candidate_id, purpose, seed)
  ) WITHOUT ROWID;
  INSERT INTO game_moves_v11 SELECT candidate_id, purpose, seed, moves FROM game_moves;
  DROP TABLE game_moves;
  ALTER TABLE game_moves_v11 RENAME TO game_moves;
  `,
  // 12: the decision screen (fitness.screen): a fitness game's mean regret, its sampled decisions judged by the network searched deeper
  `
  ALTER TABLE games ADD COLUMN regret REAL;   -- mean regret of the game's judged decisions; NULL: not screened
  `,
];

/**
 * The oldest schema a read-only command reads as it is (a reader never migrates): from 4 on, the
 * differences are ones the store reads around (schema 5's kind column is derived from the JSON in 4).
 */
export const OLDEST_READABLE_SCHEMA = 4;

export const SCHEMA_VERSION = MIGRATIONS.length;
