/** Temporary folders for a test file, in the suite's folder (TMPDIR), removed when the file ends. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A function that makes a new folder named PREFIX…, each removed when the test file ends. */
export function folders(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    made.push(d);
    return d;
  };
}
