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
 * pattern and each piece is merged by tiktoken's rule (lowest rank first, leftmost on ties). The
 * merge starts from whole characters instead of bytes wherever that provably gives the same
 * merges in the same order, which is most of the time, so a run of Chinese, Japanese or Korean
 * has about a third as many parts to merge. A plain byte-pair merge is quadratic in the length of
 * one piece; here pieces of more than 64 parts are merged over a min-heap and a linked list,
 * O(n log n) with the same merge order, so a 200 KB base64 string or a 50,000-character run of
 * Chinese counts in tens of milliseconds instead of minutes. Nothing is split or approximated.
 *
 * The rank files come in with this module, as js-tiktoken's ES modules (so every runtime and
 * bundler loads them the same way: about 3.4 MB of source for both encodings). An encoding's
 * table is built from its file on the first `count` (not at import or creation), once per process
 * and encoding, and shared by every counter of that encoding, as are two caches of fixed size:
 * recent piece counts (32,768 pieces of up to 32 characters) and the ranks of recent joins of two
 * tokens (32,768 pairs).
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

/** Pieces of at most this many units are merged by rescanning; longer ones over a heap. */
const RESCAN_MAX_UNITS = 64;
/** Pieces up to this many characters have their count cached. */
const CACHED_PIECE_MAX_CHARS = 32;
/** Slots of a {@link PieceCache}, a power of two. */
const PIECE_CACHE_SLOTS = 32_768;
/** Slots of a {@link JoinCache}, a power of two. */
const JOIN_CACHE_SLOTS = 32_768;
/** Pieces of up to this many UTF-16 code units are counted in shared buffers. */
const SHARED_BUFFER_CHARS = 4096;
/** Pieces of up to this many units are merged over shared heap lists. */
const SHARED_HEAP_UNITS = 1024;

/** What js-tiktoken's rank modules export. */
interface RankFile {
  pat_str: string;
  bpe_ranks: string;
}

/** A loaded encoding: pre-tokenizer, ranks, character table and caches. */
interface Encoder {
  /** The encoding's pre-tokenizer pattern, sticky (it matches only at `lastIndex`), unicode-aware. */
  readonly pattern: RegExp;
  /** Rank of every token by its bytes. */
  readonly vocabulary: Vocabulary;
  /** Which characters merge as one unit. */
  readonly characters: CharacterUnits;
  /** Ranks of recently joined pairs of tokens. */
  readonly joins: JoinCache;
  /** Token counts of recently seen pieces. */
  readonly cache: PieceCache;
}

/** js-tiktoken's rank file of each encoding. */
const RANK_FILES: Record<TiktokenEncodingName, RankFile> = {
  o200k_base: o200kBase,
  cl100k_base: cl100kBase,
};
const encoders = new Map<TiktokenEncodingName, Encoder>();

function loadEncoder(encoding: TiktokenEncodingName): Encoder {
  const loaded = encoders.get(encoding);
  if (loaded !== undefined) return loaded;
  const file = RANK_FILES[encoding];
  const vocabulary = new Vocabulary(file.bpe_ranks);
  const encoder: Encoder = {
    pattern: new RegExp(file.pat_str, 'yu'),
    vocabulary,
    characters: new CharacterUnits(vocabulary),
    joins: new JoinCache(vocabulary),
    cache: new PieceCache(),
  };
  encoders.set(encoding, encoder);
  return encoder;
}

/**
 * Sums the counts of the pre-tokenizer's pieces of `text`. Pieces are found with the sticky form
 * of the pattern, which tells where a match ends without building a match object. The pattern
 * takes every character (each is a letter, a digit, whitespace or none of these, and for each
 * of the four some alternative of the pattern takes it), so the pieces follow one another with no
 * gap, as js-tiktoken's `matchAll` finds them.
 */
function countText(encoder: Encoder, text: string): number {
  const pattern = encoder.pattern;
  let total = 0;
  let position = 0;
  while (position < text.length) {
    const start = position;
    pattern.lastIndex = start;
    if (!pattern.test(text)) break;
    position = pattern.lastIndex;
    total += countPiece(encoder, text, start, position);
  }
  return total;
}

