import { spawnSync } from 'node:child_process';

/** Every benchmark, by the name `pnpm bench <name>` runs alone. */
const BENCHES: Record<string, () => Promise<void>> = {
  counters: async () => (await import('./counters.js')).benchCounters(),
  'history-counting': async () => (await import('./history-counting.js')).benchHistoryCounting(),
  'provider-sqlite': async () => (await import('./provider-sqlite.js')).benchProviderSqlite(),
  'assembler-standard': async () =>
    (await import('./assembler-standard.js')).benchAssemblerStandard(),
  'compressor-simple': async () => (await import('./compressor-simple.js')).benchCompressorSimple(),
  'compressor-summarize': async () =>
    (await import('./compressor-summarize.js')).benchCompressorSummarize(),
  'fit-floor': async () => (await import('./fit-floor.js')).benchFitFloor(),
  'tool-output-store': async () => (await import('./tool-output-store.js')).benchToolOutputStore(),
  'fit-step': async () => (await import('./fit-step.js')).benchFitStep(),
};

/**
 * `pnpm bench` runs every benchmark, each in a fresh process that loads only its own module, so
 * one's heap (tokenizer tables, large histories) and JIT state cannot skew another; each still
 * measures its contenders and their baseline in one process. `pnpm bench <name>…` runs only those,
 * in this process.
 */
async function main(names: string[]): Promise<void> {
  for (const name of names) {
    if (!(name in BENCHES)) {
      throw new Error(
        `Unknown bench ${JSON.stringify(name)}; known: ${Object.keys(BENCHES).join(', ')}.`,
      );
    }
  }
  if (names.length > 0) {
    for (const name of names) await (BENCHES[name] as () => Promise<void>)();
    return;
  }
  for (const name of Object.keys(BENCHES)) {
    const run = spawnSync(
      process.execPath,
      [...process.execArgv, process.argv[1] as string, name],
      {
        stdio: 'inherit',
      },
    );
    if (run.status !== 0) throw new Error(`Bench ${name} failed (exit ${String(run.status)}).`);
  }
}

await main(process.argv.slice(2));
