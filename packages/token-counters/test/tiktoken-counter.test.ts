import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ContextError } from '@ctxkit/context-core';
import { fuzzParameters, seededRandom } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { createTiktokenCounter } from '../src/tiktoken-counter.js';
import { CORPORA, chunk, cjkMixed } from './corpora.js';

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
  { encoding: 'o200k_base', ranks: o200kRanks, reference: new Tiktoken(o200kRanks) },
  { encoding: 'cl100k_base', ranks: cl100kRanks, reference: new Tiktoken(cl100kRanks) },
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
  const random = seededRandom(seed);
  let run = '';
  for (let index = 0; index < length; index++) {
    run += String.fromCharCode(0x4e00 + random.integer(0, 0x51ff));
  }
  return run;
}

function base64(bytes: number, seed: number): string {
  const random = seededRandom(seed);
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

/** Code point ranges of CJK text and of what comes with it, as [first, last]. */
const CJK_RANGES: readonly (readonly [number, number])[] = [
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0x3400, 0x4dbf], // extension A (rare characters)
  [0xf900, 0xfaff], // compatibility ideographs
  [0x20000, 0x2a6df], // extension B: surrogate pairs
  [0x3040, 0x30ff], // hiragana and katakana
  [0xff61, 0xff9f], // half-width katakana
  [0x3099, 0x309a], // combining kana voicing marks
  [0xac00, 0xd7a3], // Hangul syllables
  [0x1100, 0x11ff], // Hangul jamo (decomposed Korean)
  [0x3100, 0x312f], // bopomofo
  [0x3000, 0x303f], // CJK punctuation
  [0xff00, 0xffef], // full-width forms
  [0x0300, 0x036f], // combining marks
  [0x00a0, 0x00ff], // Latin-1
  [0x0400, 0x04ff], // Cyrillic
  [0x1f300, 0x1faff], // emoji
  [0xd800, 0xdfff], // lone surrogates
  [0x20, 0x7e], // ASCII
];

/** A run of code points from one of {@link CJK_RANGES}. */
const cjkRun = fc
  .constantFrom(...CJK_RANGES)
  .chain(([first, last]) =>
    fc.array(fc.integer({ min: first, max: last }), { minLength: 1, maxLength: 24 }),
  )
  .map((codePoints) => String.fromCodePoint(...codePoints));

/** CJK-heavy text: runs of scripts, common words, spaces and punctuation, mostly unbroken. */
const cjkText = fc
  .array(
    fc.oneof(
      { arbitrary: cjkRun, weight: 4 },
      {
        arbitrary: fc.constantFrom(
          '中文',
          '的',
          '我们',
          '東京',
          'です',
          'カタカナ',
          'ひらがな',
          '한국어',
          '합니다',
          ' ',
          '\n',
          '，',
          '。',
          '、',
          'token',
          ' API',
          '2024',
          '\u200d',
          '\ufe0f',
        ),
        weight: 2,
      },
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));

/**
 * The tokens of a rank file that hold part of a UTF-8 character and cross a character boundary
 * (" \xe4", say), each completed into valid UTF-8 and set between neighbours in a few ways.
 */
function partialTokenTexts(rankText: string): string[] {
  const texts: string[] = [];
  for (const line of rankText.split('\n')) {
    for (const field of line.split(' ').slice(2)) {
      const token = Buffer.from(field, 'base64');
      const completed = completeCharacters(token);
      if (completed === undefined) continue;
      const text = completed.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(completed) || text.length === token.length) continue;
      texts.push(text, `中${text}文`, ` ${text} `, `あ${text}${text}한`);
    }
  }
  return texts;
}

/**
 * `token` with a lead byte before its leading continuation bytes and continuation bytes after its
 * last incomplete character; undefined when it crosses no character boundary or is not UTF-8.
 */
