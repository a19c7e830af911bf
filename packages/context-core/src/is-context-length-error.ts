/** The figures a model API gave when it rejected a prompt as longer than its context window. */
export interface ContextLengthFigures {
  /** The window the API named, in its own tokens. */
  limit?: number;
  /** The tokens the API counted in the rejected request (prompt, or prompt plus completion). */
  requested?: number;
  /**
   * The part of `requested` reserved for the answer, when the API says so (OpenAI-compatible
   * servers' "(9000 in the messages, 26000 in the completion)", OpenRouter's "262000 in the
   * output"): the prompt then had `requested - completion` tokens and may have `limit -
   * completion`.
   */
  completion?: number;
}

/**
 * Whether `error` is a model API's rejection of a prompt as longer than the model's context
 * window. It reads what SDKs and HTTP clients throw: an `Error` whose message holds the API's
 * text, an object with `status`/`statusCode`, an API error body (`{ error: { type, code,
 * message } }`, parsed or as JSON text), an AI SDK `APICallError` (`statusCode`, `responseBody`,
 * `data`) and `cause` chains. It knows the texts and codes of OpenAI and Azure OpenAI
 * (`context_length_exceeded`), Anthropic ("prompt is too long"), Gemini ("input token count ...
 * exceeds the maximum"), Bedrock ("Input is too long", "too many input tokens"), Mistral,
 * DeepSeek, Moonshot, OpenRouter, vLLM, Ollama and llama.cpp's server
 * (`exceed_context_size_error`). A text alone is not enough when the error also reports an HTTP
 * status of 401, 403, 429 or 5xx; the codes `context_length_exceeded` and
 * `exceed_context_size_error` are.
 *
 * @param error - any value, such as what a `catch` caught
 * @returns whether it is a context-length rejection
 *
 * @example
 * ```ts
 * try {
 *   await generateText({ model, messages });
 * } catch (error) {
 *   if (!isContextLengthError(error)) throw error;
 *   // shrink the prompt and try again
 * }
 * ```
 */
export function isContextLengthError(error: unknown): boolean {
  return namesContextLength(collectFacts(error));
}

/**
 * The window and the requested tokens a context-length rejection reports: OpenAI's "maximum
 * context length is 128000 tokens. However, your messages resulted in 130532 tokens",
 * Anthropic's "prompt is too long: 208310 tokens > 200000 maximum", Gemini's "input token count
 * (N) exceeds the maximum number of tokens allowed (M)", llama.cpp's `n_ctx` and
 * `n_prompt_tokens`, and the like.
 *
 * @param error - any value, such as what a `catch` caught
 * @returns `undefined` when `error` is not a context-length rejection (see
 *   `isContextLengthError`); otherwise the figures it reports, an empty object when it gives none
 */
export function contextLengthFigures(error: unknown): ContextLengthFigures | undefined {
  const facts = collectFacts(error);
  if (!namesContextLength(facts)) return undefined;
  const figures: ContextLengthFigures = { ...facts.fields };
  for (const text of facts.texts) {
    for (const read of FIGURE_READERS) {
      const found = read(text);
      for (const field of FIGURE_FIELDS) {
        if (figures[field] === undefined && found[field] !== undefined)
          figures[field] = found[field];
      }
    }
  }
  return figures;
}

// --- internal helpers ---

/** Codes and types that name a context-length rejection whatever the text. */
const CONTEXT_LENGTH_CODES: ReadonlySet<string> = new Set([
  'context_length_exceeded',
  'exceed_context_size_error',
]);

/** Texts of the APIs' context-length rejections (one alternative per wording). */
const CONTEXT_LENGTH_TEXT = new RegExp(
  [
    'maximum context length', // OpenAI, Azure OpenAI, DeepSeek, vLLM, OpenRouter, Mistral
    'context[ _]length[ _]exceeded',
    'prompt is too long', // Anthropic, and Anthropic models on Bedrock
    'exceeded model token limit', // Moonshot
    'exceeds? the (?:available )?context (?:size|window)', // llama.cpp server
    'input token count.*exceeds the maximum', // Gemini
    'input length exceeds the context length', // Ollama
    'prompt too long; exceeded (?:max )?context length', // Ollama
    'input is too long', // Bedrock
    'too many input tokens', // Bedrock
  ].join('|'),
  'i',
);

/**
 * Whether the facts name a context-length rejection: by a code that means nothing else, or by
 * its text when no status rules one out.
 */
function namesContextLength(facts: ErrorFacts): boolean {
  if (facts.codes.some((code) => CONTEXT_LENGTH_CODES.has(code))) return true;
  if (facts.status !== undefined && !isRejectionStatus(facts.status)) return false;
  return facts.texts.some((text) => CONTEXT_LENGTH_TEXT.test(text));
}