/** Token count of the piece `text[start, end)`. */
function countPiece(encoder: Encoder, text: string, start: number, end: number): number {
  const chars = end - start;
  const cacheable = chars <= CACHED_PIECE_MAX_CHARS;
  let hash = 0;
  if (cacheable) {
    hash = hashCodeUnits(text, start, end);
    const cached = encoder.cache.get(text, start, end, hash);
    if (cached >= 0) return cached;
  }
  const units = chars <= SHARED_BUFFER_CHARS ? sharedUnits : new PieceUnits(chars);
  const length = encodeUtf8(text, start, end, units.bytes);
  let count: number;
  if (encoder.vocabulary.rank(units.bytes, 0, length) >= 0) count = 1;
  else {
    const unitCount = splitUnits(encoder, units, length, length === chars);
    count =
      unitCount <= RESCAN_MAX_UNITS
        ? mergeByRescan(encoder.joins, units, unitCount)
        : mergeByHeap(encoder.joins, units, unitCount);
  }
  if (cacheable) encoder.cache.set(text, start, end, hash, count);
  return count;
}

/**
 * Writes the UTF-8 bytes of `text[start, end)` to `bytes` (which has room for three per code
 * unit) and returns how many there are; a lone surrogate is written as U+FFFD, as by
 * `TextEncoder`.
 */
function encodeUtf8(text: string, start: number, end: number, bytes: Uint8Array): number {
  let length = 0;
  for (let index = start; index < end; index++) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      bytes[length++] = code;
      continue;
    }
    if (code < 0x800) {
      bytes[length++] = 0xc0 | (code >> 6);
      bytes[length++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code < 0xe000) {
      const low = index + 1 < end ? text.charCodeAt(index + 1) : 0;
      if (code < 0xdc00 && low >= 0xdc00 && low < 0xe000) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        index++;
        bytes[length++] = 0xf0 | (code >> 18);
        bytes[length++] = 0x80 | ((code >> 12) & 0x3f);
        bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[length++] = 0x80 | (code & 0x3f);
        continue;
      }
      code = 0xfffd;
    }
    bytes[length++] = 0xe0 | (code >> 12);
    bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
    bytes[length++] = 0x80 | (code & 0x3f);
  }
  return length;
}

/** FNV-1a over the UTF-16 code units of `text[start, end)`. */
function hashCodeUnits(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash;
}

/**
 * The units a piece's merge starts from, in buffers reused from piece to piece: each unit is a
 * token, one byte or one character of two or three bytes (see {@link CharacterUnits}).
 */
class PieceUnits {
  /** The piece's UTF-8 bytes. */
  readonly bytes: Uint8Array;
  /** Byte offset where each unit starts; the entry after the last unit is the piece's length. */
  readonly starts: Int32Array;
  /** The rank of each unit's token. */
  readonly tokens: Int32Array;

  /** Buffers for pieces of up to `maxChars` UTF-16 code units. */
  constructor(maxChars: number) {
    this.bytes = new Uint8Array(maxChars * 3);
    this.starts = new Int32Array(maxChars * 3 + 1);
    this.tokens = new Int32Array(maxChars * 3);
  }
}

const sharedUnits = new PieceUnits(SHARED_BUFFER_CHARS);

/**
 * Splits the piece in `units.bytes` into units: one per character that {@link CharacterUnits}
 * lets merge as one, one per byte of every other character (`ascii`: all are single bytes).
 * Returns the number of units.
 */
function splitUnits(encoder: Encoder, units: PieceUnits, length: number, ascii: boolean): number {
  const { bytes, starts, tokens } = units;
  const { characters, vocabulary } = encoder;
  let count = 0;
  let position = 0;
  while (position < length) {
    const end = ascii ? position + 1 : position + characterSize(bytes[position] as number);
    const size = end - position;
    const token =
      size === 2 || size === 3 ? characters.unitToken(bytes, length, position, end) : -1;
    if (token >= 0) {
      starts[count] = position;
      tokens[count++] = token;
    } else {
      for (let index = position; index < end; index++) {
        starts[count] = index;
        tokens[count++] = vocabulary.byteRanks[bytes[index] as number] as number;
      }
    }
    position = end;
  }
  starts[count] = length;
  return count;
}

