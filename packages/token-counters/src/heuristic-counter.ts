import type { TokenCounter } from '@ctxkit/context-core';
import { isSingleTokenCharacter, listSingleTokenCharacters } from './single-token-characters.js';

/**
 * A fast token estimate with no tokenizer and no rank table, named `heuristic:v2`, tuned against
 * `o200k_base`: one pass over the UTF-16 code units, O(n), no regular expressions, no allocation.
 *
 * It follows tiktoken's pre-tokenizer (words with their leading space or mark, digits in groups of
 * three, punctuation runs, whitespace runs) and prices each piece by its shape: a short word is
 * one token; long words, words led by a mark, capitals and words without vowels cost more; runs of
 * one repeated character cost what the encoding's longest run of that character does. Runs that
 * look random (base64, hex) are priced per character. Every character outside ASCII has a price
 * of its own: Chinese, Japanese and Korean characters at the rate of everyday text when the
 * encoding holds them as one token and at two or more tokens when it does not, letters of other
 * scripts by word, combining marks, symbols, emoji and other astral characters, unusual spaces and
 * control characters one by one at what they cost alone.
 *
 * Its bound, checked by the tests on every class of text listed in docs/token-counting.md (every
 * kind of whitespace, control characters, the major scripts as words, combining marks, astral
 * characters, digits, punctuation, random and repeated runs, code) at lengths from 1 to 4,096
 * characters: `0.8 × exact − 4 ≤ estimate ≤ 1.4 × exact + 4` from 256 characters on, with 8 tokens
 * of slack instead of 4 below. On real files (code, docs, text in 13 languages) the floor is
 * `0.7 × exact`: lists of names that are not words cost more than their shape. Random strings of
 * letters (not words: `0.3 × exact`) and random printable ASCII such as generated passwords
 * (`0.75 × exact`) fall short of it; docs/token-counting.md lists the other patterns it misses.
 * Not exact: use `createTiktokenCounter` when the count must match the model's.
 *
 * @returns the counter, named `heuristic:v2`
 *
 * @example
 * ```ts
 * const counter = createHeuristicCounter();
 * counter.count('Hello, world!'); // 4
 * ```
 */
export function createHeuristicCounter(): TokenCounter {
  return Object.freeze({ name: 'heuristic:v2', count: estimateTokens });
}

// --- internal helpers ---

// Kinds of characters; the word letters (LOWER to OTHER_LETTER) are contiguous.
/** Whitespace other than a line break. */
const SPACE = 0;
/** `\n` or `\r`. */
const NEWLINE = 1;
const LOWER = 2;
const UPPER = 3;
/** A Latin letter with an accent. */
const ACCENTED = 4;
/** A letter of a script priced by word (Greek, Cyrillic, Arabic, Indic, Thai, ...). */
const OTHER_LETTER = 5;
const DIGIT = 6;
/** ASCII punctuation and control characters. */
const PUNCTUATION = 7;
/** A symbol outside ASCII, priced per character inside punctuation runs. */
const SYMBOL = 8;
/** A character priced on its own: CJK, kana, Hangul, rare scripts, digits outside ASCII. */
const PRICED = 9;
/** A combining mark or format character: priced on its own, leaves every open piece open. */
const MARK = 10;
/** The first half of an astral character (emoji, rare CJK, mathematical letters, ...). */
const SURROGATE = 11;
/** A Han character the encoding holds as one token, priced by the script of the whole text. */
const HAN = 12;
/** Such a character written only in traditional Chinese (a sign the text is traditional). */
const TRADITIONAL_HAN = 13;

// Leads of a word piece: what stood right before its first letter.
const LEAD_NONE = 0;
const LEAD_SPACE = 1;
const LEAD_PUNCTUATION = 2;
const LEAD_UNDERSCORE = 3;

/** Letters an English word piece holds in one token, by lead (none, space, punctuation, underscore). */
const ENGLISH_FREE_LETTERS = [6, 9, 3, 7];
/** Extra tokens per letter of an English word beyond the free ones, by lead. */
const ENGLISH_EXTRA_PER_LETTER = [0.2, 0.25, 0.2, 0.25];
/** Letters a word of a Latin-script language other than English holds in one token, by lead. */
const LATIN_FREE_LETTERS = [4, 5, 3, 3];
/** Extra tokens per letter beyond the free ones in such a word. */
const LATIN_EXTRA_PER_LETTER = 0.2;

/** Share of accented letters up to which Latin-script words are priced as English. */
const ENGLISH_ACCENTED_SHARE = 0.002;
/** Share of accented letters from which Latin-script words are priced as another language. */
const FOREIGN_ACCENTED_SHARE = 0.01;
/**
 * Share of lowercase words ending in `a`, `i`, `o` or `u` up to which Latin-script text is priced
 * as English (English prose and code: 1 to 4%; Italian, Spanish, Polish: 40 to 46%).
 */
const ENGLISH_VOWEL_ENDING_SHARE = 0.08;
/** Share of such words from which it is priced as another language. */
const FOREIGN_VOWEL_ENDING_SHARE = 0.25;
/** Words the share is taken over at least, so that a few words do not decide the language. */
const VOWEL_ENDING_MIN_WORDS = 8;
/**
 * Tokens a word of another script holds for free, by lead, against the weight of its letters
 * (each letter's weight is its script's extra tokens per letter, in {@link WIDE_RANGES}).
 */
