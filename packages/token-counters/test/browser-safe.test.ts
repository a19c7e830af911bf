import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE = join(import.meta.dirname, '..', 'src');

describe('token-counters source', () => {
  it('imports no node: module, so that it runs in a browser', () => {
    const files = readdirSync(SOURCE).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(join(SOURCE, file), 'utf8');
      expect(text, file).not.toMatch(/from\s+['"]node:|require\(\s*['"]node:|import\(\s*['"]node:/);
    }
  });
});
