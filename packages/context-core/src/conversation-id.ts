import { InvalidOptionError } from './error-families.js';
import { unstorableIdProblem } from './storable-id.js';

/** The longest conversation id taken, in UTF-16 code units. */
export const MAX_CONVERSATION_ID_LENGTH = 1024;

/**
 * Throws unless `conversationId` is a conversation id every part of ctxkit takes: a non-empty
 * string of at most {@link MAX_CONVERSATION_ID_LENGTH} code units, not only white space, without
 * control characters
 * (U+0000 to U+001F, U+007F to U+009F) or lone surrogates, so that it is stored, logged and read
 * back exactly as written. Every function that takes a conversation id (a manager's `fit`, a
 * pipeline's `build`, the stores, the compressors' context, the adapters' options) checks it
 * here, so the rule and the wording are the same everywhere.
 *
 * @param conversationId - the value to check
 * @param source - the package named in the error
 * @param where - the function the caller called, such as `fit` or `getHistory`, named in the
 *   error
 * @throws InvalidOptionError (`invalid_option`) naming the function, the `conversationId`, what
 *   is wrong with it and the fix
 */
export function assertConversationId(
  conversationId: unknown,
  source?: string,
  where?: string,
): asserts conversationId is string {
  const problem = conversationIdProblem(conversationId);
  if (problem === undefined) return;
  throw new InvalidOptionError({
    code: 'invalid_option',
    source,
    message:
      `${where === undefined ? '' : `${where}: `}conversationId must be a conversation id: a ` +
      `non-empty string of at most ${MAX_CONVERSATION_ID_LENGTH} characters, not only white ` +
      `space, without control characters or lone surrogates; ${problem}. Pass your ` +
      "application's id of the conversation.",
    details: {
      ...(where === undefined ? {} : { factory: where }),
      option: 'conversationId',
      conversationId,
    },
  });
}

/**
 * What is wrong with `id` as a conversation id, or `undefined` (for the testing kits, which must
 * generate only ids a store may take).
 *
 * @param id - the value given
 * @returns the problem, or `undefined`
 */
export function conversationIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return `got ${describe(id)}`;
  if (id.length === 0) return 'got an empty string';
  if (id.length > MAX_CONVERSATION_ID_LENGTH) return `got one of ${id.length} characters`;
  if (id.trim() === '') return `got ${JSON.stringify(id)}`;
  for (let index = 0; index < id.length; index += 1) {
    const code = id.charCodeAt(index);
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) {
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      return `got ${JSON.stringify(id)}, with the control character U+${hex} at index ${index}`;
    }
  }
  const unstorable = unstorableIdProblem(id);
  return unstorable === undefined ? undefined : `got ${JSON.stringify(id)}, which ${unstorable}`;
}

// --- internal helpers ---

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'an array';
  return `a value of type ${typeof value}`;
}
