/**
 * Writes the preset table of docs/compressor-simple.md from the fixture transcript. Run with
 * `pnpm preset-table` (at the root); test/docs-table.test.ts fails when it is stale.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderPresetTable, TABLE_END, TABLE_START } from './preset-table.js';

const page = new URL('../../../docs/compressor-simple.md', import.meta.url);
const text = readFileSync(page, 'utf8');
const start = text.indexOf(TABLE_START);
const end = text.indexOf(TABLE_END);
if (start === -1 || end < start)
  throw new Error(`docs/compressor-simple.md lacks the ${TABLE_START} … ${TABLE_END} markers.`);
const table = await renderPresetTable();
writeFileSync(page, `${text.slice(0, start + TABLE_START.length)}\n${table}\n${text.slice(end)}`);
// Pad the table as the repository's formatter does, so that `biome check` leaves it alone.
execFileSync('pnpm', ['exec', 'biome', 'format', '--write', fileURLToPath(page)], {
  stdio: 'inherit',
});
console.log(table);
