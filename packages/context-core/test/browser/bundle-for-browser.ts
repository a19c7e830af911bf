/**
 * Test helpers that build a browser bundle of workspace source and run it where only the web
 * platform's globals exist: what the browser bundle tests of core and token-counters share.
 */
import { builtinModules } from 'node:module';
import { type Context, createContext, runInContext } from 'node:vm';
import { build, type Plugin } from 'esbuild';

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

/**
 * `entry` bundled by esbuild for the browser, as one script that puts its exports on
 * `globalThis[globalName]`. Workspace packages are bundled from their TypeScript source (the
 * `@ctxkit/source` condition). The build fails when anything imports a Node builtin.
 *
 * @param entry - absolute path of the entry module
 * @param globalName - the global that holds the entry's exports
 * @param alias - modules to replace, by import path
 */
export async function bundleForBrowser(
  entry: string,
  globalName: string,
  alias: Record<string, string> = {},
): Promise<string> {
  const bundled = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName,
    conditions: ['@ctxkit/source'],
    alias,
    plugins: [noNodeBuiltins],
    logLevel: 'silent',
  });
  return bundled.outputFiles[0]?.text ?? '';
}

/**
 * A fresh JavaScript context holding the web platform's globals a page has (timers, crypto,
 * `structuredClone`, text encoding, events, abort) and none of Node's, with `code` run in it.
 */
export function runInBrowserContext(code: string, filename: string): Context {
  const page = createContext({
    AbortController,
    AbortSignal,
    DOMException,
    Event,
    EventTarget,
    TextDecoder,
    TextEncoder,
    URL,
    atob,
    btoa,
    clearInterval,
    clearTimeout,
    console,
    crypto,
    performance,
    queueMicrotask,
    setInterval,
    setTimeout,
    structuredClone,
  });
  runInContext(code, page, { filename });
  return page;
}
