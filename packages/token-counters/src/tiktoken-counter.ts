import { InvalidOptionError, type TokenCounter } from '@ctxkit/context-core';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

/** The tiktoken encodings {@link createTiktokenCounter} supports. */
export type TiktokenEncodingName = 'o200k_base' | 'cl100k_base';

/**
 * An exact token counter over the rank tables of js-tiktoken (`o200k_base` for GPT-4o and later,
 * `cl100k_base` for GPT-4 and GPT-3.5), named `tiktoken:<encoding>`.
 *
 * Exact everywhere, with no size limit: the count equals js-tiktoken's
 * `encode(text, [], []).length` for every string, special tokens such as `<|endoftext|>` counted
 * as plain text (never thrown on). The text is split with the encoding's own pre-tokenizer
 * pattern and each piece is merged by tiktoken's rule (lowest rank first, leftmost on ties). A
 * plain byte-pair merge is quadratic in the length of one piece; here pieces longer than 64 bytes
 * are merged over a min-heap and a linked list, O(n log n) with the same merge order, so a 200 KB
 * base64 string or a 50,000-character run of Chinese counts in tens of milliseconds instead of
 * minutes. Nothing is split or approximated.
 *
 * The rank files come in with this module, as js-tiktoken's ES modules (so every runtime and
 * bundler loads them the same way: about 3.4 MB of source for both encodings). An encoding's
 * table is built from its file on the first `count` (not at import or creation), once per process
 * and encoding, and shared by every counter of that encoding, as is a bounded cache of recent
 * piece counts (at most 32,768 pieces of up to 64 characters).
 *
 * @param encoding - The encoding; `o200k_base` by default.
 * @returns the counter, named `tiktoken:<encoding>`
 * @throws InvalidOptionError (`invalid_option`) when `encoding` is not a supported name.
 * @example
 * ```ts
 * const counter = createTiktokenCounter();
 * counter.count('Hello, world!'); // 4
 * ```
 */
export function createTiktokenCounter(encoding: TiktokenEncodingName = 'o200k_base'): TokenCounter {
  if (!SUPPORTED_ENCODINGS.includes(encoding)) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: 'token-counters',
      message: `createTiktokenCounter(): unknown encoding ${JSON.stringify(encoding)}, expected one of ${SUPPORTED_ENCODINGS.join(', ')}.`,
      details: { option: 'encoding', value: encoding },
    });
  }
  return Object.freeze({
    name: `tiktoken:${encoding}`,
    count: (text: string) => countText(loadEncoder(encoding), text),
  });
}

// --- internal helpers ---

const SUPPORTED_ENCODINGS: readonly string[] = ['o200k_base', 'cl100k_base'];

/** Pieces whose UTF-8 form is at most this long are merged by rescanning; longer ones by heap. */
const RESCAN_MAX_BYTES = 64;
/** Pieces up to this many characters have their count cached. */
const CACHED_PIECE_MAX_CHARS = 64;
/** Entries per cache generation; at most twice this many pieces are cached per encoding. */
const CACHE_GENERATION_SIZE = 16_384;

/** What js-tiktoken's rank modules export. */
interface RankFile {
  pat_str: string;
  bpe_ranks: string;
}

/** A loaded encoding: pre-tokenizer, vocabulary and the piece cache. */
interface Encoder {
  /** The encoding's pre-tokenizer pattern, global and unicode-aware. */
  readonly pattern: RegExp;
  /** Rank of every token by its bytes. */
  readonly vocabulary: Vocabulary;
  /** Token counts of recently seen pieces. */
  readonly cache: PieceCache;
}

/** js-tiktoken's rank file of each encoding. */
const RANK_FILES: Record<TiktokenEncodingName, RankFile> = {
  o200k_base: o200kBase,
  cl100k_base: cl100kBase,
};
const encoders = new Map<TiktokenEncodingName, Encoder>();
const utf8Encoder = new TextEncoder();
/** Reused buffer for the UTF-8 bytes of the piece being counted; grows on demand. */
let pieceBytes = new Uint8Array(1024);

function loadEncoder(encoding: TiktokenEncodingName): Encoder {
  const loaded = encoders.get(encoding);
  if (loaded !== undefined) return loaded;
  const file = RANK_FILES[encoding];
  const encoder: Encoder = {
    pattern: new RegExp(file.pat_str, 'gu'),
    vocabulary: new Vocabulary(file.bpe_ranks),
    cache: new PieceCache(),
  };
  encoders.set(encoding, encoder);
  return encoder;
}

function countText(encoder: Encoder, text: string): number {
  const pattern = encoder.pattern;
  pattern.lastIndex = 0;
  let total = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    total += countPiece(encoder, match[0]);
  }
  return total;
}

