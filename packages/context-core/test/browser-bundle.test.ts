import { fileURLToPath } from 'node:url';
import { runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundleForBrowser, runInBrowserContext } from './browser/bundle-for-browser.js';
import type { KitTestResult } from './browser/run-kits.js';

const ENTRY = fileURLToPath(new URL('./browser/run-kits.ts', import.meta.url));
const VITEST_API = fileURLToPath(new URL('./browser/vitest-api.ts', import.meta.url));

describe('context-core in a browser bundle', () => {
  it('bundles for the browser with no Node builtin and passes its conformance kits there', async () => {
    const code = await bundleForBrowser(ENTRY, 'coreKits', { vitest: VITEST_API });
    const page = runInBrowserContext(code, 'core-kits.js');
    expect(runInContext('typeof process + typeof require + typeof Buffer', page)).toBe(
      'undefinedundefinedundefined',
    );

    const results = (await runInContext('coreKits.runKits()', page)) as KitTestResult[];
    expect(results.filter((test) => test.state !== 'pass')).toEqual([]);
    const kits = new Set(results.map((test) => test.name.split(' > ')[0]));
    expect([...kits].sort()).toEqual([
      'in-memory event store (event store conformance)',
      'in-memory history store (history store conformance)',
      'in-memory tool output store (tool output store conformance)',
      'keep only what must be kept (compressor conformance)',
    ]);
  });
});
