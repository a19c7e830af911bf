import { readFileSync } from 'node:fs';
import { createHeuristicCounter, createTiktokenCounter } from '@ctxkit/token-counters';
import {
  CHARACTER_CLASSES,
  CLASSES_OUTSIDE_BOUND,
} from '../../packages/token-counters/test/character-classes.js';
import {
  CORPORA,
  type CorpusGenerator,
  type CorpusKind,
  chunk,
} from '../../packages/token-counters/test/corpora.js';
import { measure, printTable } from './measure.js';

/** A way to count tokens under test: our counters and two libraries as baselines. */
interface Contender {
  name: string;
  count: (text: string) => number;
}

/** Corpus size per kind, in UTF-16 code units; throughput is reported per MB of UTF-8. */
const CORPUS_SIZE = 1_000_000;
const CHUNK_SIZE = 2_000;
const THROUGHPUT_KINDS: readonly CorpusKind[] = [
  'english',
  'json-pretty',
  'typescript',
  'chinese',
  'base64',
];

/**
 * Token counters, one run: load cost, throughput against js-tiktoken and gpt-tokenizer (same
 * o200k_base encoding, same process), time on huge unbroken pieces, and the heuristic's error on
 * ~2 KB chunks and on every class of characters.
 */
export async function benchCounters(): Promise<void> {
  const contenders = await loadContenders();
  const reference = contenders.find((contender) => contender.name === 'js-tiktoken encode');
  if (reference === undefined) throw new Error('js-tiktoken baseline missing');
  await benchThroughput(contenders, reference);
  await benchHugePieces(contenders);
  benchHeuristicError();
  benchHeuristicClasses();
}

// --- internal helpers ---

/**
 * Loads every contender, timing its first count (our counter builds its table then). The rank
 * file of o200k_base, which our counter and js-tiktoken share, is imported with the packages
 * before this runs, so neither row includes parsing it.
 */
async function loadContenders(): Promise<Contender[]> {
  const rows: Record<string, string | number>[] = [];
  const timed = async (name: string, load: () => Promise<(text: string) => number>) => {
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const count = await load();
    count('warm up');
    rows.push({
      contender: name,
      'load + first count (ms)': Math.round(performance.now() - started),
      'RSS growth (MB)': Math.round((process.memoryUsage().rss - rssBefore) / 2 ** 20),
    });
    return { name, count };
  };
  const contenders = [
    await timed('ctxkit tiktoken:o200k_base', async () => {
      const counter = createTiktokenCounter('o200k_base');
      return (text) => counter.count(text);
    }),
    await timed('ctxkit heuristic:v2', async () => {
      const counter = createHeuristicCounter();
      return (text) => counter.count(text);
    }),
    await timed('gpt-tokenizer countTokens', async () => {
      const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
      return (text) => countTokens(text);
    }),
    await timed('js-tiktoken encode', async () => {
      const { Tiktoken } = await import('js-tiktoken/lite');
      const ranks = (await import('js-tiktoken/ranks/o200k_base')).default;
      const encoder = new Tiktoken(ranks);
      return (text) => encoder.encode(text, [], []).length;
    }),
  ];
  printTable('Token counters: loading (each counter loaded once, in this order)', rows);
  return contenders;
}

/**
 * MB/s over 1 MB of each kind in ~2 KB chunks, warm: the median of passes over the same chunks
 * after a warm-up pass (js-tiktoken, which has no cache and is slow: one pass after warming up on
 * a tenth of the chunks). Then ours once on unseen text of the same kind, which its piece cache
 * cannot answer from memory.
 */
async function benchThroughput(
  contenders: readonly Contender[],
  reference: Contender,
): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  const ratios: Record<string, string | number>[] = [];
  const exact = contenders[0] as Contender;
  for (const kind of THROUGHPUT_KINDS) {
    const text = CORPORA[kind](CORPUS_SIZE, 31);
    const chunks = chunk(text, CHUNK_SIZE);
    const megabytes = Buffer.byteLength(text) / 1e6;
    const countAll = (contender: Contender, pieces: readonly string[]): number => {
      const started = performance.now();
      for (const piece of pieces) contender.count(piece);
      return performance.now() - started;
    };
    const row: Record<string, string | number> = { kind, MB: megabytes.toFixed(2) };
    const ratio: Record<string, string | number> = { kind };
    const speeds = new Map<string, number>();
    for (const contender of contenders) {
      let milliseconds: number;
      if (contender === reference) {
        countAll(contender, chunks.slice(0, chunks.length / 10));
        milliseconds = countAll(contender, chunks);
      } else {
        const passes = await measure(() => countAll(contender, chunks), {
          minRuns: 3,
          minTime: 300,
        });
        milliseconds = passes.median;
      }
      const speed = megabytes / (milliseconds / 1000);
      speeds.set(contender.name, speed);
      row[contender.name] = speed.toFixed(2);
    }
    const unseen = chunk(CORPORA[kind](CORPUS_SIZE, 32), CHUNK_SIZE);
    row['ctxkit tiktoken, unseen text'] = (megabytes / (countAll(exact, unseen) / 1000)).toFixed(2);
    const baseline = speeds.get(reference.name) as number;
    for (const [name, speed] of speeds) {
      if (name !== reference.name)
        ratio[`${name} ÷ js-tiktoken`] = `${(speed / baseline).toFixed(1)}×`;
    }
    rows.push(row);
    ratios.push(ratio);
  }
  printTable('Throughput, MB/s of UTF-8 (1 MB per kind in ~2 KB chunks, warm)', rows);
  printTable('Throughput against js-tiktoken in the same run', ratios);
}

