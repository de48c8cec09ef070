import { describe, expect, it } from 'vitest';
import cliProgress from 'cli-progress';
import { etaTemplate } from '../src/cli/progress';

const options = { format: '', barsize: 10, barCompleteString: '#'.repeat(10), barIncompleteString: '-'.repeat(10), autopaddingChar: '0' } as unknown as cliProgress.Options;
const line = (value: number, eta: unknown) =>
  etaTemplate('{value}/{total} ETA {eta_formatted} elapsed {duration_formatted}')(
    options,
    { value, total: 10, eta: eta as number, progress: value / 10, startTime: Date.now() - 3000, stopTime: Date.now(), maxWidth: 200 } as cliProgress.Params,
    {},
  );

describe('progress line', () => {
  it('says the ETA is unknown before anything is done (cli-progress reports 0)', () => {
    expect(line(0, 0)).toContain('0/10 ETA unknown elapsed 03s');
  });
  it("says unknown for cli-progress's INF and NULL instead of printing 'NFs'", () => {
    expect(line(3, 'INF')).toContain('ETA unknown');
    expect(line(3, 'NULL')).toContain('ETA unknown');
  });
  it('prints a known ETA as minutes and seconds', () => {
    expect(line(3, 125)).toContain('3/10 ETA 02m05s');
  });
});