/** Length of the UTF-8 sequence that starts with `lead` (in a valid UTF-8 string). */
function characterSize(lead: number): number {
  return lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/**
 * The ranks of one encoding in an open-addressing hash table over typed arrays, keyed by the
 * token's bytes: a lookup hashes a slice of a byte buffer and allocates nothing.
 */
class Vocabulary {
  /** Length in bytes of the longest token: longer byte runs are never a token. */
  readonly maxTokenBytes: number;
  /** Rank of the token of each single byte (in byte-level BPE, every byte is a token). */
  readonly byteRanks = new Int32Array(256);
  /** The tokens that are not made of whole UTF-8 characters. */
  readonly partialTokens: PartialTokens;
  /** The bytes of every token, one after the other. */
  readonly pool: Uint8Array;
  /**
   * The hash table, {@link SLOT_FIELDS} numbers per slot: the hash of the token's bytes, where
   * they start in the pool, and its length and rank as `length * RANK_RANGE + rank`.
   */
  private readonly slots: Int32Array;
  /**
   * Per slot, 16 more bits of the hash (odd), 0 when the slot is empty: a lookup of bytes that
   * are not a token (most lookups) usually reads only this array, a sixth of the table's size.
   */
  private readonly fingerprints: Uint16Array;
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
    let slotCount = 1;
    while (slotCount < tokens.length * 2) slotCount *= 2;
    this.slots = new Int32Array(slotCount * SLOT_FIELDS);
    this.fingerprints = new Uint16Array(slotCount);
    this.mask = slotCount - 1;
    const partialBounds: number[] = [];
    let position = 0;
    for (let token = 0; token < tokens.length; token++) {
      const bytes = tokens[token] as string;
      const rank = tokenRanks[token] as number;
      const start = position;
      for (let index = 0; index < bytes.length; index++) {
        this.pool[position++] = bytes.charCodeAt(index);
      }
      const hash = hashBytes(this.pool, start, position);
      let slot = hash & this.mask;
      while (this.fingerprints[slot] !== 0) slot = (slot + 1) & this.mask;
      this.fingerprints[slot] = fingerprint(hash);
      this.slots[slot * SLOT_FIELDS] = hash;
      this.slots[slot * SLOT_FIELDS + 1] = start;
      this.slots[slot * SLOT_FIELDS + 2] = bytes.length * RANK_RANGE + rank;
      if (!isWholeCharacters(this.pool, start, position)) partialBounds.push(start, position);
    }
    this.partialTokens = new PartialTokens(this.pool, partialBounds);
    const single = new Uint8Array(1);
    for (let byte = 0; byte < 256; byte++) {
      single[0] = byte;
      this.byteRanks[byte] = this.rank(single, 0, 1);
    }
  }

  /** Rank of the token made of `bytes[start, end)`, or -1 when those bytes are not a token. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length > this.maxTokenBytes) return -1;
    const hash = hashBytes(bytes, start, end);
    const print = fingerprint(hash);
    const { pool, slots, fingerprints, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = fingerprints[slot] as number;
      if (stored === 0) return -1;
      if (stored !== print) continue;
      const base = slot * SLOT_FIELDS;
      const lengthAndRank = slots[base + 2] as number;
      if (slots[base] !== hash || lengthAndRank >>> RANK_BITS !== length) continue;
      const tokenStart = slots[base + 1] as number;
      let index = 0;
      while (index < length && pool[tokenStart + index] === bytes[start + index]) index++;
      if (index === length) return lengthAndRank & (RANK_RANGE - 1);
    }
  }

  /** Calls `visit` with the bytes and rank of every token, in no particular order. */
  forEachToken(visit: (pool: Uint8Array, start: number, end: number, rank: number) => void): void {
    const { pool, slots, fingerprints } = this;
    for (let slot = 0; slot < fingerprints.length; slot++) {
      if (fingerprints[slot] === 0) continue;
      const start = slots[slot * SLOT_FIELDS + 1] as number;
      const lengthAndRank = slots[slot * SLOT_FIELDS + 2] as number;
      visit(pool, start, start + (lengthAndRank >>> RANK_BITS), lengthAndRank & (RANK_RANGE - 1));
    }
  }
}

