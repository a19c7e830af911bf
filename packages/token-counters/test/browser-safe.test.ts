import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  bundleForBrowser,
  runInBrowserContext,
} from '../../context-core/test/browser/bundle-for-browser.js';
import { createHeuristicCounter, createTiktokenCounter } from '../src/index.js';

const SOURCE = join(import.meta.dirname, '..', 'src');

/** Texts counted in the bundle and in Node: words, CJK, emoji, a long unbroken run. */
const TEXTS = [
  'Hello, world!',
  '<|endoftext|> counted as text',
  '你好，世界。日本語のテキスト。',
  '😀👍🏽 family: 👨‍👩‍👧‍👦',
  'const x = { "key": [1, 2, 3] }; // comment\n\tindented',
  'aB1+'.repeat(300),
];

describe('token-counters source', () => {
  it('imports no node: module, so that it runs in a browser', () => {
    const files = readdirSync(SOURCE).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(join(SOURCE, file), 'utf8');
      expect(text, file).not.toMatch(/from\s+['"]node:|require\(\s*['"]node:|import\(\s*['"]node:/);
    }
  });

  it('bundles for the browser with no Node builtin, and counts there as in Node', async () => {
    const code = await bundleForBrowser(join(SOURCE, 'index.ts'), 'tokenCounters');
    const page = runInBrowserContext(code, 'token-counters.js');
    page.texts = TEXTS;
    const inBundle = (counter: string): number[] =>
      runInContext(`texts.map((text) => tokenCounters.${counter}.count(text))`, page);

    expect(inBundle("createTiktokenCounter('o200k_base')")).toEqual(
      TEXTS.map((text) => createTiktokenCounter('o200k_base').count(text)),
    );
    expect(inBundle("createTiktokenCounter('cl100k_base')")).toEqual(
      TEXTS.map((text) => createTiktokenCounter('cl100k_base').count(text)),
    );
    expect(inBundle('createHeuristicCounter()')).toEqual(
      TEXTS.map((text) => createHeuristicCounter().count(text)),
    );
    expect(inBundle("createTiktokenCounter('o200k_base')")[0]).toBe(4);
  });
});
