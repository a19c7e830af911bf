import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const packageDir = new URL('../', import.meta.url);
const sourceDir = new URL('../src/', import.meta.url);

// Implementations compose in a pipeline and never import one another: the trimming that cuts a
// newest unit too large for the budget is a stage after this one, not an import of it.
it('depends on no other ctxkit implementation, in its dependencies or its sources', () => {
  const manifest = JSON.parse(readFileSync(new URL('package.json', packageDir), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const ours = Object.keys(manifest.dependencies ?? {}).filter((name) =>
    name.startsWith('@ctxkit/'),
  );
  expect(ours).toEqual(['@ctxkit/context-core']);

  const imported = readdirSync(sourceDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(new URL(file, sourceDir), 'utf8').matchAll(/from '(@ctxkit\/[^']+)'/g)].map(
        ([, specifier]) => `${file}: ${specifier}`,
      ),
    )
    .filter((line) => !line.endsWith(': @ctxkit/context-core'));
  expect(imported).toEqual([]);
});
