import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const sourceDir = new URL('../src/', import.meta.url);

// The inspector is a tool over what the provider stores: it reads the contract's shapes
// (events, changes, costs, errors) and the provider's schema (tables, migration names), nothing
// else of ours; the manager and the counters only make its tests' databases.
const ALLOWED = ['@ctxkit/context-core', '@ctxkit/provider-sqlite'];

it('depends on the contract and the provider schema only, in its dependencies and its sources', () => {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as {
    dependencies?: Record<string, string>;
  };
  expect(
    Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@ctxkit/')),
  ).toEqual(ALLOWED);
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
