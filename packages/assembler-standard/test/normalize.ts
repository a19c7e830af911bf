import type { Message, Part, TextPart, ToolResultPart } from '@ctxkit/context-core';

// What a ctxkit history becomes after a trip through a wire format and back, written out as the
// documented rules (docs/assembler-standard.md, "Round trips") rather than as the converters are.

/** The input a tool call comes back with from OpenAI: JSON text parsed, other text kept. */
function openAIInput(input: unknown): unknown {
  const text =
    typeof input === 'string' ? input : input === undefined ? '{}' : JSON.stringify(input);
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? text : value;
  } catch {
    return text;
  }
}

/**
 * OpenAI carries roles, text, tool calls and results; it drops thinking, `isError`, ids, meta and
 * counts. One text comes back as a string; an assistant's text comes before its calls; a message
 * with nothing left disappears; each result becomes a tool message of its own.
 */
export function normalizeForOpenAIChat(messages: readonly Message[]): Message[] {
  const output: Message[] = [];
  for (const message of messages) {
    const { role, content } = message;
    if (typeof content === 'string') {
      output.push({ role, content });
      continue;
    }
    if (role === 'tool') {
      for (const part of content) {
        if (part.type !== 'tool-result') continue;
        const { toolCallId, toolName, output: result } = part;
        output.push({
          role,
          content: [{ type: 'tool-result', toolCallId, toolName, output: result }],
        });
      }
      continue;
    }
    const texts: TextPart[] = content.flatMap((part) =>
      part.type === 'text' ? [{ type: 'text', text: part.text }] : [],
    );
    const calls: Part[] = content.flatMap((part): Part[] =>
      part.type === 'tool-call'
        ? [
            {
              type: 'tool-call',
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: openAIInput(part.input),
            },
          ]
        : [],
    );
    if (texts.length === 0 && calls.length === 0) continue;
    if (calls.length === 0 && texts.length === 1)
      output.push({ role, content: (texts[0] as TextPart).text });
    else output.push({ role, content: [...texts, ...calls] });
  }
  return output;
}

/** The input a tool call comes back with from Anthropic: an object, a string's JSON parsed. */
function anthropicInput(input: unknown): unknown {
  return typeof input === 'string' ? JSON.parse(input) : input === undefined ? {} : input;
}

/**
 * Anthropic carries the leading system text (merged into one system message), user and
 * assistant text, signed and redacted thinking, tool calls and results with `isError`; it drops
 * unsigned thinking and thinking outside assistant messages, ids, meta and counts. Consecutive
 * messages of one wire role (tool messages count as user) become one message of parts, split
 * again into a tool message of the results and a user message of the rest; a message alone keeps
 * a string content; a message with nothing left disappears.
 */
export function normalizeForAnthropic(messages: readonly Message[]): Message[] {
  const output: Message[] = [];
  let start = 0;
  while (messages[start]?.role === 'system') start += 1;
  const systems = messages.slice(0, start);
  if (systems.length === 1 && typeof systems[0]?.content === 'string') {
    output.push({ role: 'system', content: systems[0].content });
  } else {
    const texts = systems.flatMap((message): TextPart[] =>
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : message.content.flatMap((part): TextPart[] =>
            part.type === 'text' ? [{ type: 'text', text: part.text }] : [],
          ),
    );
    if (texts.length > 0) output.push({ role: 'system', content: texts });
  }
  const groups: { role: 'user' | 'assistant'; items: Message[] }[] = [];
  for (const message of messages.slice(start)) {
    const kept = carriedByAnthropic(message);
    if (kept === undefined) continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const group = groups[groups.length - 1];
    if (group?.role === role) group.items.push(kept);
    else groups.push({ role, items: [kept] });
  }
  for (const { role, items } of groups) {
    const only = items[0] as Message;
    if (items.length === 1) {
      output.push(only);
      continue;
    }
    const parts = items.flatMap((item): Part[] =>
      typeof item.content === 'string' ? [{ type: 'text', text: item.content }] : item.content,
    );
    if (role === 'assistant') {
      output.push({ role, content: parts });
      continue;
    }
    const results = parts.filter((part): part is ToolResultPart => part.type === 'tool-result');
    const rest = parts.filter((part) => part.type !== 'tool-result');
    if (results.length > 0) output.push({ role: 'tool', content: results });
    if (rest.length > 0) output.push({ role: 'user', content: rest });
  }
  return output;
}

function carriedByAnthropic(message: Message): Message | undefined {
  const { role, content } = message;
  if (typeof content === 'string') return { role, content };
  const parts = content.flatMap((part): Part[] => {
    switch (part.type) {
      case 'text':
        return [{ type: 'text', text: part.text }];
      case 'thinking': {
        if (role !== 'assistant' || !part.signature) return [];
        const redacted = (part as { redacted?: boolean }).redacted === true;
        return [
          redacted
            ? ({ type: 'thinking', text: '', signature: part.signature, redacted: true } as Part)
            : { type: 'thinking', text: part.text, signature: part.signature },
        ];
      }
      case 'tool-call':
        return [
          {
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: anthropicInput(part.input),
          },
        ];
      default: {
        const { toolCallId, toolName, output, isError } = part;
        return [
          {
            type: 'tool-result',
            toolCallId,
            toolName,
            output,
            ...(isError === undefined ? {} : { isError }),
          },
        ];
      }
    }
  });
  return parts.length === 0 ? undefined : { role, content: parts };
}