/** Huge unbroken pieces: ours in full; the baselines capped at 5 KB, where they are bearable. */
async function benchHugePieces(contenders: readonly Contender[]): Promise<void> {
  const [exact, , gpt, jsTiktoken] = contenders as [Contender, Contender, Contender, Contender];
  const cases = [
    { name: 'base64', full: CORPORA.base64(200_000, 41), capped: CORPORA.base64(5_000, 41) },
    { name: 'Chinese, no punctuation', full: hanRun(50_000), capped: hanRun(1_707) },
    {
      name: 'letters, no spaces',
      full: 'abcdefghij'.repeat(20_000),
      capped: 'abcdefghij'.repeat(500),
    },
  ];
  const rows: Record<string, string | number>[] = [];
  for (const { name, full, capped } of cases) {
    const time = (contender: Contender, text: string): number => {
      const started = performance.now();
      contender.count(text);
      return performance.now() - started;
    };
    const oursFull = time(exact, full);
    const oursCapped = time(exact, capped);
    const jsTiktokenCapped = time(jsTiktoken, capped);
    const gptCapped = time(gpt, capped);
    rows.push({
      piece: name,
      'full size': `${full.length.toLocaleString('en')} chars, ${kilobytes(full)} KB`,
      'ctxkit, full (ms)': oursFull.toFixed(1),
      'capped size': `${capped.length.toLocaleString('en')} chars, ${kilobytes(capped)} KB`,
      'ctxkit, capped (ms)': oursCapped.toFixed(1),
      'js-tiktoken, capped (ms)': jsTiktokenCapped.toFixed(0),
      'gpt-tokenizer, capped (ms)': gptCapped.toFixed(0),
      'js-tiktoken ÷ ctxkit, capped': `${Math.round(jsTiktokenCapped / oursCapped)}×`,
    });
  }
  printTable('Huge unbroken pieces (one string each; baselines capped, they are quadratic)', rows);
}

/** Mean and max relative error of the heuristic (and of chars/4) against o200k_base. */
function benchHeuristicError(): void {
  const exact = createTiktokenCounter('o200k_base');
  const heuristic = createHeuristicCounter();
  const texts: [string, string][] = Object.entries(CORPORA).map(([kind, generate]) => [
    kind,
    generate(200_000, 51),
  ]);
  for (const [name, path] of REAL_TEXTS) {
    texts.push([`${name} (real)`, readFileSync(realTextUrl(path), 'utf8').slice(0, 200_000)]);
  }
  const rows: Record<string, string | number>[] = [];
  for (const [name, text] of texts) {
    const errors: number[] = [];
    const quarters: number[] = [];
    for (const piece of chunk(text, CHUNK_SIZE)) {
      const expected = exact.count(piece);
      if (expected === 0) continue;
      errors.push((heuristic.count(piece) - expected) / expected);
      quarters.push((Math.ceil(piece.length / 4) - expected) / expected);
    }
    rows.push({
      text: name,
      chunks: errors.length,
      'mean |error|': percent(mean(errors.map(Math.abs))),
      'mean signed': percent(mean(errors)),
      'max |error|': percent(Math.max(...errors.map(Math.abs))),
      'chars/4 mean signed': percent(mean(quarters)),
    });
  }
  printTable('Heuristic against o200k_base on ~2 KB chunks (+ overcounts, − undercounts)', rows);
}

/** Lengths of the samples of each class, in UTF-16 code units, and seeds per length. */
const CLASS_SAMPLE_LENGTHS = [256, 1024, 4096];
const CLASS_SAMPLE_SEEDS = 20;