/** Statuses a context-length rejection may come with: client errors other than auth and rate limits. */
function isRejectionStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;
}

const FIGURE_FIELDS = ['limit', 'requested', 'completion'] as const;

/** Reads the figures from one wording; fields it does not know stay undefined. */
type FigureReader = (text: string) => ContextLengthFigures;

const FIGURE_READERS: readonly FigureReader[] = [
  pair(/prompt is too long:\s*([\d,]+)\s*tokens?\s*>\s*([\d,]+)/i, 'requested', 'limit'),
  pair(/token limit:\s*([\d,]+)\s*\(requested:\s*([\d,]+)\)/i, 'limit', 'requested'),
  pair(
    /input token count\s*\(([\d,]+)\)\s*exceeds the maximum number of tokens allowed\s*\(([\d,]+)\)/i,
    'requested',
    'limit',
  ),
  pair(
    /prompt contains\s*([\d,]+)\s*tokens.*?too large for model with\s*([\d,]+)/i,
    'requested',
    'limit',
  ),
  single(/maximum context length is\s*([\d,]+)/i, 'limit'),
  single(/maximum number of tokens allowed\s*\(([\d,]+)\)/i, 'limit'),
  single(/(?:resulted in|requested(?: about)?)\s*([\d,]+)\s*tokens/i, 'requested'),
  single(/([\d,]+)\s*in the (?:completion|output)\b/i, 'completion'),
];

function pair(
  pattern: RegExp,
  first: keyof ContextLengthFigures,
  second: keyof ContextLengthFigures,
): FigureReader {
  return (text) => {
    const match = pattern.exec(text);
    if (!match) return {};
    return { [first]: toNumber(match[1]), [second]: toNumber(match[2]) };
  };
}

function single(pattern: RegExp, field: keyof ContextLengthFigures): FigureReader {
  return (text) => {
    const match = pattern.exec(text);
    return match ? { [field]: toNumber(match[1]) } : {};
  };
}

function toNumber(digits: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const value = Number(digits.replaceAll(',', ''));
  return Number.isSafeInteger(value) ? value : undefined;
}

/** What the walk over an error found. */
interface ErrorFacts {
  /** The first HTTP status met, outermost first. */
  status: number | undefined;
  /** String codes, types and names. */
  codes: string[];
  /** Messages and bodies that were not JSON. */
  texts: string[];
  /** Figures given as fields (llama.cpp's `n_ctx`, `n_prompt_tokens`). */
  fields: ContextLengthFigures;
}

/**
 * Characters of one message or body that are read: the APIs say what went wrong in their first
 * sentences, and reading no further keeps the text patterns' cost bounded whatever an error holds.
 */
const MAX_TEXT_CHARS = 4096;

/** How deep the walk follows nested bodies and causes. */
const MAX_DEPTH = 16;

/** Keys whose values may hold the API's error, its body or the error that caused this one. */
const NESTED_KEYS = [
  'error',
  'message',
  'responseBody',
  'data',
  'body',
  'cause',
  'errors',
  'metadata',
  'raw',
];

function collectFacts(error: unknown): ErrorFacts {
  const facts: ErrorFacts = { status: undefined, codes: [], texts: [], fields: {} };
  visit(error, facts, new Set(), 0);
  return facts;
}

function visit(value: unknown, facts: ErrorFacts, seen: Set<object>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    const parsed = parseJson(value);
    if (typeof parsed === 'object' && parsed !== null) visit(parsed, facts, seen, depth + 1);
    else facts.texts.push(value.slice(0, MAX_TEXT_CHARS));
    return;
  }
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) visit(item, facts, seen, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  const metadata = record.$metadata as Record<string, unknown> | undefined;
  for (const status of [record.status, record.statusCode, record.code, metadata?.httpStatusCode]) {
    if (facts.status === undefined && isHttpStatus(status)) facts.status = status;
  }
  for (const key of ['code', 'type', 'name']) {
    const code = record[key];
    if (typeof code === 'string') facts.codes.push(code);
  }
  if (facts.fields.limit === undefined && isCount(record.n_ctx)) facts.fields.limit = record.n_ctx;
  if (facts.fields.requested === undefined && isCount(record.n_prompt_tokens))
    facts.fields.requested = record.n_prompt_tokens;
  for (const key of NESTED_KEYS) {
    if (key in record) visit(record[key], facts, seen, depth + 1);
  }
}

function isHttpStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function parseJson(text: string): unknown {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
