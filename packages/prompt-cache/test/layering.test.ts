import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const packageDir = new URL('../', import.meta.url);
const sourceDir = new URL('../src/', import.meta.url);

// The simulator is an implementation: besides the contract (the model table, BilledCost, the
// errors) it uses nothing of ours; counters come in as a TokenCounter from the caller.
const ALLOWED = ['@ctxkit/context-core'];

it('depends on the contract only, in its dependencies and its sources', () => {
  const manifest = JSON.parse(readFileSync(new URL('package.json', packageDir), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const ours = Object.keys(manifest.dependencies ?? {}).filter((name) =>
    name.startsWith('@ctxkit/'),
  );
  expect(ours).toEqual(ALLOWED);
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
