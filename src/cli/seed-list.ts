/**
 * `--seeds` of play and compare: the very seeds a figure was measured on, so any figure tune2048 wrote can be
 * played again game for game — a comma list (`7,11,9000001`), a file of seeds (`@seeds.txt`: one a line,
 * `#` comments), or the held-out seeds of a run in a database (`run:N`, its validation's; `run:N:confirmation`,
 * its second held-out set's), as export's provenance and `show --json` list them.
 */
import { readFileSync } from 'node:fs';
import { Store } from '../store/store';
import { describeFsError, InputError } from '../util/errors';
import { loadRunProblem } from '../tuner/run/run-problem';
import { validationSeeds } from '../tuner/run/seeds';
import { secondSetSeeds } from '../tuner/selection/validation';

/** The largest game seed: --seed's (2^53 − 1, past which seeds are no longer distinct integers). */
const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** Seeds as written: integers in [0, 2^53), none twice. */
function checked(seeds: readonly string[], where: string): number[] {
  if (seeds.length === 0) throw new InputError(`--seeds ${where}: no seed given`);
  const out = seeds.map((text) => {
    const v = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(v) || v > MAX_SEED) throw new InputError(`--seeds ${where}: "${text}" is not a seed (a whole number from 0 to ${MAX_SEED})`);
    return v;
  });
  const twice = out.find((s, i) => out.indexOf(s) !== i);
  if (twice !== undefined) throw new InputError(`--seeds ${where}: seed ${twice} is given twice (a comparison pairs games by seed)`);
  return out;
}

/** The seeds `--seeds` names; `db` is the database a `run:N` is read from (read-only). */
export function parseSeedList(arg: string, db: string): number[] {
  const run = /^run:(\d+)(?::(validation|confirmation))?$/.exec(arg);
  if (run) return runSeeds(Number(run[1]), (run[2] as 'validation' | 'confirmation' | undefined) ?? 'validation', db);
  if (arg.startsWith('@')) {
    const file = arg.slice(1);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new InputError(`--seeds ${arg}: cannot read "${file}": ${describeFsError(e)}`);
    }
    return checked(text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter((l) => l.length > 0), arg);
  }
  return checked(arg.split(',').map((s) => s.trim()), arg);
}

/** A run's held-out seeds (as its config derives them, or as its stored second set was played), from the database. */
function runSeeds(runId: number, set: 'validation' | 'confirmation', db: string): number[] {
  const store = Store.open(db, { readonly: true });
  try {
    const problem = loadRunProblem(store, runId);
    const { config } = problem;
    if (set === 'confirmation') {
      if (config.validation.confirm === undefined) throw new InputError(`--seeds run:${runId}:confirmation: run ${runId} played no second held-out set (its config has no validation.confirm)`);
      return secondSetSeeds(store, problem);
    }
    return validationSeeds(config.seed, config.validation.games);
  } finally {
    store.close();
  }
}