/** Numbers per slot of {@link Vocabulary}'s hash table. */
const SLOT_FIELDS = 3;
/** Ranks are below 2^RANK_BITS (200,019 tokens in o200k_base); lengths take the bits above. */
const RANK_BITS = 20;
const RANK_RANGE = 2 ** RANK_BITS;
/** Rank used for a pair that is not a token: above every real rank. */
const NO_RANK = 0x7fffffff;

/** 16 bits of `hash` other than those that pick a slot, made odd so that 0 means empty. */
function fingerprint(hash: number): number {
  return (Math.imul(hash, 0x9e3779b1) >>> 16) | 1;
}

/** FNV-1a over `bytes[start, end)`. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) {
    hash = Math.imul(hash ^ (bytes[index] as number), 0x01000193);
  }
  return hash;
}

/** Whether `bytes[start, end)` is a run of complete UTF-8 sequences (by their lead bytes). */
function isWholeCharacters(bytes: Uint8Array, start: number, end: number): boolean {
  let index = start;
  while (index < end) {
    const lead = bytes[index] as number;
    let size: number;
    if (lead < 0x80) size = 1;
    else if (lead >= 0xc2 && lead < 0xe0) size = 2;
    else if (lead >= 0xe0 && lead < 0xf0) size = 3;
    else if (lead >= 0xf0 && lead < 0xf5) size = 4;
    else return false;
    if (index + size > end) return false;
    for (let next = index + 1; next < index + size; next++) {
      if (!isContinuation(bytes[next] as number)) return false;
    }
    index += size;
  }
  return true;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** The code point of the character of two or three bytes at `bytes[start, end)`. */
function decodeCharacter(bytes: Uint8Array, start: number, end: number): number {
  const second = (bytes[start + 1] as number) & 0x3f;
  return end - start === 2
    ? (((bytes[start] as number) & 0x1f) << 6) | second
    : (((bytes[start] as number) & 0x0f) << 12) |
        (second << 6) |
        ((bytes[start + 2] as number) & 0x3f);
}

/**
 * The tokens of a vocabulary that are not made of whole UTF-8 characters (a part of a character,
 * or a part joined to what precedes or follows it, such as " \xe4"), indexed by the two bytes
 * around each character boundary inside them.
 */
class PartialTokens {
  /** By `before << 8 | after`: the first entry with a boundary between those bytes, plus one. */
  private readonly heads = new Int32Array(65_536);
  /** By `before << 8 | after`: 1 when some entry has a boundary between those bytes. */
  private readonly marks = new Uint8Array(65_536);
  /** {@link ENTRY_FIELDS} numbers per entry: next entry plus one, token start and end, boundary. */
  private readonly entries: Int32Array;

  /** Indexes the tokens at `pool[bounds[2i], bounds[2i + 1])`. */
  constructor(
    private readonly pool: Uint8Array,
    bounds: readonly number[],
  ) {
    const entries: number[] = [];
    for (let index = 0; index < bounds.length; index += 2) {
      const start = bounds[index] as number;
      const end = bounds[index + 1] as number;
      for (let boundary = start + 1; boundary < end; boundary++) {
        const after = pool[boundary] as number;
        if (isContinuation(after)) continue;
        const key = ((pool[boundary - 1] as number) << 8) | after;
        entries.push(this.heads[key] as number, start, end, boundary);
        this.heads[key] = entries.length / ENTRY_FIELDS;
        this.marks[key] = 1;
      }
    }
    this.entries = Int32Array.from(entries);
  }

  /**
   * Whether one of these tokens is in `bytes` (a piece of `length` bytes) across the character
   * boundary at `boundary`, starting or ending strictly inside the character `bytes[start, end)`.
   */
  splitsCharacter(
    bytes: Uint8Array,
    length: number,
    boundary: number,
    start: number,
    end: number,
  ): boolean {
    const key = ((bytes[boundary - 1] as number) << 8) | (bytes[boundary] as number);
    if (this.marks[key] === 0) return false;
    const { pool, entries } = this;
    for (let entry = this.heads[key] as number; entry !== 0; ) {
      const base = (entry - 1) * ENTRY_FIELDS;
      entry = entries[base] as number;
      const tokenStart = entries[base + 1] as number;
      const tokenLength = (entries[base + 2] as number) - tokenStart;
      // Where the token would start in `bytes` with its own boundary on `boundary`.
      const at = boundary - ((entries[base + 3] as number) - tokenStart);
      const until = at + tokenLength;
      if (at < 0 || until > length) continue;
      if (!((at > start && at < end) || (until > start && until < end))) continue;
      let index = 0;
      while (index < tokenLength && pool[tokenStart + index] === bytes[at + index]) index++;
      if (index === tokenLength) return true;
    }
    return false;
  }
}

/** Numbers per entry of {@link PartialTokens}. */
const ENTRY_FIELDS = 4;

/**
 * Which characters of two or three bytes can be merged as one unit, the token they are, rather
 * than byte by byte. Decided per character from its own bytes (on first sight, kept in a table
 * of 65,536 entries per encoding), then per occurrence from its neighbours in the piece.
 *
 * Why the result is the same. Merging a piece byte by byte, the bytes of a character C can only
 * be joined with bytes outside it by a token that crosses one of C's boundaries. If that token is
 * made of whole characters, C is one token already; otherwise it is one of the
 * {@link PartialTokens}, in the piece across C's boundary and starting or ending inside C. When
 * no such token is there, C's bytes merge as they would alone, untouched from outside until they
 * are one token (if they end as one), and that happens once the merge reaches the highest rank R
 * among C's own merges: until then one of them is always available, ranking R at most. A join
 * of C with a neighbour makes a longer token that holds C whole; when none of the tokens that
 * rank below R and hold C is in the piece around C, no join involving C can come before C is one
 * token, so starting with C as one token changes nothing: the joins happen in the same order.
 * (Those tokens are few, such as " В", which byte-pair training made from " \xd0" and "\x92"
 * before it made "В".) Otherwise C is merged byte by byte.
 */
class CharacterUnits {
  /**
   * Two numbers per code point: 0 when not decided yet, 1 when the character's bytes do not
   * merge into one token on their own, else the highest rank among those merges plus 2; then
   * the rank of the character's token.
   */
  private readonly table = new Int32Array(2 * 65_536);
  /** By code point: the first of its tokens that rank below its own merges, plus one. */
  private readonly heads = new Int32Array(65_536);
  /**
   * {@link ENTRY_FIELDS} numbers per entry: next entry plus one, where the token starts and ends
   * in the vocabulary's pool, and where the character is in it.
   */
  private readonly entries: Int32Array;
  /** The vocabulary's pool of token bytes. */
  private readonly pool: Uint8Array;

  /** Finds, for every character, the tokens that hold it whole and rank below its merges. */
  constructor(private readonly vocabulary: Vocabulary) {
    this.pool = vocabulary.pool;
    const entries: number[] = [];
    vocabulary.forEachToken((pool, start, end, rank) => {
      for (let index = start; index < end; index++) {
        const size = characterSize(pool[index] as number);
        if (size < 2 || size > 3 || isContinuation(pool[index] as number)) continue;
        if (index + size > end || end - start === size) continue;
        if (!isWholeCharacters(pool, index, index + size)) continue;
        const codePoint = decodeCharacter(pool, index, index + size);
        if (
          codePoint < (size === 2 ? 0x80 : 0x800) ||
          (codePoint >= 0xd800 && codePoint < 0xe000)
        ) {
          continue; // an overlong or surrogate sequence, never in a piece
        }
        if (rank >= this.highestOwnRank(codePoint, pool, index, index + size)) continue;
        entries.push(this.heads[codePoint] as number, start, end, index - start);
        this.heads[codePoint] = entries.length / ENTRY_FIELDS;
      }
    });
    this.entries = Int32Array.from(entries);
  }

  /**
   * For the character of two or three bytes at `bytes[start, end)`, in a piece of `length`
   * bytes: the rank of its token when it can be merged there as one unit, else -1.
   */
  unitToken(bytes: Uint8Array, length: number, start: number, end: number): number {
    const codePoint = decodeCharacter(bytes, start, end);
    if (this.highestOwnRank(codePoint, bytes, start, end) < 0) return -1;
    const partial = this.vocabulary.partialTokens;
    if (start > 0 && partial.splitsCharacter(bytes, length, start, start, end)) return -1;
    if (end < length && partial.splitsCharacter(bytes, length, end, start, end)) return -1;
    const { pool, entries } = this;
    for (let entry = this.heads[codePoint] as number; entry !== 0; ) {
      const base = (entry - 1) * ENTRY_FIELDS;
      entry = entries[base] as number;
      const tokenStart = entries[base + 1] as number;
      const tokenLength = (entries[base + 2] as number) - tokenStart;
      const at = start - (entries[base + 3] as number);
      if (at < 0 || at + tokenLength > length) continue;
      let index = 0;
      while (index < tokenLength && pool[tokenStart + index] === bytes[at + index]) index++;
      if (index === tokenLength) return -1;
    }
    return this.table[2 * codePoint + 1] as number;
  }

  /**
   * For the character `codePoint` at `bytes[start, end)`: the highest rank among the merges that
   * make its bytes one token on their own, or -1 when they do not make one token.
   */
  private highestOwnRank(codePoint: number, bytes: Uint8Array, start: number, end: number): number {
    let entry = this.table[2 * codePoint] as number;
    if (entry === 0) {
      entry = this.mergeAlone(codePoint, bytes, start, end) + 2;
      this.table[2 * codePoint] = entry;
    }
    return entry - 2;
  }

  /** Merges the character's bytes alone; see {@link highestOwnRank}. Keeps its token's rank. */
  private mergeAlone(codePoint: number, bytes: Uint8Array, start: number, end: number): number {
    const vocabulary = this.vocabulary;
    const whole = vocabulary.rank(bytes, start, end);
    if (whole < 0) return -1;
    this.table[2 * codePoint + 1] = whole;
    if (end - start === 2) return whole;
    const left = vocabulary.rank(bytes, start, start + 2);
    const right = vocabulary.rank(bytes, start + 1, end);
    if (left < 0 && right < 0) return -1;
    return Math.max(whole, left >= 0 && (right < 0 || left <= right) ? left : right);
  }
}

/**
 * A bounded cache of the rank of the token two adjacent tokens make when joined, keyed by their
 * two ranks (which determine their bytes): a direct-mapped table of {@link JOIN_CACHE_SLOTS}
 * slots, a pair replacing what was in its slot. Character pairs recur far more than pieces do, so
 * this answers most of the lookups of a merge without hashing bytes.
 */
class JoinCache {
  /**
   * Four numbers per slot (16 bytes, so a lookup reads one cache line): the left and right ranks
   * (-1 when empty), and the rank of the joined token, or -1 when the two do not make a token.
   */
  private readonly slots = new Int32Array(JOIN_CACHE_SLOTS * 4).fill(-1);

  /** A cache over `vocabulary`. */
  constructor(private readonly vocabulary: Vocabulary) {}

  /**
   * Rank of the token made of `bytes[start, end)`, the token `left` followed by the token
   * `right`; -1 when those bytes are not a token.
   */
  rank(left: number, right: number, bytes: Uint8Array, start: number, end: number): number {
    const slots = this.slots;
    const base =
      (Math.imul(left ^ Math.imul(right, 0x85ebca6b), 0x9e3779b1) >>> JOIN_SLOT_SHIFT) * 4;
    if (slots[base] === left && slots[base + 1] === right) return slots[base + 2] as number;
    const rank = this.vocabulary.rank(bytes, start, end);
    slots[base] = left;
    slots[base + 1] = right;
    slots[base + 2] = rank;
    return rank;
  }
}

/** Shift that keeps the top log2(JOIN_CACHE_SLOTS) bits of a 32-bit hash. */
const JOIN_SLOT_SHIFT = 32 - Math.log2(JOIN_CACHE_SLOTS);

/** Scratch for {@link mergeByRescan}: the rank of joining each part with the next. */
const rescanRanks = new Int32Array(RESCAN_MAX_UNITS);

/**
 * Number of tokens tiktoken's byte-pair merge yields for the piece in `units`, for pieces of few
 * units: keeps the rank of joining each part with the next and rescans them for the lowest,
 * leftmost on ties, after every join (tiktoken's own method).
 */
function mergeByRescan(joins: JoinCache, units: PieceUnits, count: number): number {
  const { starts, tokens } = units;
  const ranks = rescanRanks;
  let parts = count;
  for (let index = 0; index + 1 < count; index++) ranks[index] = joinRank(joins, units, index);
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
    // Join part `at` with part `at + 1`, then re-rank the joins on both sides of the new part.
    tokens[at] = lowest;
    for (let index = at + 1; index < parts; index++) starts[index] = starts[index + 1] as number;
    for (let index = at + 1; index + 1 < parts; index++) {
      tokens[index] = tokens[index + 1] as number;
      ranks[index] = ranks[index + 1] as number;
    }
    parts--;
    if (at + 1 < parts) ranks[at] = joinRank(joins, units, at);
    if (at > 0) ranks[at - 1] = joinRank(joins, units, at - 1);
  }
  return parts;
}

