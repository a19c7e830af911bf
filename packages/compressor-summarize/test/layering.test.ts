import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const packageDir = new URL('../', import.meta.url);
const sourceDir = new URL('../src/', import.meta.url);

// Implementations compose in a pipeline and never import one another: the trimming that cuts a
// newest unit too large for the budget is a stage after this one, not an import of it. Besides
// the contract, only the counters package may be used (the chat summarizer's default counter).
const ALLOWED = ['@ctxkit/context-core', '@ctxkit/token-counters'];

it('depends on no other ctxkit implementation, in its dependencies or its sources', () => {
  const manifest = JSON.parse(readFileSync(new URL('package.json', packageDir), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const ours = Object.keys(manifest.dependencies ?? {}).filter((name) =>
    name.startsWith('@ctxkit/'),
  );
  expect(ours.filter((name) => !ALLOWED.includes(name))).toEqual([]);

  const imported = readdirSync(sourceDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(new URL(file, sourceDir), 'utf8').matchAll(/from '(@ctxkit\/[^']+)'/g)].map(
        ([, specifier]) => `${file}: ${specifier}`,
      ),
    )
    .filter((line) => !ALLOWED.some((name) => line.endsWith(`: ${name}`)));
  expect(imported).toEqual([]);
});
