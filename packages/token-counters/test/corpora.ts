/**
 * Seeded, deterministic text generators for the token counter tests and benchmarks: one function
 * per kind of text an agent's context holds, each returning exactly `size` UTF-16 code units.
 * The same `(size, seed)` always gives the same string, on every machine.
 */

import { type SeededRandom, seededRandom } from '@ctxkit/context-core/testing';

/** A text generator: exactly `size` code units of one kind of text, fixed by `seed`. */
export type CorpusGenerator = (size: number, seed?: number) => string;

/** English prose: paragraphs of sentences with punctuation, numbers, names and quotes. */
export function englishProse(size: number, seed = 1): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const sentences: string[] = [];
    const count = random.integer(3, 7);
    for (let index = 0; index < count; index++) sentences.push(englishSentence(random));
    return `${sentences.join(' ')}\n\n`;
  });
}

/** Pretty-printed JSON (two-space indent): records with strings, numbers, dates, ids, nesting. */
export function prettyJson(size: number, seed = 2): string {
  const random = seededRandom(seed);
  return fill(size, () => `${JSON.stringify(jsonRecord(random, 0), null, 2)}\n`);
}

/** Minified JSON: the records of {@link prettyJson} without whitespace. */
export function minifiedJson(size: number, seed = 3): string {
  const random = seededRandom(seed);
  return fill(size, () => JSON.stringify(jsonRecord(random, 0)));
}

/** TypeScript source: imports, interfaces, functions, classes, TSDoc and line comments. */
export function typescriptCode(size: number, seed = 4): string {
  const random = seededRandom(seed);
  return fill(size, () => `${typescriptDeclaration(random)}\n\n`);
}

/** Minified JavaScript: one very long line of short names, operators and string literals. */
export function minifiedJavaScript(size: number, seed = 5): string {
  const random = seededRandom(seed);
  return fill(size, () => minifiedFunction(random));
}

/** Log lines: ISO timestamps, levels, components, key=value pairs, paths, ids, stack traces. */
export function logLines(size: number, seed = 6): string {
  const random = seededRandom(seed);
  let clock = Date.UTC(2024, 4, 1, 8, 0, 0);
  return fill(size, () => {
    clock += random.integer(1, 4000);
    return `${logLine(random, new Date(clock).toISOString())}\n`;
  });
}

/** Chinese paragraphs with full-width punctuation, mixed with English terms, code and numbers. */
export function chineseMixed(size: number, seed = 7): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const sentences: string[] = [];
    const count = random.integer(2, 6);
    for (let index = 0; index < count; index++) sentences.push(chineseSentence(random));
    return `${sentences.join('')}\n\n`;
  });
}

/** Japanese paragraphs: kanji, hiragana and katakana words with Japanese punctuation. */
export function japaneseText(size: number, seed = 8): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const words: string[] = [];
    const count = random.integer(4, 12);
    for (let index = 0; index < count; index++) {
      words.push(random.pickSkewed(JAPANESE_WORDS));
      if (random.chance(0.6)) words.push(random.pick(JAPANESE_PARTICLES));
      if (random.chance(0.12)) words.push('、');
    }
    return `${words.join('')}${random.chance(0.85) ? '。' : '？'}${random.chance(0.2) ? '\n' : ''}`;
  });
}

/** Korean sentences: Hangul words with particles, separated by spaces. */
export function koreanText(size: number, seed = 9): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const words: string[] = [];
    const count = random.integer(4, 10);
    for (let index = 0; index < count; index++) {
      const word = random.pickSkewed(KOREAN_WORDS);
      words.push(random.chance(0.6) ? word + random.pick(KOREAN_PARTICLES) : word);
    }
    return `${words.join(' ')}${random.chance(0.85) ? '. ' : '? '}${random.chance(0.2) ? '\n' : ''}`;
  });
}

/**
 * CJK mixed with Latin, as in a multilingual chat: sentences of Chinese, Japanese and Korean,
 * some English ones, and code names, numbers and English terms inside the CJK ones. Not one of
 * {@link CORPORA} (whose kinds are each one kind of text).
 */
