import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const turbo = JSON.parse(readFileSync(new URL('../../../turbo.json', import.meta.url), 'utf8')) as {
  tasks: Record<string, { dependsOn?: string[] }>;
};

// The manager is where ctxkit composes: besides the contract, it may use the compressors its
// presets are made of (a summarizing one is passed in), the prompt-cache simulator of its cost
// predictions and the counters, nothing else of ours. Its tests use more (the SQLite
// store), which would make a build cycle, so its build waits for its run-time dependencies only.
const RUN_TIME = [
  '@ctxkit/compressor-simple',
  '@ctxkit/context-core',
  '@ctxkit/prompt-cache',
  '@ctxkit/token-counters',
  '@ctxkit/tool-output-store',
];

it('depends at run time on the contract, the compressors of its presets, the cache simulator and the counters only', () => {
  const ours = Object.keys(manifest.dependencies ?? {}).filter((name) =>
    name.startsWith('@ctxkit/'),
  );
  expect(ours.sort()).toEqual(RUN_TIME);
});

it('builds after exactly those packages (turbo.json), so no test dependency makes a cycle', () => {
  const waits = turbo.tasks['@ctxkit/context-manager#build']?.dependsOn ?? [];
  expect(waits.map((task) => task.replace(/#build$/, '')).sort()).toEqual(RUN_TIME);
});