/** For {@link mergeByRescan}: the rank of joining part `at` with the next, or NO_RANK. */
function joinRank(joins: JoinCache, units: PieceUnits, at: number): number {
  const rank = joins.rank(
    units.tokens[at] as number,
    units.tokens[at + 1] as number,
    units.bytes,
    units.starts[at] as number,
    units.starts[at + 2] as number,
  );
  return rank < 0 ? NO_RANK : rank;
}

/**
 * Number of tokens tiktoken's byte-pair merge yields for the piece in `units`, in O(n log n):
 * parts form a linked list over unit indices, and candidate joins sit in a min-heap keyed by
 * (rank, first unit). A popped join is applied only if both of its parts are still as they were
 * when it was pushed. Parts only grow and keep their first unit, so a join is identified by its
 * first and end units, and the heap order is exactly tiktoken's: lowest rank, then leftmost.
 */
function mergeByHeap(joins: JoinCache, units: PieceUnits, count: number): number {
  const tokens = units.tokens;
  const lists = count <= SHARED_HEAP_UNITS ? sharedHeapLists : new HeapLists(count);
  const { next, previous, absorbed, heap } = lists;
  for (let index = 0; index < count; index++) {
    next[index] = index + 1;
    previous[index] = index - 1;
    absorbed[index] = 0;
  }
  next[count] = count;
  heap.clear();
  for (let index = 0; index + 1 < count; index++) {
    pushJoin(joins, units, heap, index, index + 1, index + 2);
  }
  let parts = count;
  while (heap.size > 0) {
    const rank = heap.topRank();
    const start = heap.topStart();
    const end = heap.topEnd();
    heap.pop();
    if (absorbed[start] === 1) continue;
    const middle = next[start] as number;
    if (middle >= count || next[middle] !== end) continue;
    absorbed[middle] = 1;
    next[start] = end;
    if (end < count) previous[end] = start;
    tokens[start] = rank;
    parts--;
    const before = previous[start] as number;
    if (before >= 0) pushJoin(joins, units, heap, before, start, end);
    if (end < count) pushJoin(joins, units, heap, start, end, next[end] as number);
  }
  return parts;
}

