import { describe, expect, it } from 'vitest';
import { Store } from '../src/store/store';
import { buildRunReport } from '../src/report/report';
import { runCli } from './helpers/cli';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { smokeConfig, tempDb, tuneToEnd } from './helpers/runs';

/** The run data a report embeds for its charts. */
function runData(html: string) {
  const m = /<script type="application\/json" id="run-data">(.*?)<\/script>/s.exec(html);
  return JSON.parse(m![1]);
}

describe('run report', () => {
  it('is one offline HTML page whose charts carry the run\'s numbers', async () => {
    const db = tempDb();
    const { id } = await tuneToEnd(db, smokeConfig());
    const store = Store.open(db, { create: false });
    const html = buildRunReport(store, id);
    const gens = store.listGenerations(id);
    store.close();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script[^>]*\bsrc=|<link|https?:\/\//); // everything inline: nothing to fetch
    for (const id of ['fitness', 'step', 'params']) expect(html).toContain(`<figure id="${id}"><div id="chart-${id}" class="chart"></div></figure>`);
    // The charts are drawn from the run's data embedded in the page (drawn in a browser by test/serve.test.ts).
    const data = runData(html);
    expect(data.generations.map((g: { best: number }) => g.best)).toEqual(gens.map((g) => g.bestFitness));
    for (const g of gens) expect(html).toContain(`<td>${g.bestFitness!.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}</td>`);
    // The whole best weights, every weight as export writes it.
    expect(html).toContain('<h2>The best weights, whole</h2>');
    const exported = JSON.parse(runCli(['export', '1', '--db', db, '--json']).stdout).weights as Record<string, unknown>;
    expect(html).toContain(`<td>empty</td><td>${String(exported.empty)}</td>`);
    expect(html).toContain('Validation of the finalists');
  });

  it('report <run> writes the file and prints its path', async () => {
    const db = tempDb();
    await tuneToEnd(db, smokeConfig());
    const out = join(mkdtempSync(join(tmpdir(), 'tune2048-r-')), 'r.html');
    const r = runCli(['report', '1', '--db', db, '--out', out]);
    expect(r.code).toBe(0);
    // Said as export says it (issue 67): "wrote FILE" on stderr, nothing on stdout but data.
    expect(r.stderr.trim()).toBe(`wrote ${out}`);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toContain('tune2048 run 1');
  });
});

describe('stored comparisons', () => {
  it('compare --db --run stores the comparison and the run report shows its score distributions', async () => {
    const db = tempDb();
    await tuneToEnd(db, smokeConfig());
    const weights = join(mkdtempSync(join(tmpdir(), 'tune2048-w-')), 'best.json');
    expect(runCli(['export', '1', '--db', db, '--out', weights]).code).toBe(0);
    const r = runCli(['compare', weights, 'nneonneo', '-n', '8', '-d', '0', '--db', db, '--run', '1', '--workers', '2']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/stored as comparison 1 in .* \(run 1\)/);
    const store = Store.open(db, { create: false });
    const stored = store.listResults(1, 'comparison');
    const html = buildRunReport(store, 1);
    store.close();
    expect(stored).toHaveLength(1);
    expect(html).toContain('<figure id="comparison-1"><div id="chart-comparison-1" class="chart"></div></figure>');
    const [comparison] = runData(html).comparisons;
    expect(comparison.contenders.map((c: { label: string }) => c.label)).toContain('nneonneo');
    for (const c of comparison.contenders) expect(c.games).toHaveLength(8); // the ECDF's points: one per game
  });

  it('sweep --db --run stores the depth table and the report shows it', async () => {
    const db = tempDb();
    await tuneToEnd(db, smokeConfig());
    const r = runCli(['sweep', 'snake3', '--depths', '0,1', '-n', '3', '--db', db, '--run', '1', '--workers', '2']);
    expect(r.code).toBe(0);
    const store = Store.open(db, { create: false });
    const html = buildRunReport(store, 1);
    store.close();
    expect(html).toContain('Depth sweep of snake3 (3 games per depth)');
    expect(html).not.toContain('<h2>Comparisons</h2>');
  });

  it('--run without --db is refused', () => {
    const r = runCli(['compare', 'nneonneo', 'snake3', '--run', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--run needs --db/);
  });
});