const SCRIPT_FREE_WEIGHT = [0.84, 1.12, 0.56, 0.56];
/** Weight of an ASCII letter inside a word of another script. */
const ASCII_LETTER_WEIGHT_IN_SCRIPT = 0.28;
/** Extra tokens of a capitalized word led by a punctuation mark. */
const CAPITAL_AFTER_PUNCTUATION_SURCHARGE = 0.6;
/** Extra tokens of a word led by two capitals or more (`JS` in `JSDoc`). */
const ACRONYM_SURCHARGE = 1;
/** Extra tokens of a word without vowels (`npm`, `krb5`, `xsd`). */
const NO_VOWEL_SURCHARGE = 0.5;
/** Letters an all-capitals piece holds in one token, by lead: words after a space are cheaper. */
const FREE_CAPITALS = [3, 6, 3, 3];
/** Extra tokens per capital beyond the free ones, by lead. */
const EXTRA_PER_CAPITAL = [0.3, 0.15, 0.3, 0.3];
/** ASCII punctuation characters one token usually covers. */
const FREE_PUNCTUATION = 3;
/** Extra tokens per ASCII punctuation character beyond the free ones. */
const EXTRA_PER_PUNCTUATION = 0.8;
/** Shortest run of base64 characters that may be priced as random. */
const RANDOM_MIN_LENGTH = 16;
/** Case or digit changes per 20 characters from which a run is random whatever its vowels. */
const RANDOM_CHANGES_PER_TWENTY = 9;
/** Characters per pair of capitals in a row such a run has at most (camelCase has none). */
const RANDOM_CHARACTERS_PER_CAPITAL_PAIR = 12;
/** Shortest run of base64 characters that may be priced as random if it looks very random. */
const SHORT_RANDOM_MIN_LENGTH = 8;
/** Shortest run of letters that may be priced as random without case or digit changes. */
const LONG_RANDOM_MIN_LENGTH = 32;
/**
 * Characters per mark (`/ _ - + =`) such a run has at least: more marks make a path or a name
 * (`src/index/search`, `Slash_Slashaka_ms`), not random letters.
 */
const LONG_RANDOM_CHARACTERS_PER_MARK = 16;
/** Shortest run of hex digits that may be priced as random. */
const HEX_MIN_LENGTH = 8;
/** Tokens per character of random base64. */
const BASE64_COST = 0.69;
/** Tokens per character of random hex. */
const HEX_COST = 0.58;
/** Extra tokens of a word at each cluster of combining marks inside it (`cafe\u0301s` splits). */
const MARK_IN_WORD_SURCHARGE = 0.5;
/** Tokens of the remainder of a run of five or more of one character (runs rarely end on a token). */
const REPEAT_REMAINDER_COST = 0.5;

// Whitespace. A run of whitespace is cut like the pre-tokenizer cuts it: everything up to its
// last line break is one piece, the rest another, and the last space joins the word after it.
// Each piece costs a token, plus a fraction for each further character (its repeat price, below)
// and a change price each time the character changes inside the piece.
/** Price of a change from one kind of ASCII whitespace to another inside a piece. */
const WHITESPACE_CHANGE_COST = 0.5;
/** Price of a change to a line break inside a piece (`   \n` is one token). */
const CHANGE_TO_NEWLINE_COST = 0.2;
/** Price of a change to or from whitespace that tokens rarely join (`\r`, `\v`, no-break space). */
const UNMERGED_WHITESPACE_CHANGE_COST = 1;
/** Tokens per further space in a run of spaces. */
const SPACE_REPEAT_COST = 1 / 128;
/** Tokens of a blank line that repeats the line before (`\n   \n   \n`). */
const REPEATED_LINE_COST = 1;
/** Tokens of such a line of usual indentation, two of which make one token (`\n  \n  \n`). */
const REPEATED_INDENTATION_COST = 0.5;
/** The cost of the piece up to the last line break of a whitespace run that has none. */
const NO_HEAD = -1;
/** A `\r\n` pair, handled as one unit of whitespace. */
const CRLF = 0x0d0a;
/** Tokens per `\r\n` pair in a run of them. */
const CRLF_REPEAT_COST = 0.25;

/**
 * For each ASCII character, log2 of the characters of a run of it that one token covers (`=` 64,
 * `!` 16, `z` 2, `\` 4, a space 128, a tab or `\n` 16), from the encoding's vocabulary. Digits
 * read 0: they are priced in groups of three.
 */
const ASCII_REPEAT_LOG2 =
  '1000000004400100000000000000000074262512226526660000000000443633' +
  '3322123112112212111111114211213613222231221232131122112132112150';

/** Characters outside ASCII whose runs merge, with the characters one token covers. */
const WIDE_REPEAT_LENGTHS: ReadonlyMap<number, number> = new Map(
  [
    ['\u00a0', 8],
    ['\u3000', 16],
    ['\u2002', 2],
    ['\ufeff', 2],
    ['\u200b', 4],
    ['\u200c', 2],
    ['─', 16],
    ['━', 8],
    ['═', 8],
    ['□', 16],
    ['…', 16],
    ['—', 16],
    ['–', 4],
    ['█', 4],
    ['★', 4],
    ['・', 4],
    ['ー', 4],
    ['＝', 4],
    ['＊', 4],
    ['！', 4],
    ['哈', 2],
    ['☆', 2],
    ['·', 2],
    ['•', 2],
    ['▄', 2],
    ['■', 2],
    ['～', 2],
    ['－', 2],
    ['＿', 2],
    ['。', 2],
    ['、', 2],
    ['？', 2],
    ['ㅋ', 2],
    ['ㅎ', 2],
  ].map(([character, length]) => [(character as string).charCodeAt(0), length as number]),
);

/** Prices are stored in thirty-seconds of a token. */
const COST_UNIT = 32;
/** Tokens per stored unit of price. */
const COST_SCALE = 1 / COST_UNIT;
/** Letters beyond the free ones of a foreign word per stored unit of an accented letter's price. */
const ACCENT_COST_SCALE = COST_SCALE / LATIN_EXTRA_PER_LETTER;

/**
 * Kind and price of every BMP character outside ASCII, by range (later ranges override earlier
 * ones): `[first, last, kind, tokens]`. For symbols, marks, whitespace and priced characters the
 * price is what one such character costs alone (the mean over the range where it varies), except
 * for the characters the encoding holds as one token ({@link isSingleTokenCharacter}), priced
 * below; for letters of word-priced scripts it is the script's extra tokens per letter. Measured
 * against `o200k_base`.
 */
