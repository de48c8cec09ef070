/**
 * One comparison from several `tune2048 compare --json` outputs played on consecutive seed ranges with the
 * same contenders and settings (a long comparison run in chunks, so that stopping it loses one chunk at
 * most): the games joined in seed order, then the usual tables (or --json).
 *
 *   npx tsx scripts/merge-compare.ts [--json] chunk-0.json chunk-1.json …
 */
import { installProcessGuards } from '../src/cli/process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { summarizePlayed, type Comparison } from '../src/compare/compare';
import { printTables } from '../src/cli/commands/compare';
installProcessGuards(); // a closed stdout (| head) ends the script quietly, as it ends a command

const { values, positionals } = parseArgs({ options: { json: { type: 'boolean' } }, allowPositionals: true });
if (positionals.length === 0) {
  console.error('usage: npx tsx scripts/merge-compare.ts [--json] chunk.json …');
  process.exit(2);
}
const parts = positionals.map((file) => ({ file, c: JSON.parse(readFileSync(file, 'utf8')) as Comparison })).sort((a, b) => a.c.settings.seed - b.c.settings.seed);
const first = parts[0].c;
const labels = first.contenders.map((c) => c.label);
let next = first.settings.seed;
for (const { file, c } of parts) {
  const why =
    c.contenders.map((x) => x.label).join() !== labels.join() ? `its contenders are ${c.contenders.map((x) => x.label).join(', ')}, not ${labels.join(', ')}` :
    c.settings.depth !== first.settings.depth || c.settings.cprob !== first.settings.cprob ? 'its depth or cprob differ' :
    c.settings.seed !== next ? `its seeds start at ${c.settings.seed}, not ${next} (ranges must follow each other)` : null;
  if (why) {
    console.error(`merge-compare: ${file}: ${why}`);
    process.exit(2);
  }
  next += c.settings.games;
}
const played = labels.map((_, k) => parts.flatMap(({ c }) => c.contenders[k].games));
const { results, pairs } = summarizePlayed(labels.map((label) => ({ label })), played, first.settings.seed);
const merged: Comparison = { settings: { ...first.settings, games: played[0].length }, contenders: results, pairs };
if (values.json) console.log(JSON.stringify(merged));
else printTables(merged);