export function cjkMixed(size: number, seed = 13): string {
  const random = seededRandom(seed);
  const term = (): string =>
    random.pick([
      ` ${random.pick(CHINESE_EMBEDDED_TERMS)} `,
      `\`${identifier(random)}()\``,
      String(random.integer(1, 9999)),
      ` ${random.pick(ENGLISH_CONTENT_WORDS)} `,
    ]);
  return fill(size, () => {
    const roll = random.next();
    let sentence: string;
    if (roll < 0.3) sentence = chineseSentence(random);
    else if (roll < 0.55) {
      sentence = '';
      for (let index = random.integer(3, 9); index > 0; index--) {
        sentence += random.chance(0.15) ? term() : random.pickSkewed(JAPANESE_WORDS);
        if (random.chance(0.5)) sentence += random.pick(JAPANESE_PARTICLES);
      }
      sentence += '。';
    } else if (roll < 0.8) {
      const words: string[] = [];
      for (let index = random.integer(3, 8); index > 0; index--) {
        words.push(
          random.chance(0.15)
            ? term().trim()
            : random.pickSkewed(KOREAN_WORDS) + random.pick(KOREAN_PARTICLES),
        );
      }
      sentence = `${words.join(' ')}. `;
    } else sentence = `${englishSentence(random)} `;
    return random.chance(0.15) ? `${sentence}\n` : sentence;
  });
}

/** One long base64 string of random bytes, without line breaks (as in data URLs and JSON). */
export function base64Blob(size: number, seed = 10): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    let binary = '';
    for (let index = 0; index < 3 * 256; index++)
      binary += String.fromCharCode(random.integer(0, 255));
    return btoa(binary);
  });
}

/** Lines of lowercase hex: hashes, ids and hex dumps. */
export function hexLines(size: number, seed = 11): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const length = random.pick([8, 16, 32, 40, 64, 64]);
    const line = randomHex(random, length);
    return random.chance(0.5) ? `${line}\n` : `${random.pick(LOG_COMPONENTS)} ${line}\n`;
  });
}

/** Numeric tables: CSV rows of integers, decimals and dates. */
export function numericTable(size: number, seed = 12): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const cells = [
      `2024-${pad2(random.integer(1, 12))}-${pad2(random.integer(1, 28))}`,
      String(random.integer(0, 99999)),
      (random.next() * 1000).toFixed(2),
      String(random.integer(-500, 500)),
      (random.next() * 10).toFixed(4),
      String(random.integer(1000000, 9999999)),
    ];
    return `${cells.join(',')}\n`;
  });
}

/** The generated kinds, by name. */
export const CORPORA = {
  english: englishProse,
  'json-pretty': prettyJson,
  'json-minified': minifiedJson,
  typescript: typescriptCode,
  'minified-js': minifiedJavaScript,
  logs: logLines,
  chinese: chineseMixed,
  japanese: japaneseText,
  korean: koreanText,
  base64: base64Blob,
  hex: hexLines,
  numbers: numericTable,
} as const satisfies Record<string, CorpusGenerator>;

/** The name of a generated kind. */
export type CorpusKind = keyof typeof CORPORA;

/** Splits `text` into chunks of about `size` code units, never inside a surrogate pair. */
export function chunk(text: string, size: number): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

/** `produce`d pieces appended up to exactly `size` code units, never ending inside a surrogate pair. */
export function fill(size: number, produce: () => string): string {
  let text = '';
  while (text.length < size) text += produce();
  const end = text.charCodeAt(size - 1);
  return end >= 0xd800 && end <= 0xdbff ? `${text.slice(0, size - 1)} ` : text.slice(0, size);
}

// --- internal helpers ---

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function randomHex(random: SeededRandom, length: number): string {
  let hex = '';
  for (let index = 0; index < length; index++)
    hex += '0123456789abcdef'.charAt(random.integer(0, 15));
  return hex;
}

