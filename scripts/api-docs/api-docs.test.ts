import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UNTAGGED_PACKAGE } from './fixtures/untagged-package.js';
import { API_DOCS_DIR, ApiDocsError, generateApiDocs } from './generate-api-docs.js';
import { REPO_ROOT } from './published-packages.js';

const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-api-docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('API reference', () => {
  it('docs/api/ is what `pnpm api-docs` generates from the current sources', async () => {
    const fresh = join(scratch, 'fresh');
    await generateApiDocs(fresh);
    const committed = join(REPO_ROOT, API_DOCS_DIR);
    const expected = markdownFiles(fresh);
    const actual = markdownFiles(committed);
    const stale = [...new Set([...expected.keys(), ...actual.keys()])]
      .filter((file) => expected.get(file) !== actual.get(file))
      .sort();
    expect(stale, `stale files in ${API_DOCS_DIR}/: run \`pnpm api-docs\` and commit them`).toEqual(
      [],
    );
  });

  it('refuses to generate a reference with an undocumented export', async () => {
    const out = join(scratch, 'untagged');
    const error = await generateApiDocs(out, [UNTAGGED_PACKAGE]).catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiDocsError);
    expect((error as ApiDocsError).problems).toEqual([
      expect.stringMatching(
        /^undocumented \(Variable\), defined in .*untagged\/index\.ts, does not have any documentation$/,
      ),
    ]);
  });
});

/** Every file under `dir`, by path relative to it, with its text. */
function markdownFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path, 'utf8'));
  }
  return files;
}
