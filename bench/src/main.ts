import { benchAssemblerStandard } from './assembler-standard.js';
import { benchCompressorSimple } from './compressor-simple.js';
import { benchCounters } from './counters.js';
import { benchHistoryCounting } from './history-counting.js';
import { benchProviderSqlite } from './provider-sqlite.js';

/** Runs every benchmark in one process, one after the other, and prints their tables. */
async function main(): Promise<void> {
  await benchCounters();
  await benchHistoryCounting();
  await benchProviderSqlite();
  await benchAssemblerStandard();
  await benchCompressorSimple();
}

await main();
