import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  renderPresetTable,
  TABLE_END,
  TABLE_START,
  tableContent,
} from '../scripts/preset-table.js';

it('docs/compressor-simple.md shows the preset table of the current code (`pnpm preset-table` at the root rewrites it)', async () => {
  const page = readFileSync(new URL('../../../docs/compressor-simple.md', import.meta.url), 'utf8');
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  expect(start).toBeGreaterThan(-1);
  expect(tableContent(page.slice(start + TABLE_START.length, end))).toBe(
    tableContent(await renderPresetTable()),
  );
});