/** Exact tokens from which a sample's ratio of estimate to exact count is reported. */
const CLASS_RATIO_MIN_TOKENS = 40;

/**
 * The heuristic against o200k_base on every class of characters of the counter's bound, on
 * samples of 256 to 4,096 characters (seeds other than the tests'): the lowest and highest ratio
 * of estimate to exact count on samples of CLASS_RATIO_MIN_TOKENS tokens or more, the largest
 * miss in tokens on smaller ones, and the signed error over all samples together.
 */
function benchHeuristicClasses(): void {
  const exact = createTiktokenCounter('o200k_base');
  const heuristic = createHeuristicCounter();
  const classes: [string, CorpusGenerator][] = [
    ...Object.entries(CHARACTER_CLASSES),
    ...REAL_TEXTS.map(([name, path]): [string, CorpusGenerator] => [
      `${name} (real)`,
      windowOf(readFileSync(realTextUrl(path), 'utf8')),
    ]),
    ...Object.entries(CLASSES_OUTSIDE_BOUND).map(([name, generate]): [string, CorpusGenerator] => [
      `${name}, outside the bound`,
      generate,
    ]),
  ];
  const rows: Record<string, string | number>[] = [];
  for (const [name, generate] of classes) {
    let lowest = Number.POSITIVE_INFINITY;
    let highest = 0;
    let smallMiss = -1;
    let estimated = 0;
    let counted = 0;
    let characters = 0;
    for (const length of CLASS_SAMPLE_LENGTHS) {
      for (let seed = 1001; seed <= 1000 + CLASS_SAMPLE_SEEDS; seed++) {
        const text = generate(length, seed);
        const expected = exact.count(text);
        const estimate = heuristic.count(text);
        if (expected >= CLASS_RATIO_MIN_TOKENS) {
          lowest = Math.min(lowest, estimate / expected);
          highest = Math.max(highest, estimate / expected);
        } else smallMiss = Math.max(smallMiss, Math.abs(estimate - expected));
        estimated += estimate;
        counted += expected;
        characters += text.length;
      }
    }
    rows.push({
      class: name,
      'tokens per char': (counted / characters).toFixed(2),
      'lowest ratio': highest > 0 ? lowest.toFixed(2) : '',
      'highest ratio': highest > 0 ? highest.toFixed(2) : '',
      [`largest miss under ${CLASS_RATIO_MIN_TOKENS} tokens`]: smallMiss >= 0 ? smallMiss : '',
      'signed error': percent(estimated / counted - 1),
    });
  }
  printTable(
    'Heuristic against o200k_base by class of characters (samples of 256 to 4,096 characters)',
    rows,
  );
}

/** A window of `text` per seed, as a generator of samples. */
function windowOf(text: string): CorpusGenerator {
  return (size, seed = 1) => {
    // Spread the seeds over the text (Knuth's multiplicative hash).
    const start = Math.floor(
      (((seed * 2654435761) >>> 0) / 2 ** 32) * Math.max(1, text.length - size),
    );
    return text.slice(start, start + size);
  };
}

function realTextUrl(path: string): URL {
  return new URL(`../../packages/token-counters/node_modules/${path}`, import.meta.url);
}

/** Real text shipped with token-counters' dev dependencies, read at run time. */
const REAL_TEXTS: readonly [string, string][] = [
  ['TypeScript declarations', 'typescript/lib/lib.es5.d.ts'],
  ['JavaScript source', 'typescript/lib/_tsc.js'],
  ['Markdown README', 'fast-check/README.md'],
  ...(
    [
      ['Chinese', 'zh-cn'],
      ['Chinese, traditional', 'zh-tw'],
      ['Japanese', 'ja'],
      ['Korean', 'ko'],
      ['Czech', 'cs'],
      ['German', 'de'],
      ['Spanish', 'es'],
      ['French', 'fr'],
      ['Italian', 'it'],
      ['Polish', 'pl'],
      ['Portuguese', 'pt-br'],
      ['Russian', 'ru'],
      ['Turkish', 'tr'],
    ] as const
  ).map(([language, folder]): [string, string] => [
    `${language} in JSON`,
    `typescript/lib/${folder}/diagnosticMessages.generated.json`,
  ]),
];

/** `length` Chinese characters without punctuation: one pre-tokenizer piece. */
function hanRun(length: number): string {
  let run = '';
  for (let index = 0; index < length; index++) {
    run += String.fromCharCode(0x4e00 + ((index * 7919) % 0x51ff));
  }
  return run;
}

function kilobytes(text: string): number {
  return Math.round(Buffer.byteLength(text) / 1000);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