const WIDE_RANGES: readonly (readonly [number, number, number, number])[] = [
  [0x0080, 0xffff, PRICED, 3], // anything not listed: three UTF-8 bytes, rarely merged
  [0x0080, 0x07ff, PRICED, 2], // two UTF-8 bytes
  [0x0080, 0x009f, SYMBOL, 1.85], // C1 controls
  [0x00a0, 0x00a0, SPACE, 1], // no-break space
  [0x00a1, 0x00bf, SYMBOL, 1], // Latin-1 punctuation and signs
  [0x00c0, 0x00ff, ACCENTED, 0.15], // Latin-1 letters (French, German, Spanish, ...)
  [0x0100, 0x024f, ACCENTED, 0.55], // Latin extended (Czech, Polish, Turkish, ...)
  [0x00d7, 0x00d7, SYMBOL, 1], // ×
  [0x00f7, 0x00f7, SYMBOL, 1], // ÷
  [0x0250, 0x02ff, PRICED, 2], // IPA, modifier letters
  [0x0300, 0x036f, MARK, 2], // combining diacritical marks
  [0x0370, 0x03ff, OTHER_LETTER, 0.3], // Greek
  [0x0400, 0x052f, OTHER_LETTER, 0.28], // Cyrillic
  [0x0530, 0x058f, OTHER_LETTER, 0.3], // Armenian
  [0x0590, 0x05ff, OTHER_LETTER, 0.3], // Hebrew
  [0x0600, 0x06ff, OTHER_LETTER, 0.31], // Arabic
  [0x0660, 0x0669, PRICED, 1], // Arabic-Indic digits
  [0x06f0, 0x06f9, PRICED, 1], // Eastern Arabic-Indic digits
  [0x0800, 0x08ff, PRICED, 3], // Samaritan, Mandaic, Arabic extended
  [0x0900, 0x0dff, OTHER_LETTER, 0.3], // Indic scripts
  [0x0966, 0x096f, PRICED, 1], // Devanagari digits
  [0x0e00, 0x0eff, OTHER_LETTER, 0.35], // Thai, Lao
  [0x0f00, 0x0fff, PRICED, 2.25], // Tibetan
  [0x1000, 0x109f, OTHER_LETTER, 0.3], // Myanmar
  [0x10a0, 0x10ff, OTHER_LETTER, 0.3], // Georgian
  [0x1100, 0x11ff, PRICED, 3], // Hangul jamo (decomposed Korean)
  [0x1200, 0x137f, PRICED, 2], // Ethiopic
  [0x1380, 0x177f, PRICED, 3], // Cherokee, Canadian syllabics, Ogham, Runic, Philippine
  [0x1680, 0x1680, SPACE, 3], // Ogham space mark
  [0x1780, 0x17ff, OTHER_LETTER, 0.3], // Khmer
  [0x1ab0, 0x1aff, MARK, 3], // combining marks extended
  [0x1d00, 0x1dbf, PRICED, 2.65], // phonetic extensions
  [0x1dc0, 0x1dff, MARK, 3], // combining marks supplement
  [0x1e00, 0x1eff, ACCENTED, 0.05], // Latin extended additional (Vietnamese)
  [0x1f00, 0x1fff, PRICED, 2.25], // Greek extended
  [0x2000, 0x200a, SPACE, 2], // typographic spaces
  [0x2002, 0x2003, SPACE, 1],
  [0x2005, 0x2005, SPACE, 1],
  [0x2009, 0x200a, SPACE, 1],
  [0x200b, 0x200f, MARK, 1], // zero-width space, joiners, direction marks
  [0x2010, 0x2027, SYMBOL, 2], // dashes, quotes, bullets, ellipsis
  [0x2028, 0x2028, SPACE, 1], // line separator
  [0x2029, 0x2029, SPACE, 2], // paragraph separator
  [0x202a, 0x202e, MARK, 1], // bidirectional embeddings
  [0x202f, 0x202f, SPACE, 1], // narrow no-break space
  [0x2030, 0x205e, SYMBOL, 2],
  [0x205f, 0x205f, SPACE, 2], // medium mathematical space
  [0x2060, 0x206f, MARK, 2], // invisible operators, isolates
  [0x2060, 0x2060, MARK, 1], // word joiner
  [0x2063, 0x2063, MARK, 1],
  [0x2070, 0x20cf, SYMBOL, 2], // super- and subscripts, currency
  [0x20d0, 0x20ff, MARK, 2], // combining marks for symbols
  [0x20e3, 0x20e3, MARK, 1], // keycap
  [0x2100, 0x22ff, SYMBOL, 2], // letterlike, number forms, arrows, mathematical operators
  [0x2300, 0x23ff, SYMBOL, 2.75], // technical
  [0x2400, 0x24ff, SYMBOL, 2.25], // control pictures, enclosed alphanumerics
  [0x2500, 0x25ff, SYMBOL, 2], // box drawing, blocks, shapes
  [0x2600, 0x27bf, SYMBOL, 2.15], // miscellaneous symbols, dingbats
  [0x27c0, 0x2bff, SYMBOL, 2.9], // arrows and mathematical symbols
  [0x2e00, 0x2fff, SYMBOL, 3], // supplemental punctuation, CJK radicals
  [0x3000, 0x3000, SPACE, 1], // ideographic space
  [0x3001, 0x303f, SYMBOL, 2], // CJK punctuation
  [0x3040, 0x30ff, PRICED, 2], // kana
  [0x3100, 0x312f, PRICED, 2], // Bopomofo
  [0x3130, 0x318f, PRICED, 2.15], // Hangul compatibility jamo
  [0x3190, 0x33ff, SYMBOL, 2.8], // enclosed and compatibility CJK
  [0x3400, 0x4dbf, PRICED, 3], // CJK extension A
  [0x4e00, 0x9fff, PRICED, 2.05], // CJK unified ideographs
  [0xac00, 0xd7a3, PRICED, 2.3], // Hangul syllables
  [0xd7a4, 0xd7ff, PRICED, 2.65], // Hangul jamo extended
  [0xd800, 0xdbff, SURROGATE, 1], // the first half of an astral character (alone: one token)
  [0xdc00, 0xdfff, SYMBOL, 1], // a lone low surrogate
  [0xe000, 0xf8ff, SYMBOL, 2.9], // private use
  [0xfb00, 0xfb4f, PRICED, 2.2], // ligatures, Hebrew presentation forms
  [0xfb50, 0xfdff, PRICED, 2.9], // Arabic presentation forms
  [0xfe00, 0xfe0f, MARK, 2], // variation selectors
  [0xfe0e, 0xfe0f, MARK, 1], // text and emoji presentation
  [0xfe10, 0xfe6f, SYMBOL, 2], // vertical forms, small forms
  [0xfe20, 0xfe2f, MARK, 2], // combining half marks
  [0xfe70, 0xfefe, PRICED, 2], // Arabic presentation forms B
  [0xfeff, 0xfeff, SPACE, 1], // byte order mark (whitespace to the pre-tokenizer)
  [0xff01, 0xff65, SYMBOL, 2], // full-width ASCII and CJK punctuation
  [0xff10, 0xff19, PRICED, 1], // full-width digits
  [0xff66, 0xff9f, PRICED, 2], // half-width katakana
  [0xffa0, 0xffef, PRICED, 2], // half-width Hangul, full-width signs
  [0xfff0, 0xffff, SYMBOL, 1.9], // specials
];

