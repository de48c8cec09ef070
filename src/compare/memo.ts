/**
 * compare --db keeps every finished batch of a comparison in the database (compare_games) and, run again,
 * plays only the games it does not hold: a comparison of hours can be stopped (Ctrl-C, kill -9, a lost
 * machine) and go on. A game is known by the player that played it — a hash of its spec (weights, kind,
 * search settings) and of the search build (build/search.wasm and the package version: another build may
 * play differently) — and its seed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PlayerSpec } from '../solver/spec';
import type { Store } from '../store/store';
import { WASM_PATH } from '../wasm/module';
import type { GameMemo } from './compare';

let build: string | null = null;

/** The search build: its WebAssembly module's bytes and the package version. */
function searchBuild(): string {
  if (build === null) {
    const version = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
    build = `${version}:${createHash('sha1').update(readFileSync(WASM_PATH)).digest('hex')}`;
  }
  return build;
}

/** What decides a game besides its seed. */
export function playerKey(spec: PlayerSpec): string {
  return createHash('sha1').update(JSON.stringify({ spec, build: searchBuild() })).digest('hex');
}

/** A memo over a database open for writing (the parent is its only writer). */
export function storeMemo(store: Store): GameMemo {
  return {
    known: (spec, seeds) => store.comparisonGames(playerKey(spec), seeds),
    keep: (spec, games) => store.keepComparisonGames(playerKey(spec), games),
  };
}
