import { readFileSync } from 'node:fs';
import { ContextError } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { createTiktokenCounter } from '../src/tiktoken-counter.js';
import { CORPORA, chunk, createRandom } from './corpora.js';

describe('creation', () => {
  it('names counters after their encoding', () => {
    expect(createTiktokenCounter().name).toBe('tiktoken:o200k_base');
    expect(createTiktokenCounter('o200k_base').name).toBe('tiktoken:o200k_base');
    expect(createTiktokenCounter('cl100k_base').name).toBe('tiktoken:cl100k_base');
  });

  it('rejects an unknown encoding with a ContextError', () => {
    let thrown: unknown;
    try {
      createTiktokenCounter('p50k_base' as never);
    } catch (error) {
      thrown = error;
    }
    expect(ContextError.isInstance(thrown, 'invalid_option')).toBe(true);
    expect((thrown as Error).message).toContain('p50k_base');
    expect((thrown as ContextError).source).toBe('token-counters');
  });
});

const ENCODINGS = [
  { encoding: 'o200k_base', reference: new Tiktoken(o200kRanks) },
  { encoding: 'cl100k_base', reference: new Tiktoken(cl100kRanks) },
] as const;

/** Hand-picked strings: special tokens, scripts, emoji, whitespace, long unbroken runs. */
const SAMPLES = [
  '',
  ' ',
  'a',
  'Hello, world!',
  '<|endoftext|>',
  'before <|endoftext|> after <|endofprompt|><|im_start|>system<|im_end|><|fim_prefix|>',
  "I'm sure they'LL say it's fine, don't you think? WE'VE SEEN IT'S",
  '😀👍🏽🎉 family: 👨‍👩‍👧‍👦 flags: 🇫🇷🇯🇵 keycap: 1️⃣',
  '你好，世界。这是一个测试：上下文窗口、工具输出和“压缩”策略（第 3 版）。',
  '日本語のテキストとカタカナ、ひらがな。東京は晴れです。',
  '한국어 문장입니다. 토큰을 세어 봅시다!',
  'Привет, мир! Ελληνικά κείμενα. مرحبا بالعالم. नमस्ते दुनिया। ภาษาไทย',
  'e\u0301 combining, \u00a0no-break, \u2028line separator, \u200bzero width',
  'lone surrogates: \ud800 and \udfff and \udc00\ud800',
  'controls: \u0000\u0001\u001b[31mred\u001b[0m\u007f',
  '  \n\t \r\n\n\n    indented\n\t\ttabs   trailing   \n',
  '1234567890 3.14159 -42 1e10 0xFF 1_000_000',
  'https://example.com/path/to/page?query=value&other=1#fragment',
  'const x = { "key": [1, 2, 3], nested: { a: null } }; // comment',
  'a'.repeat(1000),
  'ab'.repeat(500),
  'aB1+'.repeat(400),
  '='.repeat(1000),
  ' '.repeat(600),
  '\n'.repeat(500),
  'é'.repeat(500),
  '的'.repeat(300),
  'Supercalifragilisticexpialidocious'.repeat(25),
  '😀'.repeat(200),
];

function hanRun(length: number, seed: number): string {
  const random = createRandom(seed);
  let run = '';
  for (let index = 0; index < length; index++) {
    run += String.fromCharCode(0x4e00 + random.integer(0, 0x51ff));
  }
  return run;
}

function base64(bytes: number, seed: number): string {
  const random = createRandom(seed);
  let binary = '';
  for (let index = 0; index < bytes; index++) binary += String.fromCharCode(random.integer(0, 255));
  return btoa(binary);
}

/** Pieces for random strings: words, scripts, digits, marks, spaces and long runs. */
const FRAGMENTS = [
  'the',
  ' quick',
  'Brown',
  'FOX',
  'getUserName',
  'snake_case_name',
  '42',
  '2024-05-01',
  '3.14',
  ',',
  '.',
  '...',
  '();',
  '{"a":1}',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\t',
  '中文',
  '。',
  '，',
  'カタカナ',
  '한국',
  'ü',
  'ß',
  'я',
  '😀',
  '👨‍👩‍👧',
  '<|endoftext|>',
  "'s",
  'xyzzy',
  'qwrtp',
];

