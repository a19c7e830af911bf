import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { KitTestResult } from './browser/run-kits.js';

const ENTRY = fileURLToPath(new URL('./browser/run-kits.ts', import.meta.url));
const VITEST_API = fileURLToPath(new URL('./browser/vitest-api.ts', import.meta.url));

/** Node's own modules by every name an import can give them: `fs`, `fs/promises`, `node:fs`. */
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Fails the build on any import of a Node builtin, naming it and the file that imports it. */
const noNodeBuiltins: Plugin = {
  name: 'no-node-builtins',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, ({ path, importer }) =>
      path.startsWith('node:') || NODE_BUILTINS.has(path)
        ? { errors: [{ text: `${path} is a Node builtin, imported by ${importer}` }] }
        : undefined,
    );
  },
};

/** What a browser page offers the bundle: the web platform's globals, and nothing of Node's. */
function browserGlobals(): Record<string, unknown> {
  return {
    console,
    crypto,
    AbortController,
    AbortSignal,
    DOMException,
    Event,
    EventTarget,
    structuredClone,
    TextEncoder,
    TextDecoder,
    URL,
    atob,
    btoa,
    performance,
    queueMicrotask,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
  };
}

describe('context-core in a browser bundle', () => {
  it('bundles for the browser with no Node builtin and passes its conformance kits there', async () => {
    const bundled = await build({
      entryPoints: [ENTRY],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'iife',
      globalName: 'coreKits',
      conditions: ['@ctxkit/source'],
      alias: { vitest: VITEST_API },
      plugins: [noNodeBuiltins],
      logLevel: 'silent',
    });
    const code = bundled.outputFiles[0]?.text ?? '';
    expect(code.length).toBeGreaterThan(0);

    const page = createContext(browserGlobals());
    runInContext(code, page, { filename: 'core-kits.js' });
    expect(runInContext('typeof process + typeof require + typeof Buffer', page)).toBe(
      'undefinedundefinedundefined',
    );
    const results = (await runInContext('coreKits.runKits()', page)) as KitTestResult[];

    const failed = results.filter((test) => test.state !== 'pass');
    expect(failed).toEqual([]);
    const kits = new Set(results.map((test) => test.name.split(' > ')[0]));
    expect([...kits].sort()).toEqual([
      'in-memory event store (event store conformance)',
      'in-memory history store (history store conformance)',
      'in-memory tool output store (tool output store conformance)',
      'keep only what must be kept (compressor conformance)',
    ]);
  });
});