function countPiece(encoder: Encoder, piece: string): number {
  const cacheable = piece.length <= CACHED_PIECE_MAX_CHARS;
  if (cacheable) {
    const cached = encoder.cache.get(piece);
    if (cached !== undefined) return cached;
  }
  if (pieceBytes.length < piece.length * 3) pieceBytes = new Uint8Array(piece.length * 3);
  const bytes = pieceBytes;
  const length = utf8Encoder.encodeInto(piece, bytes).written;
  const vocabulary = encoder.vocabulary;
  let count: number;
  if (vocabulary.rank(bytes, 0, length) >= 0) count = 1;
  else if (length <= RESCAN_MAX_BYTES) count = mergeByRescan(vocabulary, bytes, length);
  else count = mergeByHeap(vocabulary, bytes, length);
  if (cacheable) encoder.cache.set(piece, count);
  return count;
}

/**
 * The ranks of one encoding in an open-addressing hash table over typed arrays, keyed by the
 * token's bytes: a lookup hashes a slice of a byte buffer and allocates nothing.
 */
class Vocabulary {
  /** Length in bytes of the longest token: longer byte runs are never a token. */
  readonly maxTokenBytes: number;
  /** The bytes of every token, one after the other. */
  private readonly pool: Uint8Array;
  /** Per token: where its bytes start in the pool, how many there are, its rank, its hash. */
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  private readonly ranks: Int32Array;
  private readonly hashes: Int32Array;
  /** Hash slots holding a token index plus one (0 when empty). */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** Parses js-tiktoken's rank format: per line, a label, the first rank, then base64 tokens. */
  constructor(rankText: string) {
    const tokens: string[] = [];
    const tokenRanks: number[] = [];
    for (const line of rankText.split('\n')) {
      if (line === '') continue;
      const fields = line.split(' ');
      const offset = Number.parseInt(fields[1] ?? '', 10);
      for (let index = 2; index < fields.length; index++) {
        tokens.push(atob(fields[index] as string));
        tokenRanks.push(offset + index - 2);
      }
    }
    let poolSize = 0;
    let maxTokenBytes = 0;
    for (const token of tokens) {
      poolSize += token.length;
      if (token.length > maxTokenBytes) maxTokenBytes = token.length;
    }
    this.maxTokenBytes = maxTokenBytes;
    this.pool = new Uint8Array(poolSize);
    this.starts = new Int32Array(tokens.length);
    this.lengths = new Int32Array(tokens.length);
    this.ranks = Int32Array.from(tokenRanks);
    this.hashes = new Int32Array(tokens.length);
    let slotCount = 1;
    while (slotCount < tokens.length * 2) slotCount *= 2;
    this.slots = new Int32Array(slotCount);
    this.mask = slotCount - 1;
    let position = 0;
    for (let token = 0; token < tokens.length; token++) {
      const bytes = tokens[token] as string;
      this.starts[token] = position;
      this.lengths[token] = bytes.length;
      for (let index = 0; index < bytes.length; index++)
        this.pool[position++] = bytes.charCodeAt(index);
      const hash = hashBytes(this.pool, position - bytes.length, position);
      this.hashes[token] = hash;
      let slot = hash & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = token + 1;
    }
  }