/** For {@link mergeByHeap}: pushes the join of the parts at `first` and `second`, if a token. */
function pushJoin(
  joins: JoinCache,
  units: PieceUnits,
  heap: JoinHeap,
  first: number,
  second: number,
  end: number,
): void {
  const { bytes, starts, tokens } = units;
  const rank = joins.rank(
    tokens[first] as number,
    tokens[second] as number,
    bytes,
    starts[first] as number,
    starts[end] as number,
  );
  if (rank >= 0) heap.push(rank, first, end);
}

/** The linked list of parts and the heap of {@link mergeByHeap}, for up to `maxUnits` units. */
class HeapLists {
  /** next[i]: first unit of the part after the part starting at unit i (count for the last). */
  readonly next: Int32Array;
  /** previous[i]: first unit of the part before the part starting at unit i (-1 for the first). */
  readonly previous: Int32Array;
  /** absorbed[i] = 1 once the part starting at unit i has been joined to the part before it. */
  readonly absorbed: Uint8Array;
  /** Candidate joins: one per unit at first, then two per join applied. */
  readonly heap: JoinHeap;

  /** Lists for pieces of up to `maxUnits` units. */
  constructor(maxUnits: number) {
    this.next = new Int32Array(maxUnits + 1);
    this.previous = new Int32Array(maxUnits);
    this.absorbed = new Uint8Array(maxUnits);
    this.heap = new JoinHeap(3 * maxUnits);
  }
}