function completeCharacters(token: Buffer): Buffer | undefined {
  const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;
  let leading = 0;
  while (leading < token.length && isContinuation(token[leading] as number)) leading++;
  if (leading === token.length || leading > 3) return undefined;
  const before = [[], [0xd0], [0xe4], [(token[0] as number) < 0x90 ? 0xf1 : 0xf0]][leading] ?? [];
  let last = token.length - 1;
  while (last > 0 && isContinuation(token[last] as number)) last--;
  const lead = token[last] as number;
  const size = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
  const missing = Math.max(0, size - (token.length - last));
  const after: number[] = [];
  for (let index = 0; index < missing; index++) {
    after.push(index === 0 && lead === 0xe0 ? 0xa0 : index === 0 && lead === 0xf0 ? 0x90 : 0x80);
  }
  if (leading === 0 && missing === 0) return undefined;
  return Buffer.from([...before, ...token, ...after]);
}

describe.each(ENCODINGS)('$encoding', ({ encoding, ranks, reference }) => {
  const counter = createTiktokenCounter(encoding);
  const exact = (text: string): number => reference.encode(text, [], []).length;

  it('equals js-tiktoken on hand-picked strings, special tokens counted as text', () => {
    for (const sample of SAMPLES)
      expect(counter.count(sample), JSON.stringify(sample)).toBe(exact(sample));
  });

  it('equals js-tiktoken on long unbroken runs (the heap merge)', () => {
    const runs = [hanRun(400, 1), hanRun(200, 2), base64(3000, 3), base64(600, 4)];
    runs.push(CORPORA.japanese(700, 6).replace(/[、。？\n]/g, ''));
    runs.push(cjkMixed(700, 8).replace(/[^\p{L}\p{M}]/gu, ''));
    const random = seededRandom(5);
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

  it('has a pre-tokenizer pattern that takes every character, so pieces leave no gap', () => {
    const pattern = new RegExp(ranks.pat_str, 'yu');
    const missed: number[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      pattern.lastIndex = 0;
      if (!pattern.test(String.fromCodePoint(codePoint))) missed.push(codePoint);
    }
    expect(missed).toEqual([]);
  });

  it('equals js-tiktoken on every character of the BMP, alone and in runs', () => {
    for (let first = 0; first < 0x10000; first += 16) {
      let run = '';
      for (let codePoint = first; codePoint < first + 16; codePoint++) {
        const character = String.fromCharCode(codePoint);
        run += character;
        if (counter.count(character) !== exact(character)) {
          expect(counter.count(character), `U+${codePoint.toString(16)}`).toBe(exact(character));
        }
      }
      if (counter.count(run) !== exact(run)) {
        expect(counter.count(run), JSON.stringify(run)).toBe(exact(run));
      }
    }
  });

  it('equals js-tiktoken on random CJK-heavy strings', () => {
    fc.assert(
      fc.property(cjkText, (text) => counter.count(text) === exact(text)),
      fuzzParameters(300),
    );
  });

  it('equals js-tiktoken where a token holds part of a character next to another', () => {
    const texts = partialTokenTexts(ranks.bpe_ranks);
    expect(texts.length).toBeGreaterThan(200);
    for (const text of texts) expect(counter.count(text), JSON.stringify(text)).toBe(exact(text));
  });

  it('equals js-tiktoken on every generated corpus', () => {
    for (const [kind, generate] of Object.entries({ ...CORPORA, 'cjk-mixed': cjkMixed })) {
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
    // SeededRandom base64 runs at about 1.46 characters per token with o200k_base.
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

describe('memory', () => {
  it('does not keep the texts it counted alive through its piece cache', () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const counter = createTiktokenCounter('o200k_base');
    counter.count('warm up');
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 40; index++) {
      // A flat string of 480 KB whose first piece, a word of 20 letters, goes to the cache.
      const word = `Abcdefghijklmnopq${lettersOf(index)}`;
      counter.count(Buffer.from(`${word} ${'lorem ipsum '.repeat(40_000)}`).toString());
    }
    collectGarbage();
    const growth = process.memoryUsage().heapUsed - before;
    // Kept alive, the 40 texts would take 19 MB.
    expect(growth).toBeLessThan(4 * 2 ** 20);
  });
});

/** Three lowercase letters that spell `index` in base 26. */
function lettersOf(index: number): string {
  let letters = '';
  for (let digit = 0, rest = index; digit < 3; digit++, rest = Math.floor(rest / 26)) {
    letters = String.fromCharCode(97 + (rest % 26)) + letters;
  }
  return letters;
}

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