function uuid(random: SeededRandom): string {
  const hex = randomHex(random, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

function englishSentence(random: SeededRandom): string {
  const words: string[] = [];
  const length = random.integer(6, 24);
  for (let index = 0; index < length; index++) {
    const roll = random.next();
    let word: string;
    if (roll < 0.55) word = random.pickSkewed(ENGLISH_FUNCTION_WORDS);
    else if (roll < 0.93) word = random.pickSkewed(ENGLISH_CONTENT_WORDS);
    else if (roll < 0.97) word = random.pick(ENGLISH_NAMES);
    else if (roll < 0.985)
      word = String(random.pick([random.integer(1, 99), random.integer(1900, 2030)]));
    else word = random.pick(ENGLISH_RARE_WORDS);
    if (index > 0 && index < length - 1 && random.chance(0.07)) word += ',';
    words.push(word);
  }
  if (random.chance(0.06)) {
    const at = random.integer(0, words.length - 2);
    words[at] = `(${words[at]}`;
    words[at + 1] = `${words[at + 1]})`;
  }
  let sentence = `${capitalize(words.join(' '))}${random.pick(['.', '.', '.', '.', '?', '!', ';'])}`;
  if (random.chance(0.08)) sentence = `"${sentence}" ${random.pick(ENGLISH_NAMES)} said.`;
  return sentence;
}

function jsonRecord(random: SeededRandom, depth: number): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const fields = random.integer(3, 8);
  for (let index = 0; index < fields; index++) {
    const key = random.pick(JSON_KEYS);
    const roll = random.next();
    if (roll < 0.12 && depth < 2) record[key] = jsonRecord(random, depth + 1);
    else if (roll < 0.2 && depth < 2) {
      const items: unknown[] = [];
      const count = random.integer(1, 5);
      for (let item = 0; item < count; item++) {
        items.push(random.chance(0.5) ? jsonRecord(random, depth + 1) : random.integer(0, 5000));
      }
      record[key] = items;
    } else if (roll < 0.4) record[key] = random.integer(0, 100000);
    else if (roll < 0.47) record[key] = Math.round(random.next() * 100000) / 100;
    else if (roll < 0.54) record[key] = random.chance(0.5);
    else if (roll < 0.57) record[key] = null;
    else record[key] = jsonString(random);
  }
  return record;
}

function jsonString(random: SeededRandom): string {
  switch (random.integer(0, 8)) {
    case 0:
      return uuid(random);
    case 1:
      return new Date(Date.UTC(2020, 0, 1) + random.integer(0, 1.5e11)).toISOString();
    case 2:
      return `${random.pick(ENGLISH_NAMES).toLowerCase()}.${random.pick(ENGLISH_CONTENT_WORDS)}@example.com`;
    case 3:
      return `https://api.example.com/v2/${random.pick(JSON_KEYS)}/${random.integer(1, 99999)}`;
    case 4:
      return englishSentence(random);
    case 5:
      return random.pick(['active', 'pending', 'archived', 'failed', 'completed', 'draft']);
    case 6:
      return `${random.pick(ENGLISH_NAMES)} ${random.pick(ENGLISH_NAMES)}`;
    case 7:
      return `${random.pick(LOG_COMPONENTS)}-${randomHex(random, 7)}`;
    default:
      return random.pickSkewed(ENGLISH_CONTENT_WORDS);
  }
}

function identifier(random: SeededRandom): string {
  const parts = random.integer(1, 3);
  let name = random.pickSkewed(CODE_VERBS);
  for (let index = 1; index < parts; index++) name += capitalize(random.pickSkewed(CODE_NOUNS));
  return name;
}

function typeName(random: SeededRandom): string {
  return (
    capitalize(random.pickSkewed(CODE_NOUNS)) +
    (random.chance(0.4) ? capitalize(random.pick(CODE_NOUNS)) : '')
  );
}

function typescriptExpression(random: SeededRandom): string {
  switch (random.integer(0, 7)) {
    case 0:
      return `${random.pick(CODE_NOUNS)}.${identifier(random)}(${random.pick(CODE_NOUNS)})`;
    case 1:
      return `await this.${identifier(random)}(${random.pick(CODE_NOUNS)}, { ${random.pick(CODE_NOUNS)}: ${random.integer(0, 100)} })`;
    case 2:
      return `'${random.pick(ENGLISH_CONTENT_WORDS)} ${random.pick(ENGLISH_CONTENT_WORDS)}'`;
    case 3:
      return `\`${random.pick(ENGLISH_CONTENT_WORDS)} \${${random.pick(CODE_NOUNS)}.length}\``;
    case 4:
      return `${random.pick(CODE_NOUNS)}.filter((${random.pick(['item', 'entry', 'value'])}) => ${random.pick(['item', 'entry', 'value'])}.${random.pick(CODE_NOUNS)} !== undefined)`;
    case 5:
      return `new ${typeName(random)}(${random.pick(CODE_NOUNS)})`;
    case 6:
      return `${random.pick(CODE_NOUNS)}[${random.pick(['index', 'key', '0', 'i'])}] ?? ${random.pick(['null', 'undefined', '0', "''", '[]'])}`;
    default:
      return `${random.pick(CODE_NOUNS)} ${random.pick(['+', '-', '*', '>', '<=', '===', '&&', '||'])} ${random.integer(0, 1000)}`;
  }
}

function typescriptStatement(random: SeededRandom, indent: string): string {
  switch (random.integer(0, 6)) {
    case 0:
      return `${indent}const ${random.pick(CODE_NOUNS)} = ${typescriptExpression(random)};`;
    case 1:
      return `${indent}if (${typescriptExpression(random)}) {\n${indent}  return ${typescriptExpression(random)};\n${indent}}`;
    case 2:
      return `${indent}for (const ${random.pick(['item', 'entry', 'row'])} of ${random.pick(CODE_NOUNS)}) {\n${indent}  ${random.pick(CODE_NOUNS)}.push(${typescriptExpression(random)});\n${indent}}`;
    case 3:
      return `${indent}// ${capitalize(random.pick(ENGLISH_CONTENT_WORDS))} the ${random.pick(CODE_NOUNS)} before ${random.pick(ENGLISH_CONTENT_WORDS)}ing.`;
    case 4:
      return `${indent}let ${random.pick(CODE_NOUNS)}: ${typeName(random)} | undefined = ${typescriptExpression(random)};`;
    case 5:
      return `${indent}throw new Error(\`${random.pick(ENGLISH_CONTENT_WORDS)} ${random.pick(CODE_NOUNS)} \${${random.pick(CODE_NOUNS)}}\`);`;
    default:
      return `${indent}${random.pick(CODE_NOUNS)}.${identifier(random)}(${typescriptExpression(random)});`;
  }
}

function typescriptDeclaration(random: SeededRandom): string {
  const doc = `/** ${capitalize(random.pick(ENGLISH_CONTENT_WORDS))} the ${random.pick(CODE_NOUNS)} of a ${random.pick(CODE_NOUNS)}. */\n`;
  switch (random.integer(0, 4)) {
    case 0: {
      const lines: string[] = [];
      for (let index = random.integer(2, 6); index > 0; index--) {
        lines.push(
          `  ${random.chance(0.3) ? 'readonly ' : ''}${random.pick(CODE_NOUNS)}${random.chance(0.3) ? '?' : ''}: ${random.pick(['string', 'number', 'boolean', `${typeName(random)}[]`, typeName(random), 'Record<string, unknown>'])};`,
        );
      }
      return `${doc}export interface ${typeName(random)} {\n${lines.join('\n')}\n}`;
    }
    case 1: {
      const body: string[] = [];
      for (let index = random.integer(2, 6); index > 0; index--)
        body.push(typescriptStatement(random, '  '));
      return `${doc}export ${random.chance(0.4) ? 'async ' : ''}function ${identifier(random)}(${random.pick(CODE_NOUNS)}: ${typeName(random)}, options: ${typeName(random)}Options = {}): ${typeName(random)} {\n${body.join('\n')}\n}`;
    }
    case 2: {
      const body: string[] = [];
      for (let index = random.integer(1, 4); index > 0; index--)
        body.push(typescriptStatement(random, '    '));
      return `${doc}export class ${typeName(random)} implements ${typeName(random)} {\n  private readonly ${random.pick(CODE_NOUNS)} = new Map<string, ${typeName(random)}>();\n\n  ${identifier(random)}(${random.pick(CODE_NOUNS)}: string): void {\n${body.join('\n')}\n  }\n}`;
    }
    case 3:
      return `import { ${identifier(random)}, type ${typeName(random)} } from './${random.pick(CODE_NOUNS)}-${random.pick(CODE_NOUNS)}.js';\nimport type { ${typeName(random)} } from '@ctxkit/${random.pick(CODE_NOUNS)}';`;
    default:
      return `export const ${random.pick(CODE_NOUNS).toUpperCase()}_${random.pick(CODE_NOUNS).toUpperCase()} = ${random.integer(1, 65536)};\nexport type ${typeName(random)} = ${random.pick(["'text' | 'image'", 'string[]', `Partial<${typeName(random)}>`, `(${random.pick(CODE_NOUNS)}: string) => Promise<void>`])};`;
  }
}

function minifiedFunction(random: SeededRandom): string {
  const names = 'abcdefghijklmnopqrstuvwxyz';
  const short = (): string =>
    random.chance(0.8)
      ? names.charAt(random.integer(0, 25))
      : names.charAt(random.integer(0, 25)) + names.charAt(random.integer(0, 25)).toUpperCase();
  const parts: string[] = [];
  const pieces = random.integer(3, 9);
  for (let index = 0; index < pieces; index++) {
    switch (random.integer(0, 9)) {
      case 0:
        parts.push(
          `var ${short()}=${short()}.${random.pick(MINIFIED_PROPERTIES)}(${short()},${random.integer(0, 255)})`,
        );
        break;
      case 1:
        parts.push(`if(!${short()})return void 0`);
        break;
      case 2:
        parts.push(
          `for(var ${short()}=0;${short()}<${short()}.length;${short()}++)${short()}[${short()}]=${short()}[${short()}]`,
        );
        break;
      case 3:
        parts.push(
          `${short()}.${random.pick(MINIFIED_PROPERTIES)}=function(${short()},${short()}){return ${short()}&&${short()}.${random.pick(MINIFIED_PROPERTIES)}(${short()})}`,
        );
        break;
      case 4:
        parts.push(
          `throw new Error("${random.pick(ENGLISH_CONTENT_WORDS)} ${random.pick(ENGLISH_FUNCTION_WORDS)} ${random.pick(ENGLISH_CONTENT_WORDS)}: "+${short()})`,
        );
        break;
      case 5:
        parts.push(
          `${short()}=${short()}?${short()}:{${random.pick(MINIFIED_PROPERTIES)}:!0,${random.pick(MINIFIED_PROPERTIES)}:${short()}}`,
        );
        break;
      case 6:
        parts.push(
          `${short()}=typeof ${short()}=="${random.pick(['function', 'object', 'string', 'undefined'])}"?${short()}:null`,
        );
        break;
      case 7:
        parts.push(
          `Object.defineProperty(${short()},"${random.pick(MINIFIED_PROPERTIES)}",{enumerable:!0,get:function(){return ${short()}}})`,
        );
        break;
      case 8:
        parts.push(
          `${short()}=(${short()}<<${random.integer(1, 16)})|${short()}>>>${random.integer(1, 24)}&${random.integer(0, 65535)}`,
        );
        break;
      default:
        parts.push(
          `return ${short()}.${random.pick(MINIFIED_PROPERTIES)}(function(${short()}){return ${short()}!==${short()}})`,
        );
    }
  }
  return `function ${short()}(${short()},${short()},${short()}){${parts.join(';')}}`;
}

function logLine(random: SeededRandom, timestamp: string): string {
  const level = random.pickSkewed(['INFO', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'TRACE']);
  const component = random.pick(LOG_COMPONENTS);
  switch (random.integer(0, 7)) {
    case 0:
      return `${timestamp} ${level} [${component}-${random.integer(1, 8)}] ${random.pick(['GET', 'POST', 'PUT', 'DELETE'])} /api/v${random.integer(1, 3)}/${random.pick(JSON_KEYS)}/${random.integer(1, 99999)} status=${random.pick([200, 200, 201, 204, 400, 404, 500])} durationMs=${random.integer(1, 2500)} requestId=${uuid(random)}`;
    case 1:
      return `${timestamp} ${level} ${component}: ${englishSentence(random)}`;
    case 2:
      return `${timestamp} ERROR [${component}] Unhandled ${random.pick(['TypeError', 'RangeError', 'Error'])}: Cannot read properties of undefined (reading '${random.pick(CODE_NOUNS)}')\n    at ${identifier(random)} (/srv/app/dist/${random.pick(CODE_NOUNS)}/${random.pick(CODE_NOUNS)}.js:${random.integer(1, 900)}:${random.integer(1, 80)})\n    at async ${typeName(random)}.${identifier(random)} (/srv/app/dist/${random.pick(CODE_NOUNS)}.js:${random.integer(1, 900)}:${random.integer(1, 80)})`;
    case 3:
      return JSON.stringify({
        time: timestamp,
        level: level.toLowerCase(),
        msg: englishSentence(random),
        component,
        pid: random.integer(100, 65000),
        attempt: random.integer(1, 5),
      });
    case 4:
      return `10.${random.integer(0, 255)}.${random.integer(0, 255)}.${random.integer(0, 255)} - - [${timestamp}] "${random.pick(['GET', 'POST'])} /${random.pick(CODE_NOUNS)}/${random.pick(CODE_NOUNS)}?page=${random.integer(1, 50)} HTTP/1.1" ${random.pick([200, 304, 404])} ${random.integer(100, 90000)} "-" "Mozilla/5.0 (X11; Linux x86_64)"`;
    case 5:
      return `${timestamp} ${level} [${component}] job=${identifier(random)} queue=${random.pick(CODE_NOUNS)} attempts=${random.integer(1, 9)} elapsed=${(random.next() * 60).toFixed(3)}s memory=${random.integer(20, 2000)}MB`;
    case 6:
      return `[${timestamp}] ${level.padEnd(5)} ${component} - ${random.pick(['connected to', 'retrying', 'closed connection to', 'resolved'])} ${random.pick(['db', 'cache', 'queue'])}-${random.integer(1, 9)}.internal:${random.integer(1024, 65535)} (sha ${randomHex(random, 12)})`;
    default:
      return `${timestamp} ${level} ${component} ${random.pick(CODE_NOUNS)}=${random.integer(0, 9999)} ${random.pick(CODE_NOUNS)}="${random.pick(ENGLISH_CONTENT_WORDS)}" ok=${random.chance(0.8)}`;
  }
}

function chineseSentence(random: SeededRandom): string {
  let sentence = '';
  const length = random.integer(4, 14);
  for (let index = 0; index < length; index++) {
    const roll = random.next();
    if (roll < 0.86)
      sentence += random.chance(0.5)
        ? random.pickSkewed(CHINESE_WORDS)
        : random.pick(CHINESE_WORDS);
    else if (roll < 0.93) sentence += ` ${random.pick(CHINESE_EMBEDDED_TERMS)} `;
    else if (roll < 0.97) sentence += String(random.integer(1, 2025));
    else sentence += `“${random.pick(CHINESE_WORDS)}${random.pick(CHINESE_WORDS)}”`;
    if (index < length - 1 && random.chance(0.14))
      sentence += random.pick(['，', '，', '、', '：', '；']);
  }
  if (random.chance(0.1))
    sentence += `（${random.pick(CHINESE_WORDS)}${random.pick(CHINESE_WORDS)}）`;
  return sentence + random.pick(['。', '。', '。', '！', '？']);
}

// --- vocabularies ---

/** Splits a whitespace-separated word list. */
function words(list: string): readonly string[] {
  return list.trim().split(/\s+/);
}

const ENGLISH_FUNCTION_WORDS = words(`
  the of and to a in is that it for as with was on be by this are from or at which an not have but
  they their has we can all will more one when there been if would so what its into than only
  other some these could also most may after before should because while through where each
  between those don't it's without however although whether rather among against
`);

const ENGLISH_CONTENT_WORDS = words(`
  time people system work data model number world information point company problem service
  question process change result research order report development market language history context
  window message agent token budget summary request response memory network figure value important
  different large small possible available recent simple early make use find give show keep start
  run build understand consider remain suggest require include continue describe increase reduce
  measure approach evidence analysis performance experience government community environment
  relationship knowledge structure function pressure behaviour significant particular individual
  necessary especially generally quickly carefully several whole central morning evening river
  mountain garden library teacher student doctor children family village city country experiment
  hypothesis observation temperature distribution probability allocation compression truncation
  architecture infrastructure deployment latency throughput benchmark configuration parameter
  threshold estimate accurate reliable expensive efficient obvious subtle complicated ordinary
  notice wonder decide remember explain compare discover arrange survive
`);

const ENGLISH_RARE_WORDS = words(`
  idiosyncratic palimpsest sesquipedalian obfuscation heteroscedasticity photosynthesis
  incontrovertible juxtaposition serendipitously counterintuitive thermodynamics
  electroencephalogram quintessential perspicacious antidisestablishment
`);

const ENGLISH_NAMES = words(`
  Alice Bob Carol London Paris Tokyo Monday January Smith Garcia Nakamura Kowalski Amazon
  Microsoft Python TypeScript Europe Africa Einstein Shakespeare Mississippi Kubernetes PostgreSQL
`);

const JSON_KEYS = words(`
  id name email createdAt updatedAt status type user_id items price quantity description tags
  metadata url count total enabled version owner title content role tokens model temperature
  max_tokens address city country phone orderId customer currency amount timestamp score isActive
  parentId children permissions lastLoginAt conversationId toolName
`);

const CODE_VERBS = words(`
  get set create update delete load save parse format validate compute handle build resolve render
  fetch count merge apply find to is has with read write emit normalize serialize compress
`);

const CODE_NOUNS = words(`
  user message options result value config items index count error response request context budget
  tokens history counter store event record buffer cache session handler payload schema entry node
  parts text limit offset state listener provider compressor assembler window
`);

const MINIFIED_PROPERTIES = words(`
  length push call apply prototype slice indexOf exports default createElement value then keys
  forEach map hasOwnProperty toString concat splice charCodeAt props children current setState
  target type
`);

const LOG_COMPONENTS = words(`
  http worker scheduler db auth cache queue gateway compressor store billing mailer indexer sync
  router
`);

const CHINESE_WORDS = words(`
  我们 的 是 在 了 和 有 这个 一个 不 可以 进行 需要 系统 上下文 消息 模型 压缩 历史 对话 工具 输出 预算 窗口 用户 助手 问题 方法 数据 结果 时候 因为 所以 但是
  如果 已经 没有 自己 设计 实现 接口 策略 保留 最近 摘要 截断 估算 计数 存储 事件 配置 默认 阈值 文件 代码 测试 性能 内存 请求 响应 服务 任务 队列 处理 执行 调用
  返回 参数 错误 异常 日志 记录 检索 索引 中国 北京 上海 公司 发展 经济 社会 文化 教育 科学 技术 研究 环境 政府 国家 人民 世界 生活 工作 学习 时间 地方 城市 朋友
  重要 简单 复杂 准确 快速 稳定 可靠 完整 主要 基本 具体 一般 他们 她 它 这些 那些 什么 怎么 为什么 哪里 非常 比较 特别 通过 根据 关于 对于 以及 或者 并且 然后
  之后 之前 同时 其中 看到 知道 认为 发现 开始 继续 完成 使用 提供 支持 包括 成为 春天 山水 河流 天气 早上 晚上 今天 明天 孩子 老师 学生 医生 鳞次栉比 饕餮 龃龉
  踌躇 氤氲 旖旎 蹉跎 囹圄 魑魅魍魉 觊觎 优化 架构 模块 组件 依赖 版本 发布 部署 监控 告警 缓存 并发 线程 进程 协议 网络 延迟 吞吐 容量 扩展 迁移 兼容 回滚 事务
  一致性 可用性 分布式 数据库 字段 查询 写入 读取 删除 更新 插入 校验 解析 序列化 格式 编码 解码 上限 下限 比例 权重 优先级 调度 触发 回调 订阅 通知 消费 重试 超时
  熔断 降级 限流 隔离 沙箱 权限 认证 授权 密钥 令牌 会话 状态 快照 归档 清理 裁剪 掩码 占位符 模板 提示词 指令 推理 生成 训练 评估 指标 基准 误差 偏差 采样 分词
  词表 字符 段落 句子 标点 空格 换行 缩进 注释 函数 变量 常量 类型 对象 数组 字符串 整数 异步 同步 阻塞 轮询 事件循环 内存泄漏 垃圾回收 性能瓶颈 用户体验 需求 文档
  评审 迭代 里程碑 计划 目标 风险 假设 约束 边界 场景 示例 细节 总结 结论 背景 动机 收益 代价 取舍 权衡 逐步 显著 明显 大约 几乎 尽量 避免 确保 允许 禁止 必须 应该
  可能 或许 显然 其实 毕竟 甚至 否则 因此 于是 尽管 虽然 而且 不过 只是 仍然 依然 始终 总是 偶尔 往往 通常 立即 马上 随后 最终 悠然 惆怅 斟酌 琢磨 蹊跷 瞠目结舌
  迥然不同 栩栩如生 络绎不绝 沧海桑田 潜移默化 循序渐进 举一反三 顺藤摸瓜 山峦 溪流 庭院 屋檐 灯笼 茶叶 瓷器 丝绸 书法 诗词 戏曲 节气
`);

const CHINESE_EMBEDDED_TERMS = words(`
  token API JSON SQLite LLM pi-mono chars/4 Kysely TypeScript compress() reserveTokens
  MAX_CONTEXT_TOKENS v2.1 OpenAI tool_result
`);

const JAPANESE_WORDS = words(`
  私 日本 東京 時間 今日 明日 会社 仕事 学校 先生 学生 問題 情報 文章 システム データ モデル メッセージ サーバー ユーザー コンテキスト トークン 食べる 行きます 見る
  考える できる ありがとう とても 少し 新しい 大きい 小さい 美しい 難しい 天気 電車 駅 友達 家族 世界 言葉 説明 確認 処理 設定 実行 結果 圧縮 履歴 予算 している ました
  です ます ください ません こと もの ため ところ よう
`);

const JAPANESE_PARTICLES = words(`
  は が を に で と の も から まで へ
`);

const KOREAN_WORDS = words(`
  우리 사람 시간 오늘 내일 회사 학교 선생님 학생 문제 정보 시스템 데이터 모델 메시지 서버 사용자 컨텍스트 토큰 생각 세계 나라 한국 서울 가족 친구 공부 일 하다 있다
  없다 보다 먹다 가다 오다 알다 좋다 크다 작다 새로운 중요한 많이 조금 정말 그리고 하지만 압축 기록 예산 처리 설정 실행 결과 확인 설명 하는 했습니다 합니다
`);

const KOREAN_PARTICLES = words(`
  은 는 이 가 을 를 에 에서 와 과 의 도 로
`);
