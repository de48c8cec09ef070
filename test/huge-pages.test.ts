import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkMachine } from '../src/learn/ntuple/machine';
import { DEFAULT_TUPLES, ONE_STAGE } from '../src/learn/ntuple/shape';
import { adviseHugePages, HUGE_PAGES_ADDON_PATH } from '../src/wasm/huge-pages';

/** The kernel's flags of the mapping that holds `address` (/proc/self/smaps: "hg" once MADV_HUGEPAGE is on it). */
function vmFlagsAt(address: number): string[] {
  let inside = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (range) inside = parseInt(range[1], 16) <= address && address < parseInt(range[2], 16);
    else if (inside && line.startsWith('VmFlags:')) return line.slice(8).trim().split(/\s+/);
  }
  throw new Error(`no mapping holds ${address.toString(16)}`);
}

const MIB = 2 ** 20;
const memoryOf = (bytes: number) => new WebAssembly.Memory({ initial: bytes / 65536, maximum: bytes / 65536, shared: true });

describe('huge pages for the network memory (src/wasm/huge-pages.ts)', () => {
  afterEach(() => {
    delete process.env.TUNE2048_HUGE_PAGES;
  });

  it('is built here (npm run build:native: python3, make and g++ are on every machine this project runs on)', () => {
    expect(existsSync(HUGE_PAGES_ADDON_PATH)).toBe(true);
  });

  it('puts the kernel’s huge-page advice on whole 2 MiB pages inside the memory, and only there', () => {
    const memory = memoryOf(64 * MIB);
    const r = adviseHugePages(memory, 64 * MIB);
    expect(r.advised).toBe(true);
    if (!r.advised) return;
    expect(r.start % (2 * MIB)).toBe(0);
    // At most one partial huge page is left out at each end.
    expect(r.bytes % (2 * MIB)).toBe(0);
    expect(r.bytes).toBeGreaterThanOrEqual(60 * MIB);
    expect(r.bytes).toBeLessThanOrEqual(64 * MIB);
    expect(vmFlagsAt(r.start)).toContain('hg');
    expect(vmFlagsAt(r.start + r.bytes - 1)).toContain('hg');
    // The memory still reads and writes as before.
    const bytes = new Uint8Array(memory.buffer);
    bytes[r.start % 65536] = 7;
    expect(bytes[r.start % 65536]).toBe(7);
  });

  it('asks for no more than it is given: a memory without a whole huge page, or `bytes` past its end', () => {
    const small = adviseHugePages(memoryOf(1 * MIB), 1 * MIB);
    expect(small).toEqual({ advised: false, reason: 'the memory holds no whole 2 MiB page' });
    const over = adviseHugePages(memoryOf(8 * MIB), 1024 * MIB);
    expect(over.advised).toBe(true);
    if (over.advised) expect(over.bytes).toBeLessThanOrEqual(8 * MIB);
  });

  it('is off with TUNE2048_HUGE_PAGES=0, and a machine asked for none keeps 4 KiB pages', () => {
    process.env.TUNE2048_HUGE_PAGES = '0';
    expect(adviseHugePages(memoryOf(8 * MIB), 8 * MIB)).toEqual({ advised: false, reason: 'off (TUNE2048_HUGE_PAGES=0)' });
    delete process.env.TUNE2048_HUGE_PAGES;
    const shape = { tuples: DEFAULT_TUPLES, stages: ONE_STAGE, promote: true };
    const options = { threads: 0, trainSeed: 0, evalSeed: 0, step: 0, evalCapacity: 1 };
    const plain = new NetworkMachine(shape, { ...options, hugePages: false });
    expect(plain.hugePages.advised).toBe(false);
    const advised = new NetworkMachine(shape, options);
    expect(advised.hugePages.advised).toBe(true);
    if (advised.hugePages.advised) {
      // The tables (256 MiB of the default shape) are inside the advised range.
      expect(advised.hugePages.bytes).toBeGreaterThanOrEqual(256 * MIB);
      expect(vmFlagsAt(advised.hugePages.start)).toContain('hg');
    }
  });
});
