import fc from 'fast-check';
import type {
  AnthropicAssistantBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicUserBlock,
  OpenAIChatMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
} from '../src/index.js';

const TEXTS = [
  '',
  ' ',
  'ok',
  '  padded  ',
  'line one\nline two\n',
  '日志显示内存不足，服务已重启。',
  '{"status":"running","restarts":2}',
  'emoji 🚀 and tabs\tinside',
];

/** Any text, blank ones included: fixed samples of every kind, and random strings. */
const anyText = fc.oneof(
  fc.constantFrom(...TEXTS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Text with at least one visible character. */
const visibleText = anyText.filter((value) => /\S/.test(value));

const jsonObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
});

const notJson = fc.string({ maxLength: 30 }).filter((value) => {
  try {
    JSON.parse(value);
    return false;
  } catch {
    return true;
  }
});

/**
 * Valid OpenAI chat `messages` in the form `toOpenAIChat` writes: `system` instructions, a lone
 * text as a string (several as parts), `content: null` or text beside tool calls, `arguments` as
 * compact JSON or as text that is not JSON, one tool message per call, answered in any order.
 */
export function arbitraryOpenAIChat(): fc.Arbitrary<OpenAIChatMessage[]> {
  const textParts = fc.array(
    anyText.map((text): OpenAIChatTextPart => ({ type: 'text', text })),
    { minLength: 2, maxLength: 3 },
  );
  const content = fc.oneof(anyText, textParts);
  const call = fc.record({
    name: fc.constantFrom('read_file', 'get_logs', 'search'),
    arguments: fc.oneof(
      { weight: 4, arbitrary: jsonObject.map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: notJson },
    ),
    output: fc.oneof(anyText, textParts),
  });
  const step = fc.oneof(
    fc.record({ kind: fc.constant('user' as const), content }),
    fc.record({ kind: fc.constant('system' as const), content }),
    fc.record({ kind: fc.constant('assistant' as const), content }),
    fc.record({
      kind: fc.constant('tools' as const),
      content: fc.oneof(fc.constant(null), anyText, textParts),
      calls: fc.array(call, { minLength: 1, maxLength: 3 }),
      order: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
    }),
  );
  return fc.array(step, { minLength: 1, maxLength: 8 }).map((steps) => {
    const messages: OpenAIChatMessage[] = [];
    let next = 0;
    for (const item of steps) {
      if (item.kind !== 'tools') {
        messages.push({ role: item.kind, content: item.content });
        continue;
      }
      const toolCalls: OpenAIChatToolCall[] = item.calls.map((spec) => ({
        id: `call_${next++}`,
        type: 'function',
        function: { name: spec.name, arguments: spec.arguments },
      }));
      messages.push({ role: 'assistant', content: item.content, tool_calls: toolCalls });
      const answers = toolCalls.map((toolCall, index) => ({
        toolCall,
        output: item.calls[index]?.output ?? '',
        rank: item.order[index] ?? 0,
      }));
      answers.sort((first, second) => first.rank - second.rank);
      for (const answer of answers) {
        const output = answer.output;
        messages.push({
          role: 'tool',
          tool_call_id: answer.toolCall.id,
          content: typeof output === 'string' ? output : output.map((part) => part.text).join('\n'),
        });
      }
    }
    return messages;
  });
}

/**
 * Valid Anthropic requests in the form `toAnthropic` writes: an optional system (string or text
 * blocks), alternating turns from the user, assistant blocks of every kind, every `tool_use`
 * answered in the next user turn (results in any order, before any text), results with string
 * content or none, `is_error` absent, true or false, and no trailing whitespace at the end.
 */
export function arbitraryAnthropic(): fc.Arbitrary<AnthropicRequest> {
  const textBlock = visibleText.map((text): AnthropicTextBlock => ({ type: 'text', text }));
  const system = fc.option(fc.oneof(anyText, fc.array(textBlock, { minLength: 1, maxLength: 3 })), {
    nil: undefined,
  });
  const assistantBlock = fc.oneof(
    textBlock,
    fc.record({
      type: fc.constant('thinking' as const),
      thinking: anyText,
      signature: fc.base64String({ minLength: 4, maxLength: 24 }),
    }),
    fc.record({
      type: fc.constant('redacted_thinking' as const),
      data: fc.base64String({ minLength: 4, maxLength: 24 }),
    }),
    fc.record({
      type: fc.constant('tool_use' as const),
      name: fc.constantFrom('read_file', 'run'),
      input: jsonObject,
    }),
  );
  const result = fc.record({
    output: fc.option(visibleText, { nil: undefined }),
    isError: fc.option(fc.boolean(), { nil: undefined }),
  });
  const turn = fc.record({
    user: fc.oneof(visibleText, fc.array(textBlock, { minLength: 0, maxLength: 2 })),
    results: fc.array(result, { minLength: 3, maxLength: 3 }),
    order: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
    assistant: fc.oneof(visibleText, fc.array(assistantBlock, { minLength: 1, maxLength: 4 })),
  });
  return fc
    .record({
      system,
      turns: fc.array(turn, { minLength: 1, maxLength: 5 }),
      endWithAssistant: fc.boolean(),
    })
    .map(({ system: systemValue, turns, endWithAssistant }) => {
      const messages: AnthropicMessage[] = [];
      let next = 0;
      let pending: string[] = [];
      turns.forEach((spec, turnIndex) => {
        const answers = pending.map((id, index) => ({ id, rank: spec.order[index] ?? 0, index }));
        answers.sort((first, second) => first.rank - second.rank);
        const results: AnthropicToolResultBlock[] = answers.map(({ id, index }) => {
          const { output, isError } = spec.results[index] ?? {};
          const content = output ?? (isError ? 'failed' : undefined);
          return {
            type: 'tool_result',
            tool_use_id: id,
            ...(content === undefined ? {} : { content }),
            ...(isError === undefined ? {} : { is_error: isError }),
          };
        });
        if (results.length > 0) {
          const texts = typeof spec.user === 'string' ? [] : spec.user;
          messages.push({ role: 'user', content: [...results, ...texts] as AnthropicUserBlock[] });
        } else if (typeof spec.user === 'string' || spec.user.length > 0) {
          messages.push({ role: 'user', content: spec.user });
        } else {
          messages.push({ role: 'user', content: 'Go on.' });
        }
        const last = turnIndex === turns.length - 1;
        if (last && !endWithAssistant) {
          pending = [];
          return;
        }
        if (typeof spec.assistant === 'string') {
          messages.push({
            role: 'assistant',
            content: last ? trimOrKeep(spec.assistant) : spec.assistant,
          });
          pending = [];
          return;
        }
        const blocks: AnthropicAssistantBlock[] = spec.assistant
          .filter((block) => !(last && block.type === 'tool_use'))
          .map((block) => (block.type === 'tool_use' ? { ...block, id: `toolu_${next++}` } : block))
          .slice(0, 3);
        if (blocks.length === 0) blocks.push({ type: 'text', text: 'Done.' });
        const final = blocks[blocks.length - 1];
        if (last && final?.type === 'text')
          blocks[blocks.length - 1] = { ...final, text: trimOrKeep(final.text) };
        messages.push({ role: 'assistant', content: blocks });
        pending = blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
      });
      if (pending.length > 0) {
        messages.push({
          role: 'user',
          content: pending.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' })),
        });
      }
      return systemValue === undefined ? { messages } : { system: systemValue, messages };
    });
}

// --- internal helpers ---

function trimOrKeep(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed.length > 0 ? trimmed : 'Done.';
}
