import type { StoredToolOutput } from '@ctxkit/context-core';

/** Which part of a stored output to return; every field is optional and they combine. */
export interface ToolOutputQuery {
  /**
   * First line to return, 1-based.
   * @default 1
   */
  startLine?: number;
  /**
   * Last line to return, 1-based and inclusive.
   * @default the last line
   */
  endLine?: number;
  /**
   * Only lines matching this regular expression, in RE2 syntax (case-sensitive unless it starts
   * with `(?i)`, at most 256 characters). RE2 is JavaScript's syntax without backreferences or
   * lookaround, and writes a code point as `\x{e9}` rather than `\u00e9`.
   * @default every line
   */
  grep?: string;
  /**
   * A JSON path into the output (`$.items[0].name`, `$.items[*].id`, `$['a key']`).
   * @default the whole output
   */
  jsonPath?: string;
  /**
   * At most this many characters of text.
   * @default all of it
   */
  maxChars?: number;
}

/** What a query returned: the selected text of a stored output, and how it was selected. */
export interface ToolOutputSlice extends StoredToolOutput {
  /** The selected text (the whole output, byte for byte, for an empty query). */
  text: string;
  /** Characters of the whole output. */
  totalChars: number;
  /** Lines of the whole output. */
  totalLines: number;
  /** Lines matched or selected before any character cap. */
  matchedLines: number;
  /** Whether `text` was cut short by `maxChars`, or grep stopped at its work limit. */
  truncated: boolean;
  /**
   * Set only when grep stopped at its work limit (`GREP_WORK_LIMIT`) before the end of the
   * selection: the last line it searched, numbered as `startLine` numbers them (one before the
   * first selected line when that line alone is over the limit). A query starting at the next
   * line goes on where this one stopped.
   */
  grepStoppedAfterLine?: number;
}
