/**
 * The package runs from dist/, compiled to CommonJS by tsc, while most tests import the sources through
 * vitest (esbuild), which forgives what CommonJS does not: a top-level `const module` (or `exports`, `require`…)
 * clashes with the module wrapper's own parameters, and Node then mistakes the file for an ES module
 * ("exports is not defined in ES module scope", a learning thread that never starts). Every source file
 * of the package is compiled here as tsc compiles it and wrapped as Node wraps it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileFunction } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');
const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { exclude: string[] };
const base = ts.parseJsonConfigFileContent(ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, root);
const excluded = build.exclude.map((e) => join(root, e));

function sources(dir: string): string[] {
  if (excluded.includes(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('the compiled package', () => {
  const files = sources(join(root, 'src'));

  it('finds the sources (the learning thread among them)', () => {
    expect(files.map((f) => relative(root, f))).toContain('src/learn/ntuple/train-thread.ts');
  });

  it('every source file compiles to CommonJS that Node can wrap', () => {
    const refused: string[] = [];
    for (const file of files) {
      const js = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: { ...base.options, sourceMap: false, declaration: false }, fileName: file }).outputText;
      try {
        compileFunction(js, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
      } catch (e) {
        refused.push(`${relative(root, file)}: ${(e as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('a top-level `module` is caught (the check can fail)', () => {
    const js = ts.transpileModule("import { workerData } from 'node:worker_threads';\nconst { module } = workerData;\nexport const m = module;\n", { compilerOptions: base.options }).outputText;
    expect(() => compileFunction(js, ['exports', 'require', 'module', '__filename', '__dirname'])).toThrow(/module/);
  });
});
