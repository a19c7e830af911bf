import type { ToolOutputContentPart, ToolResultOutput } from '@ctxkit/context-core';
import { parseOffloadHeader } from './offload-header.js';

/** The shape of a tool output: text, JSON data, or content parts. */
export type ToolOutputShape = 'text' | 'json' | 'content';

/** What of one tool output goes to a store, and how a placeholder takes its place. */
export interface OffloadableOutput {
  /** The output's shape. */
  shape: ToolOutputShape;
  /** The text stored: what `get_tool_output` reads back. */
  text: string;
  /** The text that leaves the message, as the model is sent it, each piece counted on its own. */
  sent: readonly string[];
  /** The output with `placeholder` in place of what is stored. */
  replaceWith(placeholder: string): ToolResultOutput;
}

/**
 * What offloading `output` would store and replace, or `undefined` when it holds nothing to
 * offload (a content output without text) or carries an offload header already.
 *
 * - A string is stored as it is and replaced by the placeholder.
 * - A JSON output is stored as the JSON text of its value, indented by two spaces as
 *   `get_tool_output` prints JSON, so that line ranges and grep pick out single fields; it is
 *   replaced by the placeholder, a string.
 * - A content output has its text items stored, joined by line breaks; the placeholder takes the
 *   place of the first text item, the other text items go, and its images and files stay where
 *   they were, untouched: the retrieval tool reads text, so they could not be read back, and an
 *   image or file is never cut.
 */
export function offloadableOutput(output: ToolResultOutput): OffloadableOutput | undefined {
  if (typeof output === 'string') {
    if (parseOffloadHeader(output) !== undefined) return undefined;
    return {
      shape: 'text',
      text: output,
      sent: [output],
      replaceWith: (placeholder) => placeholder,
    };
  }
  if (output.type === 'json') {
    const compact = JSON.stringify(output.value) ?? 'null';
    return {
      shape: 'json',
      text: JSON.stringify(output.value, null, 2) ?? 'null',
      sent: [compact],
      replaceWith: (placeholder) => placeholder,
    };
  }
  const texts = output.value.flatMap((item) => (item.type === 'text' ? [item.text] : []));
  const [first] = texts;
  if (first === undefined || parseOffloadHeader(first) !== undefined) return undefined;
  return {
    shape: 'content',
    text: texts.join('\n'),
    sent: texts,
    replaceWith: (placeholder) => ({
      type: 'content',
      value: replaceText(output.value, placeholder),
    }),
  };
}

// --- internal helpers ---

/** The items with the first text item's text set to `placeholder`, the other text items left out. */
function replaceText(
  items: readonly ToolOutputContentPart[],
  placeholder: string,
): ToolOutputContentPart[] {
  let placed = false;
  const kept: ToolOutputContentPart[] = [];
  for (const item of items) {
    if (item.type !== 'text') kept.push(item);
    else if (!placed) {
      kept.push({ ...item, text: placeholder });
      placed = true;
    }
  }
  return kept;
}