/** Tokens per frequent Han character in simplified Chinese or Japanese text (they pair up). */
const FREQUENT_HAN_COST = 0.75;
/** Tokens per frequent Han character in traditional Chinese, whose words pair up less. */
const FREQUENT_TRADITIONAL_HAN_COST = 0.9;
/** Share of traditional-only characters above which Chinese text is priced as traditional. */
const TRADITIONAL_SHARE = 0.02;
/** Frequent characters written only in traditional Chinese (simplified and Japanese differ). */
const TRADITIONAL_MARKERS = '們這說對來會過還國與發當點從經實樣關數變應讓將處傳參為';
/** Tokens per frequent Hangul syllable in everyday Korean (they pair up). */
const FREQUENT_HANGUL_COST = 0.7;
/** Tokens per frequent kana in everyday Japanese. */
const FREQUENT_KANA_COST = 0.7;
/** Tokens per other character the encoding holds as one token (`，`, `→`, `—`, `─`). */
const SINGLE_TOKEN_COST = 0.9;

// Astral characters: four UTF-8 bytes each, priced one by one.
/** Tokens per astral character outside the ranges below (rare CJK, historic scripts). */
const ASTRAL_COST = 4;
/** Tokens per musical or mathematical symbol (U+1D000 to U+1DFFF). */
const MATHEMATICAL_COST = 3;
/** Tokens per mathematical alphanumeric (U+1D400 to U+1D7FF: 𝐀, 𝒜, 𝔸, 𝟙). */
const MATHEMATICAL_LETTER_COST = 2.85;
/** Tokens per emoji or pictograph whose first three bytes are one token. */
const EMOJI_COST = 2;
/** Tokens per other character of U+1F000 to U+1FFFF (rarer pictographs). */
const RARE_EMOJI_COST = 3;
/** Ranges of U+1F000 to U+1FFFF priced at {@link EMOJI_COST}: flags, pictographs, emoticons. */
const EMOJI_RANGES = [
  [0x1f1c0, 0x1f1ff],
  [0x1f300, 0x1f53f],
  [0x1f600, 0x1f6bf],
  [0x1f900, 0x1f97f],
];
/** Kind of each ASCII character. */
const ASCII_KINDS = buildAsciiKinds();
/** Kind of each BMP character from U+0080, and its price in {@link COST_UNIT}s. */
const { kinds: WIDE_KINDS, costs: WIDE_COSTS } = buildWideTables();
/** Tokens per further character in a run of one ASCII character. */
const ASCII_REPEAT_COSTS = Float64Array.from(
  { length: 128 },
  (_, code) => 1 / 2 ** Number(ASCII_REPEAT_LOG2.charAt(code)),
);

function buildAsciiKinds(): Uint8Array {
  const kinds = new Uint8Array(128).fill(PUNCTUATION);
  // Control characters: bytes the encoding rarely merges, priced one token each.
  kinds.fill(SYMBOL, 0, 32);
  kinds[127] = SYMBOL;
  kinds[9] = SPACE;
  kinds[11] = SPACE;
  kinds[12] = SPACE;
  kinds[32] = SPACE;
  kinds[10] = NEWLINE;
  kinds[13] = NEWLINE;
  for (let code = 48; code <= 57; code++) kinds[code] = DIGIT;
  for (let code = 65; code <= 90; code++) kinds[code] = UPPER;
  for (let code = 97; code <= 122; code++) kinds[code] = LOWER;
  return kinds;
}

function buildWideTables(): { kinds: Uint8Array; costs: Uint8Array } {
  const kinds = new Uint8Array(0x10000);
  const costs = new Uint8Array(0x10000);
  for (const [first, last, kind, tokens] of WIDE_RANGES) {
    kinds.fill(kind, first, last + 1);
    costs.fill(Math.round(tokens * COST_UNIT), first, last + 1);
  }
  // Characters the encoding holds as one token cost less than the rest of their range.
  for (const code of listSingleTokenCharacters()) {
    if (code > 0xffff || kinds[code] === SPACE) continue;
    // A frequent Han character is priced by the script of the whole text; it costs one token
    // alone (in a run of itself).
    if (code >= 0x4e00 && code <= 0x9fff) kinds[code] = HAN;
    costs[code] = Math.round(singleTokenCost(code, kinds[code] as number) * COST_UNIT);
  }
  for (const marker of TRADITIONAL_MARKERS) kinds[marker.charCodeAt(0)] = TRADITIONAL_HAN;
  return { kinds, costs };
}

/** Price of a character the encoding holds as one token, by its kind and script. */
function singleTokenCost(code: number, kind: number): number {
  if (kind === MARK || kind === HAN || kind === TRADITIONAL_HAN) return 1;
  if (code >= 0xac00 && code <= 0xd7a3) return FREQUENT_HANGUL_COST;
  if (code >= 0x3040 && code <= 0x30ff) return FREQUENT_KANA_COST;
  return SINGLE_TOKEN_COST;
}