  /** Rank of the token made of `bytes[start, end)`, or -1 when those bytes are not a token. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length > this.maxTokenBytes) return -1;
    const hash = hashBytes(bytes, start, end);
    const { pool, slots, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (slots[slot] as number) - 1;
      if (entry < 0) return -1;
      if (this.hashes[entry] !== hash || this.lengths[entry] !== length) continue;
      const tokenStart = this.starts[entry] as number;
      let index = 0;
      while (index < length && pool[tokenStart + index] === bytes[start + index]) index++;
      if (index === length) return this.ranks[entry] as number;
    }
  }
}

/** FNV-1a over `bytes[start, end)`. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) {
    hash = Math.imul(hash ^ (bytes[index] as number), 0x01000193);
  }
  return hash;
}

/** Rank used for a pair that is not a token: above every real rank. */
const NO_RANK = 0x7fffffff;
/** Scratch for {@link mergeByRescan}: where each part starts, and the rank of each pair. */
const rescanStarts = new Int32Array(RESCAN_MAX_BYTES + 1);
const rescanRanks = new Int32Array(RESCAN_MAX_BYTES);

function pairRank(vocabulary: Vocabulary, bytes: Uint8Array, start: number, end: number): number {
  const rank = vocabulary.rank(bytes, start, end);
  return rank < 0 ? NO_RANK : rank;
}

/**
 * Number of tokens tiktoken's byte-pair merge yields for the first `length` bytes, for short
 * pieces: keeps the rank of each adjacent pair and rescans them for the lowest (leftmost on ties)
 * after every merge.
 */
function mergeByRescan(vocabulary: Vocabulary, bytes: Uint8Array, length: number): number {
  // starts[i] is where part i begins (starts[parts] = length); ranks[i] is the rank of part i
  // joined with part i + 1.
  const starts = rescanStarts;
  const ranks = rescanRanks;
  let parts = length;
  for (let index = 0; index <= length; index++) starts[index] = index;
  for (let index = 0; index + 1 < length; index++) {
    ranks[index] = pairRank(vocabulary, bytes, index, index + 2);
  }
  while (parts > 1) {
    let lowest = NO_RANK;
    let at = -1;
    for (let index = 0; index + 1 < parts; index++) {
      const rank = ranks[index] as number;
      if (rank < lowest) {
        lowest = rank;
        at = index;
      }
    }
    if (at < 0) break;
    // Merge part `at` with part `at + 1`, then re-rank the pairs on both sides of the new part.
    for (let index = at + 1; index < parts; index++) starts[index] = starts[index + 1] as number;
    for (let index = at; index + 2 < parts; index++) ranks[index] = ranks[index + 1] as number;
    parts--;
    const start = starts[at] as number;
    const end = starts[at + 1] as number;
    if (at + 1 < parts) ranks[at] = pairRank(vocabulary, bytes, start, starts[at + 2] as number);
    if (at > 0) ranks[at - 1] = pairRank(vocabulary, bytes, starts[at - 1] as number, end);
  }
  return parts;
}

/**
 * Number of tokens tiktoken's byte-pair merge yields for the first `length` bytes, in
 * O(n log n): parts form a linked list over byte offsets, candidate pairs sit in a min-heap keyed
 * by (rank, start), and a popped pair is applied only if both of its parts are still as they were
 * when it was pushed. Parts only grow and keep their start, so a pair is identified by its start
 * and end offsets, and the heap order is exactly tiktoken's: lowest rank, then leftmost.
 */
function mergeByHeap(vocabulary: Vocabulary, bytes: Uint8Array, length: number): number {
  // next[i]: start of the part after the part starting at i (length for the last part).
  const next = new Int32Array(length + 1);
  // previous[i]: start of the part before the part starting at i (-1 for the first part).
  const previous = new Int32Array(length);
  // absorbed[i] = 1 once the part starting at i has been merged into the part before it.
  const absorbed = new Uint8Array(length);
  for (let index = 0; index < length; index++) {
    next[index] = index + 1;
    previous[index] = index - 1;
  }
  next[length] = length;
  const heap = new PairHeap();
  for (let index = 0; index + 1 < length; index++) {
    const rank = vocabulary.rank(bytes, index, index + 2);
    if (rank >= 0) heap.push(rank, index, index + 2);
  }
  let parts = length;
  while (heap.size > 0) {
    const start = heap.topStart();
    const end = heap.topEnd();
    heap.pop();
    if (absorbed[start] === 1) continue;
    const middle = next[start] as number;
    if (middle >= length || next[middle] !== end) continue;
    absorbed[middle] = 1;
    next[start] = end;
    if (end < length) previous[end] = start;
    parts--;
    const before = previous[start] as number;
    if (before >= 0) {
      const rank = vocabulary.rank(bytes, before, end);
      if (rank >= 0) heap.push(rank, before, end);
    }
    if (end < length) {
      const after = next[end] as number;
      const rank = vocabulary.rank(bytes, start, after);
      if (rank >= 0) heap.push(rank, start, after);
    }
  }
  return parts;
}

/** A binary min-heap of candidate pairs ordered by rank, then by start offset. */
class PairHeap {
  private readonly keys: number[] = [];
  private readonly ends: number[] = [];

  /** Number of pairs in the heap. */
  get size(): number {
    return this.keys.length;
  }

  /** Start offset of the lowest pair. */
  topStart(): number {
    return (this.keys[0] as number) % START_RANGE;
  }

  /** End offset of the lowest pair. */
  topEnd(): number {
    return this.ends[0] as number;
  }

  /** Adds the pair covering bytes `start` to `end` with the rank of its merged bytes. */
  push(rank: number, start: number, end: number): void {
    const keys = this.keys;
    const ends = this.ends;
    const key = rank * START_RANGE + start;
    let index = keys.length;
    keys.push(key);
    ends.push(end);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentKey = keys[parent] as number;
      if (parentKey <= key) break;
      keys[index] = parentKey;
      ends[index] = ends[parent] as number;
      index = parent;
    }
    keys[index] = key;
    ends[index] = end;
  }

  /** Removes the lowest pair. */
  pop(): void {
    const keys = this.keys;
    const ends = this.ends;
    const lastKey = keys.pop() as number;
    const lastEnd = ends.pop() as number;
    const size = keys.length;
    if (size === 0) return;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && (keys[right] as number) < (keys[child] as number)) child = right;
      if ((keys[child] as number) >= lastKey) break;
      keys[index] = keys[child] as number;
      ends[index] = ends[child] as number;
      index = child;
    }
    keys[index] = lastKey;
    ends[index] = lastEnd;
  }
}

/** Heap keys are `rank * START_RANGE + start`: exact in a double for pieces below 4 GiB. */
const START_RANGE = 2 ** 32;

/**
 * A bounded cache of piece → token count in two generations: lookups check the current
 * generation, then the previous one (promoting a hit); when the current one is full it becomes
 * the previous one and the oldest is dropped. Recently used pieces survive, memory stays bounded.
 */
class PieceCache {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();

  /** The cached count of `piece`, if any. */
  get(piece: string): number | undefined {
    const count = this.current.get(piece);
    if (count !== undefined) return count;
    const old = this.previous.get(piece);
    if (old !== undefined) this.set(piece, old);
    return old;
  }

  /** Caches the count of `piece`. */
  set(piece: string, count: number): void {
    if (this.current.size >= CACHE_GENERATION_SIZE) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(piece, count);
  }
}
