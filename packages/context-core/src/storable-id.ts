/**
 * Why `id` cannot be stored and read back exactly as written, or `undefined` when it can. Ids
 * (conversation ids, message ids, tool-call ids) go into database columns and request bodies as
 * text: a lone surrogate has no UTF-8 form (it would read back as U+FFFD), and PostgreSQL's text
 * cannot hold U+0000.
 *
 * @param id - the id
 * @returns the problem, with the index where it was found, or `undefined`
 */
export function unstorableIdProblem(id: string): string | undefined {
  const nul = id.indexOf('\u0000');
  if (nul >= 0) return `has U+0000 at index ${nul}, which a text column cannot hold`;
  const lone = LONE_SURROGATE.exec(id);
  if (lone !== null) return `has a lone surrogate at index ${lone.index}, which has no UTF-8 form`;
  return undefined;
}

// --- internal helpers ---

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
