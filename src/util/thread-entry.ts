/**
 * The file a worker thread runs: the compiled .js beside the caller, or from TypeScript sources (tests,
 * tsx) the .ts with tsx loaded in the thread too.
 */
export function threadEntry(callerFile: string, dir: string, name: string): { file: string; execArgv: string[] } {
  return callerFile.endsWith('.ts') ? { file: `${dir}/${name}.ts`, execArgv: ['--require', require.resolve('tsx/cjs')] } : { file: `${dir}/${name}.js`, execArgv: [] };
}