const randomText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...FRAGMENTS),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.integer({ min: 1, max: 300 }).map((length) => 'zq'.repeat(length)),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe.each(ENCODINGS)('$encoding', ({ encoding, reference }) => {
  const counter = createTiktokenCounter(encoding);
  const exact = (text: string): number => reference.encode(text, [], []).length;

  it('equals js-tiktoken on hand-picked strings, special tokens counted as text', () => {
    for (const sample of SAMPLES)
      expect(counter.count(sample), JSON.stringify(sample)).toBe(exact(sample));
  });

  it('equals js-tiktoken on long unbroken runs (the heap merge)', () => {
    const runs = [hanRun(400, 1), hanRun(200, 2), base64(3000, 3), base64(600, 4)];
    const random = createRandom(5);
    for (let sample = 0; sample < 6; sample++) {
      let letters = '';
      const length = random.integer(200, 1000);
      for (let index = 0; index < length; index++)
        letters += 'etaoinshrdlucmfwyp'.charAt(random.integer(0, 17));
      runs.push(letters);
    }
    for (const run of runs) expect(counter.count(run)).toBe(exact(run));
  });

  it('equals js-tiktoken on random strings', () => {
    fc.assert(
      fc.property(randomText, (text) => counter.count(text) === exact(text)),
      fuzzParameters(150),
    );
  });

  it('equals js-tiktoken on every generated corpus', () => {
    for (const [kind, generate] of Object.entries(CORPORA)) {
      for (const piece of chunk(generate(12_000, 2024), 2000)) {
        expect(counter.count(piece), kind).toBe(exact(piece));
      }
    }
  });

  it('equals js-tiktoken on real text found locally', () => {
    const texts = realTexts();
    for (const [name, text] of Object.entries(texts)) {
      expect(counter.count(text), name).toBe(exact(text));
    }
  });

  it('is deterministic and shares its cache safely between counters', () => {
    const text = CORPORA.english(5000, 9);
    const first = counter.count(text);
    expect(createTiktokenCounter(encoding).count(text)).toBe(first);
    expect(counter.count(text)).toBe(first);
  });
});

describe('huge unbroken pieces', () => {
  const counter = createTiktokenCounter('o200k_base');

  it('counts a 200 KB base64 string and a 50 KB run of Chinese', () => {
    const blob = base64(150_000, 6);
    expect(blob.length).toBe(200_000);
    const blobTokens = counter.count(blob);
    // Random base64 runs at about 1.46 characters per token with o200k_base.
    expect(blobTokens).toBeGreaterThan(120_000);
    expect(blobTokens).toBeLessThan(150_000);
    const chinese = hanRun(50_000, 7);
    const chineseTokens = counter.count(chinese);
    expect(chineseTokens).toBeGreaterThan(40_000);
    expect(chineseTokens).toBeLessThanOrEqual(150_000);
  });

  it('adds up the counts of a run split at a boundary tiktoken also splits at', () => {
    // A newline separates pre-tokenizer pieces, so the halves count independently.
    const half = 'x'.repeat(100_000);
    expect(counter.count(`${half}\n${half}`)).toBe(2 * counter.count(half) + 1);
  });
});

/** Files of this package's dev dependencies, read at test time (not copied into the repo). */
function realTexts(): Record<string, string> {
  const texts: Record<string, string> = {};
  const files = {
    'typescript lib.es5.d.ts': ['typescript/lib/lib.es5.d.ts', 20_000],
    'typescript zh-cn messages': ['typescript/lib/zh-cn/diagnosticMessages.generated.json', 8_000],
    'typescript package.json': ['typescript/package.json', 4_000],
    'fast-check README': ['fast-check/README.md', 8_000],
  } as const;
  for (const [name, [path, size]] of Object.entries(files)) {
    const url = new URL(`../node_modules/${path}`, import.meta.url);
    texts[name] = readFileSync(url, 'utf8').slice(0, size);
  }
  return texts;
}