/** Tokens of one astral character alone. */
function astralCost(codePoint: number): number {
  if (codePoint >= 0x1f000 && codePoint <= 0x1ffff) {
    if (isSingleTokenCharacter(codePoint)) return 1;
    for (const [first, last] of EMOJI_RANGES) {
      if (codePoint >= (first as number) && codePoint <= (last as number)) return EMOJI_COST;
    }
    return RARE_EMOJI_COST;
  }
  if (codePoint >= 0x1d400 && codePoint <= 0x1d7ff) return MATHEMATICAL_LETTER_COST;
  if (codePoint >= 0x1d000 && codePoint <= 0x1dfff) return MATHEMATICAL_COST;
  return ASTRAL_COST;
}

/**
 * Whether the character at `index` (`code`, the same as the one before it) is the fifth of a run
 * of itself: from there a run pays for its remainder.
 */
function isFifthInARow(text: string, index: number, code: number): boolean {
  return (
    code === text.charCodeAt(index - 2) &&
    code === text.charCodeAt(index - 3) &&
    code === text.charCodeAt(index - 4) &&
    code !== text.charCodeAt(index - 5)
  );
}

/** Tokens a character adds to a run of itself, from its second occurrence on. */
function repeatCost(code: number): number {
  if (code < 128) return ASCII_REPEAT_COSTS[code] as number;
  if (code === CRLF) return CRLF_REPEAT_COST;
  const length = WIDE_REPEAT_LENGTHS.get(code);
  return length === undefined ? Math.max(1, (WIDE_COSTS[code] as number) * COST_SCALE) : 1 / length;
}

/** Tokens a whitespace unit costs alone, beyond the one token of the piece it starts. */
function whitespaceSurcharge(unit: number): number {
  return unit < 128 || unit === CRLF ? 0 : (WIDE_COSTS[unit] as number) * COST_SCALE - 1;
}

/** Tokens a whitespace unit adds to a piece after a different one. */
function whitespaceChangeCost(previousUnit: number, unit: number): number {
  if (unit >= 128 && unit !== CRLF) return (WIDE_COSTS[unit] as number) * COST_SCALE;
  if (!mergesWithWhitespace(unit) || !mergesWithWhitespace(previousUnit)) {
    return UNMERGED_WHITESPACE_CHANGE_COST;
  }
  return unit === 10 || unit === CRLF ? CHANGE_TO_NEWLINE_COST : WHITESPACE_CHANGE_COST;
}

/**
 * Whether the blank line `text[start, end)` (whitespace then its line break) repeats the line
 * just before it, character for character.
 */
function repeatsLineBefore(text: string, start: number, end: number): boolean {
  const width = end - start;
  if (start - width < 0) return false;
  for (let index = start; index < end; index++) {
    if (text.charCodeAt(index) !== text.charCodeAt(index - width)) return false;
  }
  return true;
}

/**
 * Tokens of a blank line that repeats the one before. The encoding merges such lines when their
 * whitespace is a usual indentation: four lines of one tab or four spaces make one token, two
 * lines of up to four tabs or of 1, 2, 8, 12 or 16 spaces (up to three tabs, 4 or 8 spaces before
 * `\r\n`); any other line of one kind of whitespace costs a token, a line mixing tabs and spaces
 * a token before `\n` and two before `\r\n` (most of them; some combinations differ by one).
 */
function repeatedLineCost(text: string, start: number, units: number, unit: number): number {
  const indent = text.charCodeAt(start);
  for (let index = start + 1; index < start + units; index++) {
    if (text.charCodeAt(index) !== indent) {
      return unit === 10 ? REPEATED_LINE_COST : 2 * REPEATED_LINE_COST;
    }
  }
  if (unit === 10) {
    if ((indent === 9 && units === 1) || (indent === 32 && units === 4)) {
      return REPEATED_INDENTATION_COST / 2;
    }
    if (indent === 9 ? units <= 4 : units <= 2 || (units % 4 === 0 && units <= 16)) {
      return REPEATED_INDENTATION_COST;
    }
  } else if (indent === 9 ? units <= 3 : units === 4 || units === 8) {
    return REPEATED_INDENTATION_COST;
  }
  return REPEATED_LINE_COST;
}

/** Whether tokens join this whitespace unit with other kinds: a space, a tab, `\n`, `\r\n`. */
function mergesWithWhitespace(unit: number): boolean {
  return unit === 32 || unit === 9 || unit === 10 || unit === CRLF;
}

// Flags of ASCII characters.
/** May belong to a base64 or hex run: letters, digits, `+ / = _ -`. */
const RUN_FLAG = 1;
/** A vowel, `y` included. */
const VOWEL_FLAG = 2;
/** A vowel, `y` excluded (random runs). */
const STRICT_VOWEL_FLAG = 4;
/** A hex digit letter, `a` to `f` in either case. */
const HEX_FLAG = 8;
/** `a`, `i`, `o` or `u`: few English words end in one, most Italian or Spanish words do. */
const FOREIGN_ENDING_FLAG = 16;

/** Flags of each ASCII character. */
const ASCII_FLAGS = buildAsciiFlags();

function buildAsciiFlags(): Uint8Array {
  const flags = new Uint8Array(128);
  for (const character of '0123456789+/=_-') flags[character.charCodeAt(0)] = RUN_FLAG;
  for (let code = 65; code <= 90; code++) {
    const lower = String.fromCharCode(code + 32);
    let flag = RUN_FLAG;
    if ('aeiouy'.includes(lower)) flag |= VOWEL_FLAG;
    if ('aeiou'.includes(lower)) flag |= STRICT_VOWEL_FLAG;
    if (lower <= 'f') flag |= HEX_FLAG;
    if ('aiou'.includes(lower)) flag |= FOREIGN_ENDING_FLAG;
    flags[code] = flag;
    flags[code + 32] = flag;
  }
  return flags;
}

function capitalsCost(letters: number, lead: number): number {
  const free = FREE_CAPITALS[lead] as number;
  return 1 + Math.max(0, letters - free) * (EXTRA_PER_CAPITAL[lead] as number);
}

function englishWordCost(letters: number, lead: number): number {
  const free = ENGLISH_FREE_LETTERS[lead] as number;
  return 1 + Math.max(0, letters - free) * (ENGLISH_EXTRA_PER_LETTER[lead] as number);
}

function punctuationCost(ascii: number, symbols: number): number {
  const asciiCost =
    ascii > 0 ? 1 + Math.max(0, ascii - FREE_PUNCTUATION) * EXTRA_PER_PUNCTUATION : 0;
  return Math.max(1, asciiCost + symbols);
}

