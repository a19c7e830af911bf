import { benchAssemblerStandard } from './assembler-standard.js';
import { benchCompressorSimple } from './compressor-simple.js';
import { benchCompressorSummarize } from './compressor-summarize.js';
import { benchCounters } from './counters.js';
import { benchHistoryCounting } from './history-counting.js';
import { benchProviderSqlite } from './provider-sqlite.js';
import { benchToolOutputStore } from './tool-output-store.js';

/** Runs every benchmark in one process, one after the other, and prints their tables. */
async function main(): Promise<void> {
  await benchCounters();
  await benchHistoryCounting();
  await benchProviderSqlite();
  await benchAssemblerStandard();
  await benchCompressorSimple();
  await benchCompressorSummarize();
  await benchToolOutputStore();
}

await main();
