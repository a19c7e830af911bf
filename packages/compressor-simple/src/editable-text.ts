import {
  type JsonToolOutput,
  type Message,
  type Part,
  type ToolResultOutput,
  toolOutputText,
} from '@ctxkit/context-core';

/**
 * Whether strategies may edit the tool outputs of `message`: those of tool messages. The result
 * of a provider-executed call sits in the assistant message that makes the call, and the provider
 * reads it back in its own form: it is kept whole, like the call.
 */
export function editsToolOutputs(message: Message): boolean {
  return message.role === 'tool';
}

/** The JSON text of a JSON tool output: what a strategy cuts when the output must shrink. */
export function jsonOutputText(output: JsonToolOutput): string {
  let text = jsonTexts.get(output);
  if (text === undefined) {
    text = toolOutputText(output);
    jsonTexts.set(output, text);
  }
  return text;
}

/**
 * Characters of a tool output that strategies may cut: a string's, the JSON text of a JSON
 * output, the text items of a content output (its images and files are no characters).
 */
export function outputChars(output: ToolResultOutput): number {
  if (typeof output === 'string') return output.length;
  if (output.type === 'json') return jsonOutputText(output).length;
  let total = 0;
  for (const item of output.value) if (item.type === 'text') total += item.text.length;
  return total;
}

/**
 * Lengths of the pieces of `message` a truncating strategy may cut, in order: text and the
 * outputs of a tool message's results (a string, the JSON text of a JSON output, each text item
 * of a content output). Tool calls, approvals, images, files, reasoning, opaque parts and
 * provider-executed results are kept or removed whole, never cut.
 */
export function pieceLengths(message: Message): number[] {
  if (typeof message.content === 'string') return [message.content.length];
  const tools = editsToolOutputs(message);
  const lengths: number[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        lengths.push(part.text.length);
        break;
      case 'tool-result': {
        if (!tools) break;
        const output = part.output;
        if (typeof output === 'string') lengths.push(output.length);
        else if (output.type === 'json') lengths.push(jsonOutputText(output).length);
        else
          for (const item of output.value) if (item.type === 'text') lengths.push(item.text.length);
        break;
      }
    }
  }
  return lengths;
}

/**
 * Characters of a reasoning part: its text, redacted data and encrypted content, all sent back as
 * they came. What a character cap weighs before keeping or dropping the part whole.
 */
export function reasoningLength(part: Part): number {
  if (part.type === 'thinking') return part.text.length;
  if (part.type !== 'reasoning') return 0;
  return part.text.length + (part.redactedData?.length ?? 0) + (part.encryptedContent?.length ?? 0);
}

// --- internal helpers ---

/** JSON texts of the JSON outputs seen, so that repeated cuts of one output stringify it once. */
const jsonTexts = new WeakMap<JsonToolOutput, string>();