/** Whether the open punctuation run joins the word that follows as its leading character. */
function isWordLead(
  ascii: number,
  symbols: number,
  afterSpace: boolean,
  newline: boolean,
): boolean {
  return ascii === 1 && symbols === 0 && !afterSpace && !newline;
}

function estimateTokens(text: string): number {
  const length = text.length;
  // Tokens of everything but Latin-script words, whose price depends on the language of the whole
  // text: as English, or as another language (a fixed part plus letters beyond the free ones).
  let total = 0;
  let englishWords = 0;
  let latinWords = 0;
  let latinExcess = 0;
  // Lowercase words of three letters or more, and those ending in `a i o u` (a language signal).
  let lowercaseWords = 0;
  let vowelEndings = 0;
  let asciiLetters = 0;
  let accentedLetters = 0;
  let hanCharacters = 0;
  let traditionalCharacters = 0;
  // The open word piece: letters, ASCII capitals, vowels, the weight of its letters of other
  // scripts, and its lead.
  let letters = 0;
  let capitals = 0;
  let vowels = 0;
  let scriptLetters = 0;
  let scriptWeight = 0;
  let lead = LEAD_NONE;
  // The open digit run.
  let digits = 0;
  // The open punctuation run: ASCII marks, price of symbols and repeats, whether a space led it
  // and whether newlines joined it.
  let punctuation = 0;
  let symbols = 0;
  let punctuationAfterSpace = false;
  let punctuationNewline = false;
  // The open whitespace run: its units (a `\r\n` pair is one), the cost of its piece up to its
  // last line break (if it has one), and the units and cost after that break.
  let headCost = NO_HEAD;
  let tailUnits = 0;
  let tailCost = 0;
  let lastStep = 0;
  let previousUnit = 0;
  let previous = NEWLINE;
  // The open run of base64/hex characters: the sums when it began, its length and shape.
  let runLength = 0;
  let runStartTotal = 0;
  let runStartEnglish = 0;
  let runStartLatin = 0;
  let runStartExcess = 0;
  let runLetters = 0;
  let runVowels = 0;
  let runDigits = 0;
  let runTransitions = 0;
  let runRepeats = 0;
  let runCaseFlips = 0;
  let runCapitalPairs = 0;
  let runHex = true;

  for (let index = 0; index <= length; index++) {
    const atEnd = index === length;
    let code = atEnd ? 32 : text.charCodeAt(index);
    let kind: number;
    // The price of an astral character, or 1 (an ASCII control character); that of another
    // character outside ASCII is read from WIDE_COSTS where it is needed.
    let price = 1;
    let flags = 0;
    if (code < 128) {
      kind = ASCII_KINDS[code] as number;
      flags = ASCII_FLAGS[code] as number;
    } else {
      kind = WIDE_KINDS[code] as number;
      if (kind === MARK) {
        // A combining mark or format character is priced alone (or as a run of itself) and
        // leaves every piece as it is; the first mark after a letter cuts the word's merges short.
        const before = text.charCodeAt(index - 1);
        if (before === code) total += repeatCost(code);
        else {
          total += (WIDE_COSTS[code] as number) * COST_SCALE;
          if (letters > 0 && WIDE_KINDS[before] !== MARK) total += MARK_IN_WORD_SURCHARGE;
        }
        continue;
      }
      if (kind === SURROGATE) {
        const low = text.charCodeAt(index + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          price = astralCost(code);
          index++;
        }
        kind = SYMBOL;
      }
    }
    const letter = kind >= LOWER && kind <= OTHER_LETTER;

    // Close the word piece unless this letter continues it (a capital after a lowercase letter
    // starts a new piece, as in `getUserName`).
    if (letters > 0 && (!letter || (kind === UPPER && previous === LOWER))) {
      if (scriptLetters > 0) {
        const weight = scriptWeight + (letters - scriptLetters) * ASCII_LETTER_WEIGHT_IN_SCRIPT;
        total += 1 + Math.max(0, weight - (SCRIPT_FREE_WEIGHT[lead] as number));
      } else {
        // A capitalized word rarely merges with the mark before it (`_Root`, `.Foo`); a word
        // without vowels is an abbreviation or a name, rarely one token.
        let surcharge =
          lead >= LEAD_PUNCTUATION && capitals > 0 ? CAPITAL_AFTER_PUNCTUATION_SURCHARGE : 0;
        if (capitals === letters && letters > 1) {
          const cost = capitalsCost(letters, lead) + surcharge;
          englishWords += cost;
          latinWords += cost;
        } else {
          if (vowels === 0 && letters > 1) surcharge += NO_VOWEL_SURCHARGE;
          // Capitals before a lowercase word are an acronym of their own (`JSDoc`, `IOError`).
          if (capitals > 1) surcharge += ACRONYM_SURCHARGE;
          englishWords += englishWordCost(letters, lead) + surcharge;
          latinWords += 1 + surcharge;
          latinExcess += Math.max(0, letters - (LATIN_FREE_LETTERS[lead] as number));
          if (capitals === 0 && letters >= 3) {
            lowercaseWords++;
            const last = text.charCodeAt(index - 1);
            if (last < 128 && ((ASCII_FLAGS[last] as number) & FOREIGN_ENDING_FLAG) !== 0) {
              vowelEndings++;
            }
          }
        }
      }
      letters = 0;
      capitals = 0;
      vowels = 0;
      scriptLetters = 0;
      scriptWeight = 0;
    }
    if (digits > 0 && kind !== DIGIT) {
      total += Math.ceil(digits / 3);
      digits = 0;
    }
    // A punctuation run goes on with more marks, then takes the newlines and slashes right
    // after it; a single mark joins the word it leads.
    if (
      (punctuation > 0 || symbols > 0) &&
      kind !== NEWLINE &&
      (punctuationNewline ? code !== 47 : kind !== PUNCTUATION && kind !== SYMBOL) &&
      !(letter && isWordLead(punctuation, symbols, punctuationAfterSpace, punctuationNewline))
    ) {
      total += punctuationCost(punctuation, symbols);
      punctuation = 0;
      symbols = 0;
    }

    // Close the base64/hex run, repricing it per character if it looks random.
    const runCharacter = !atEnd && (flags & RUN_FLAG) !== 0;
    if (runLength > 0 && !runCharacter) {
      let runCost = -1;
      if (runLength < SHORT_RANDOM_MIN_LENGTH || runRepeats * 4 >= runLength) {
        // Too short to tell, or mostly one character repeated: not random.
      } else if (
        runHex &&
        runLength >= HEX_MIN_LENGTH &&
        runDigits * 5 >= runLength &&
        runDigits < runLength
      ) {
        runCost = runLength * HEX_COST;
      } else if (
        runLetters * 10 >= runLength * 6 &&
        ((runLength >= RANDOM_MIN_LENGTH &&
          runVowels * 10 < runLetters * 3 &&
          (runTransitions * 5 >= runLength ||
            (runLength >= LONG_RANDOM_MIN_LENGTH &&
              runVowels * 4 < runLetters &&
              (runLength - runLetters - runDigits) * LONG_RANDOM_CHARACTERS_PER_MARK <=
                runLength))) ||
          // Case and digit changes every other character, capitals in pairs (not camelCase):
          // random whatever its vowels.
          (runLength >= RANDOM_MIN_LENGTH &&
            (((runTransitions + runCaseFlips) * 20 >= runLength * RANDOM_CHANGES_PER_TWENTY &&
              runCapitalPairs * RANDOM_CHARACTERS_PER_CAPITAL_PAIR >= runLength) ||
              // Or fewer changes but capitals in pairs everywhere (`sUEN3WipbsqQMOFOTgAY`).
              ((runTransitions + runCaseFlips) * 4 >= runLength &&
                runCapitalPairs * 5 >= runLength))) ||
          // A short id (`sk-g88Rlsa9`) needs fewer vowels and more changes to look random.
          (runLength >= SHORT_RANDOM_MIN_LENGTH &&
            runVowels * 5 < runLetters &&
            runTransitions * 4 >= runLength))
      ) {
        runCost = runLength * BASE64_COST;
      }
      if (runCost >= 0) {
        total = runStartTotal + runCost;
        englishWords = runStartEnglish;
        latinWords = runStartLatin;
        latinExcess = runStartExcess;
      }
      runLength = 0;
    }

    if ((kind === SPACE || kind === NEWLINE) && !atEnd) {
      if (code === 32) {
        // Fast paths: the first space of a run (most often the one between two words), and
        // further spaces of indentation.
        if (tailUnits === 0 && headCost === NO_HEAD) {
          tailUnits = 1;
          previousUnit = 32;
          previous = SPACE;
          continue;
        }
        if (previousUnit === 32 && tailUnits > 0) {
          tailUnits++;
          tailCost += SPACE_REPEAT_COST;
          lastStep = SPACE_REPEAT_COST;
          continue;
        }
      }
      let unit = code;
      if (code === 13 && text.charCodeAt(index + 1) === 10) {
        unit = CRLF;
        index++;
      }
      if (kind === NEWLINE && (punctuation > 0 || symbols > 0)) {
        // Line breaks right after punctuation join its piece.
        if (punctuationNewline && unit === previousUnit) symbols += repeatCost(unit);
        punctuationNewline = true;
      } else {
        let step = 0;
        if (tailUnits === 0 && (headCost === NO_HEAD || kind === SPACE)) {
          // The first unit of a piece.
          if (unit >= 128) step = whitespaceSurcharge(unit);
        } else if (unit !== previousUnit) step = whitespaceChangeCost(previousUnit, unit);
        else step = unit < 128 ? (ASCII_REPEAT_COSTS[unit] as number) : repeatCost(unit);
        if (kind === NEWLINE) {
          // Everything up to a line break is one piece; whitespace between two breaks changes
          // kind twice (`\n  \n`), which the free start of the tail did not count, unless the
          // line only repeats the one before (blank lines keeping their indentation).
          if (headCost === NO_HEAD) headCost = tailCost + step;
          else if (tailUnits === 0) headCost += step;
          else {
            const lineStart = unit === CRLF ? index - 1 - tailUnits : index - tailUnits;
            headCost += repeatsLineBefore(text, lineStart, index + 1)
              ? repeatedLineCost(text, lineStart, tailUnits, unit)
              : tailCost + step + WHITESPACE_CHANGE_COST;
          }
          tailUnits = 0;
          tailCost = 0;
        } else {
          tailUnits++;
          tailCost += step;
          lastStep = step;
        }
      }
      previousUnit = unit;
      previous = kind;
      continue;
    }

    // A visible character: settle the whitespace before it. Its last space or tab joins the
    // word after it (only a space joins punctuation, nothing joins digits); whitespace that does
    // not join is a piece of its own, after the piece of the rest of the run.
    let afterSpace = false;
    if (tailUnits === 1 && previousUnit === 32 && headCost === NO_HEAD && !atEnd) {
      // Fast path: one space, which joins the piece after it unless that is a number.
      if (kind === DIGIT) total += 1;
      else afterSpace = true;
      tailUnits = 0;
    } else if (tailUnits > 0 || headCost !== NO_HEAD) {
      if (headCost !== NO_HEAD) total += 1 + headCost;
      if (tailUnits > 0) {
        const joins =
          !atEnd &&
          (previousUnit === 32 ||
            (previousUnit === 9 && kind !== PUNCTUATION && kind !== SYMBOL)) &&
          kind !== DIGIT;
        if (joins) {
          if (tailUnits > 1) total += 1 + tailCost - lastStep;
          afterSpace = true;
        } else total += 1 + tailCost + (tailUnits > 1 && !atEnd ? 1 : 0);
      }
      headCost = NO_HEAD;
      tailUnits = 0;
      tailCost = 0;
      lastStep = 0;
    }
    if (atEnd) break;

    // The same character as the one before (only a character of the same kind can be).
    const repeated = previous === kind && code === text.charCodeAt(index - 1);
    if (runCharacter) {
      if (runLength === 0) {
        runStartTotal = total;
        runStartEnglish = englishWords;
        runStartLatin = latinWords;
        runStartExcess = latinExcess;
        runLetters = 0;
        runVowels = 0;
        runDigits = 0;
        runTransitions = 0;
        runRepeats = 0;
        runCaseFlips = 0;
        runCapitalPairs = 0;
        runHex = true;
      } else if (previous !== kind) {
        // A change between a digit and something else or from a lowercase letter to a capital;
        // from a capital to a lowercase letter.
        if (kind === DIGIT || previous === DIGIT || (kind === UPPER && previous === LOWER)) {
          runTransitions++;
        } else if (kind === LOWER && previous === UPPER) runCaseFlips++;
      } else {
        // Two capitals in a row; the same character again.
        if (kind === UPPER) runCapitalPairs++;
        if (repeated) runRepeats++;
      }
      runLength++;
      if (kind === DIGIT) runDigits++;
      else if (kind === PUNCTUATION) runHex = false;
      else {
        runLetters++;
        if ((flags & STRICT_VOWEL_FLAG) !== 0) runVowels++;
        if ((flags & HEX_FLAG) === 0) runHex = false;
      }
    }

    if (letter) {
      if (letters === 0) {
        if (punctuation > 0) {
          // The single punctuation mark before this word joins its piece.
          lead = text.charCodeAt(index - 1) === 95 ? LEAD_UNDERSCORE : LEAD_PUNCTUATION;
          punctuation = 0;
        } else lead = afterSpace ? LEAD_SPACE : LEAD_NONE;
      }
      // A letter repeated past the first two is priced as a run of itself (`aaaaaaaa`, `zzzz`),
      // with the remainder of a run of five or more, like a run of marks.
      if (repeated && code === text.charCodeAt(index - 2)) {
        total += repeatCost(code);
        if (isFifthInARow(text, index, code)) total += REPEAT_REMAINDER_COST;
        previous = kind;
        continue;
      }
      letters++;
      if ((flags & VOWEL_FLAG) !== 0) vowels++;
      if (kind === UPPER) capitals++;
      if (kind === LOWER || kind === UPPER) {
        asciiLetters++;
        // Fast path: the lowercase letters that follow only extend the word and the run, as long
        // as none is the third of a letter in a row.
        let next = index + 1;
        let before = code;
        for (; next < length; next++) {
          const nextCode = text.charCodeAt(next);
          if (nextCode < 97 || nextCode > 122) break;
          if (nextCode === before) {
            if (nextCode === text.charCodeAt(next - 2)) break;
            runRepeats++;
          }
          before = nextCode;
          const nextFlags = ASCII_FLAGS[nextCode] as number;
          if ((nextFlags & VOWEL_FLAG) !== 0) vowels++;
          if ((nextFlags & STRICT_VOWEL_FLAG) !== 0) runVowels++;
          if ((nextFlags & HEX_FLAG) === 0) runHex = false;
        }
        const extra = next - index - 1;
        if (extra > 0) {
          if (kind === UPPER) runCaseFlips++;
          letters += extra;
          asciiLetters += extra;
          runLength += extra;
          runLetters += extra;
          index = next - 1;
          previous = LOWER;
          continue;
        }
      } else if (kind === ACCENTED) {
        // Most accented letters are vowels; each adds its price to the words' excess (kept in
        // letters beyond the free ones, so that one sum serves both).
        accentedLetters++;
        vowels++;
        latinExcess += (WIDE_COSTS[code] as number) * ACCENT_COST_SCALE;
      } else {
        scriptLetters++;
        scriptWeight += (WIDE_COSTS[code] as number) * COST_SCALE;
      }
    } else {
      switch (kind) {
        case DIGIT:
          digits++;
          break;
        case PUNCTUATION:
        case SYMBOL:
          if (punctuation === 0 && symbols === 0) {
            punctuationAfterSpace = afterSpace;
            punctuationNewline = false;
          }
          if (repeated && (punctuation > 0 || symbols > 0)) {
            // Runs of one repeated mark (`=====`, `-----`, `━━━━`) merge into few tokens, but
            // a long run rarely ends on a token's length: its remainder costs extra.
            symbols += repeatCost(code);
            if (isFifthInARow(text, index, code)) symbols += REPEAT_REMAINDER_COST;
          } else if (kind === PUNCTUATION) punctuation += 1;
          else
            symbols +=
              code >= 128 && code <= 0xffff ? (WIDE_COSTS[code] as number) * COST_SCALE : price;
          break;
        case TRADITIONAL_HAN:
          traditionalCharacters++;
          hanCharacters++;
          break;
        case HAN:
          if (repeated) total += repeatCost(code);
          else hanCharacters++;
          break;
        default:
          // Priced one by one: kana, Hangul, rare CJK, rare scripts, digits outside ASCII.
          total += repeated ? repeatCost(code) : (WIDE_COSTS[code] as number) * COST_SCALE;
      }
    }
    previous = kind;
  }
  // Latin-script text is another language than English when it has accents or when many of its
  // words end in `a`, `i`, `o` or `u` (Italian, Spanish); in between, the two prices are blended,
  // so one accented name does not flip a whole text.
  const accentedShare = accentedLetters / Math.max(1, asciiLetters + accentedLetters);
  const vowelEndingShare = vowelEndings / Math.max(VOWEL_ENDING_MIN_WORDS, lowercaseWords);
  const foreignWeight = Math.min(
    1,
    Math.max(
      (accentedShare - ENGLISH_ACCENTED_SHARE) / (FOREIGN_ACCENTED_SHARE - ENGLISH_ACCENTED_SHARE),
      (vowelEndingShare - ENGLISH_VOWEL_ENDING_SHARE) /
        (FOREIGN_VOWEL_ENDING_SHARE - ENGLISH_VOWEL_ENDING_SHARE),
      0,
    ),
  );
  const foreignWords = latinWords + latinExcess * LATIN_EXTRA_PER_LETTER;
  total += englishWords + (foreignWords - englishWords) * foreignWeight;
  const traditional = traditionalCharacters > hanCharacters * TRADITIONAL_SHARE;
  total += hanCharacters * (traditional ? FREQUENT_TRADITIONAL_HAN_COST : FREQUENT_HAN_COST);
  return Math.ceil(total);
}