/** A binary min-heap of candidate joins ordered by rank, then by first unit. */
class JoinHeap {
  /** Number of joins in the heap. */
  size = 0;
  /** Per join: `rank * START_RANGE + first unit`. */
  private readonly keys: Float64Array;
  /** Per join: the unit after its second part. */
  private readonly ends: Int32Array;

  /** An empty heap with room for `capacity` joins. */
  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  /** Removes every join. */
  clear(): void {
    this.size = 0;
  }

  /** Rank of the lowest join. */
  topRank(): number {
    return Math.floor((this.keys[0] as number) / START_RANGE);
  }

  /** First unit of the lowest join. */
  topStart(): number {
    return (this.keys[0] as number) % START_RANGE;
  }

  /** End unit of the lowest join. */
  topEnd(): number {
    return this.ends[0] as number;
  }

  /** Adds the join of units `start` to `end` with the rank of the token it makes. */
  push(rank: number, start: number, end: number): void {
    const { keys, ends } = this;
    const key = rank * START_RANGE + start;
    let index = this.size++;
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

  /** Removes the lowest join. */
  pop(): void {
    const { keys, ends } = this;
    const size = --this.size;
    if (size === 0) return;
    const lastKey = keys[size] as number;
    const lastEnd = ends[size] as number;
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

const sharedHeapLists = new HeapLists(SHARED_HEAP_UNITS);

/**
 * A bounded cache of piece → token count: a direct-mapped table of {@link PIECE_CACHE_SLOTS}
 * slots, a piece going to the slot its hash picks and replacing what was there. The pieces' code
 * units are copied into one preallocated array, so the cache allocates nothing after it is
 * created, takes the same memory however it is used, and keeps no text alive.
 */
class PieceCache {
  /** Per slot, {@link CACHED_PIECE_MAX_CHARS} code units, of which the piece's first. */
  private readonly chars = new Uint16Array(PIECE_CACHE_SLOTS * CACHED_PIECE_MAX_CHARS);
  /** Per slot, the piece's length in code units (0 when empty). */
  private readonly lengths = new Uint8Array(PIECE_CACHE_SLOTS);
  /** Per slot, the piece's token count. */
  private readonly counts = new Int32Array(PIECE_CACHE_SLOTS);

  /** The cached count of the piece `text[start, end)` whose hash is `hash`, or -1. */
  get(text: string, start: number, end: number, hash: number): number {
    const slot = hash & (PIECE_CACHE_SLOTS - 1);
    const length = end - start;
    if (this.lengths[slot] !== length) return -1;
    const chars = this.chars;
    const base = slot * CACHED_PIECE_MAX_CHARS;
    for (let index = 0; index < length; index++) {
      if (chars[base + index] !== text.charCodeAt(start + index)) return -1;
    }
    return this.counts[slot] as number;
  }

  /** Caches the count of the piece `text[start, end)`, of at most CACHED_PIECE_MAX_CHARS. */
  set(text: string, start: number, end: number, hash: number, count: number): void {
    const slot = hash & (PIECE_CACHE_SLOTS - 1);
    const chars = this.chars;
    const base = slot * CACHED_PIECE_MAX_CHARS;
    for (let index = start; index < end; index++)
      chars[base + index - start] = text.charCodeAt(index);
    this.lengths[slot] = end - start;
    this.counts[slot] = count;
  }
}
