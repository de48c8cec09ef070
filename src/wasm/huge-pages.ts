/**
 * Transparent huge pages for a WebAssembly memory: a network's tables are hundreds of MiB read at random,
 * and with 4 KiB pages nearly every read also misses the TLB (docs/networks.md, "Huge pages"). Linux backs a
 * mapping with 2 MiB pages when the program asks (madvise), which JavaScript cannot do: a small native addon
 * (src/wasm/native, built by `npm run build:native` into build/huge-pages.node) makes that one call. Without
 * the addon (no compiler; the npm package ships no native code), on another system, or with
 * TUNE2048_HUGE_PAGES=0 the memory keeps 4 KiB pages: only the speed differs, never a value.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

/** build/ of this package (two levels above both src/wasm and dist/wasm). */
export const HUGE_PAGES_ADDON_PATH = resolve(__dirname, '..', '..', 'build', 'huge-pages.node');

/** What asking for huge pages gave: the advised range (addresses in this process), or why there is none. */
export type HugePages = { advised: true; start: number; bytes: number } | { advised: false; reason: string };

interface Addon {
  advise(buffer: ArrayBuffer | SharedArrayBuffer, bytes: number): [number, number] | number;
}

let addon: Addon | string | undefined;

/** The addon, or why it is not there (loaded once a process). */
function loadAddon(): Addon | string {
  if (addon !== undefined) return addon;
  if (process.platform !== 'linux') addon = `not on Linux (${process.platform})`;
  else if (!existsSync(HUGE_PAGES_ADDON_PATH)) addon = `${HUGE_PAGES_ADDON_PATH} is not there (npm run build makes it in a clone of the project; the package ships no native code)`;
  else {
    try {
      addon = createRequire(__filename)(HUGE_PAGES_ADDON_PATH) as Addon;
    } catch (e) {
      addon = `${HUGE_PAGES_ADDON_PATH} does not load: ${(e as Error).message.split('\n')[0]}`;
    }
  }
  return addon;
}

/**
 * Asks the kernel to back the first `bytes` of a memory with huge pages, before they are first touched (pages
 * already touched keep their size). Never throws: a memory that cannot have them works as before.
 */
export function adviseHugePages(memory: WebAssembly.Memory, bytes: number): HugePages {
  // The viewer's search worker builds machines too, in a browser: no process, no kernel to ask.
  if (typeof process === 'undefined') return { advised: false, reason: 'not in Node.js' };
  if (process.env.TUNE2048_HUGE_PAGES === '0') return { advised: false, reason: 'off (TUNE2048_HUGE_PAGES=0)' };
  const a = loadAddon();
  if (typeof a === 'string') return { advised: false, reason: a };
  const r = a.advise(memory.buffer, bytes);
  if (typeof r === 'number') return { advised: false, reason: `madvise refused (errno ${-r})` };
  return r[1] > 0 ? { advised: true, start: r[0], bytes: r[1] } : { advised: false, reason: 'the memory holds no whole 2 MiB page' };
}

/** One line for a benchmark's output: which pages a memory has, and why when not huge ones. */
export function describePages(pages: HugePages): string {
  return pages.advised ? 'huge pages' : `4 KiB pages: ${pages.reason}`;
}
