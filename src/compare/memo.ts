/**
 * compare --db keeps every finished batch of a comparison in the database (compare_games) and, run again,
 * plays only the games it does not hold: a comparison of hours can be stopped (Ctrl-C, kill -9, a lost
 * machine) and go on. A game is known by the player that played it — a hash of its playerKey (kind, the
 * heuristic's fields, search settings; not a preset's name or description) and of the build its games
 * depend on (the package version, and build/search.wasm for tune2048's heuristic players, build/learn.wasm
 * for a network; an external program's games depend on neither module: a rebuild keeps them) — and its seed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { playerKey, type PlayerSpec } from '../player/spec';
import type { Store } from '../store/store';
import { WASM_PATH } from '../wasm/module';
import { LEARN_WASM_PATH } from '../learn/ntuple/machine';
import type { GameMemo } from './compare';

const builds = new Map<string, string>();

/** The package version, with a WebAssembly module's bytes (null: none). */
function buildOf(wasm: string | null): string {
  const key = wasm ?? '';
  let build = builds.get(key);
  if (build === undefined) {
    const version = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
    build = wasm === null ? `${version}:external` : `${version}:${createHash('sha1').update(readFileSync(wasm)).digest('hex')}`;
    builds.set(key, build);
  }
  return build;
}

/** The search build (build/search.wasm and the package version): what tune2048's own players' games depend on. */
function searchBuild(): string {
  return buildOf(WASM_PATH);
}

/** The build a player's games depend on: the search module, the learning module (a network) or neither (an external program). */
function buildFor(spec: PlayerSpec): string {
  return spec.kind === 'external' ? buildOf(null) : spec.kind === 'network' ? buildOf(LEARN_WASM_PATH) : searchBuild();
}

/** What decides a game besides its seed: the player (playerKey: labels such as a preset's description left out) and the build. */
export function memoKey(spec: PlayerSpec): string {
  return createHash('sha1').update(`${playerKey(spec)}\n${buildFor(spec)}`).digest('hex');
}

/** The key of tune2048 0.1's first memos (the whole spec, labels included): still read, never written (`build`: another build's, for tests). */
export function legacyMemoKey(spec: PlayerSpec, build = searchBuild()): string {
  return createHash('sha1').update(JSON.stringify({ spec, build })).digest('hex');
}

/** A memo over a database open for writing (the parent is its only writer). */
export function storeMemo(store: Store): GameMemo {
  return {
    known: (spec, seeds) => {
      const found = store.comparisonGames(memoKey(spec), seeds);
      const missing = seeds.filter((s) => !found.has(s));
      if (missing.length > 0) for (const [seed, game] of store.comparisonGames(legacyMemoKey(spec), missing)) found.set(seed, game);
      return found;
    },
    keep: (spec, games) => store.keepComparisonGames(memoKey(spec), games),
  };
}
