import fc from 'fast-check';
import type {
  AnthropicAssistantBlock,
  AnthropicCacheControl,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolResultContentBlock,
  AnthropicUserBlock,
  OpenAIChatMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
  OpenAIChatUserPart,
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

/** Base64 data, never empty. */
const base64 = fc.base64String({ minLength: 4, maxLength: 40 });

const imageUrl = fc.constantFrom('https://example.org/cat.png', 'https://cdn.example.com/a/b.jpg');

/**
 * Valid OpenAI chat `messages` in the form `toOpenAIChat` writes: `system` instructions, a lone
 * text as a string (several parts, or any image, audio or file, as parts), `content: null` or
 * text beside tool calls, `arguments` as compact JSON or as text that is not JSON, one tool
 * message per call with a string or text parts, answered in any order.
 */
export function arbitraryOpenAIChat(): fc.Arbitrary<OpenAIChatMessage[]> {
  const textPart = anyText.map((text): OpenAIChatTextPart => ({ type: 'text', text }));
  const textParts = fc.array(textPart, { minLength: 2, maxLength: 3 });
  const content = fc.oneof(anyText, textParts);
  const mediaPart: fc.Arbitrary<OpenAIChatUserPart> = fc.oneof(
    fc
      .record({
        url: fc.oneof(
          imageUrl,
          fc
            .tuple(fc.constantFrom('image/png', 'image/jpeg', 'image/webp'), base64)
            .map(([type, data]) => `data:${type};base64,${data}`),
        ),
        detail: fc.option(fc.constantFrom('auto' as const, 'low' as const, 'high' as const), {
          nil: undefined,
        }),
      })
      .map(({ url, detail }) => ({
        type: 'image_url' as const,
        image_url: detail === undefined ? { url } : { url, detail },
      })),
    fc
      .record({
        data: base64,
        filename: fc.option(fc.constantFrom('a.pdf', 'report 2.pdf'), { nil: undefined }),
      })
      .map(({ data, filename }) => ({
        type: 'file' as const,
        file: {
          file_data: `data:application/pdf;base64,${data}`,
          ...(filename === undefined ? {} : { filename }),
        },
      })),
    fc
      .record({ data: base64, format: fc.constantFrom('wav' as const, 'mp3' as const) })
      .map((input_audio) => ({ type: 'input_audio' as const, input_audio })),
  );
  const userContent = fc.oneof(
    anyText,
    textParts,
    fc
      .tuple(
        fc.array(textPart, { maxLength: 2 }),
        fc.array(mediaPart, { minLength: 1, maxLength: 2 }),
      )
      .map(([texts, media]) => [...texts, ...media]),
  );
  const call = fc.record({
    name: fc.constantFrom('read_file', 'get_logs', 'search'),
    arguments: fc.oneof(
      { weight: 4, arbitrary: jsonObject.map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: notJson },
    ),
    output: fc.oneof(anyText, fc.array(textPart, { minLength: 1, maxLength: 3 })),
  });
  const step = fc.oneof(
    fc.record({ kind: fc.constant('user' as const), content: userContent }),
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
      if (item.kind === 'user') {
        messages.push({ role: 'user', content: item.content });
        continue;
      }
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
        messages.push({ role: 'tool', tool_call_id: answer.toolCall.id, content: answer.output });
      }
    }
    return messages;
  });
}

/**
 * Valid Anthropic requests in the form `toAnthropic` writes: an optional system (string or text
 * blocks), alternating turns from the user (text, images and documents of every source), assistant
 * blocks of every kind (server tools with their results), every `tool_use` answered in the next
 * user turn (results in any order, before any other block), results with string content, blocks
 * or none, `is_error` absent, true or false, cache control here and there, and no trailing
 * whitespace at the end.
 */
export function arbitraryAnthropic(): fc.Arbitrary<AnthropicRequest> {
  const cacheControl = fc.option(
    fc.constantFrom<AnthropicCacheControl>({ type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }),
    { nil: undefined, freq: 3 },
  );
  const cached = <B extends object>(block: fc.Arbitrary<B>) =>
    fc
      .tuple(block, cacheControl)
      .map(([value, control]) =>
        control === undefined ? value : { ...value, cache_control: control },
      );
  const textBlock = cached(visibleText.map((text): AnthropicTextBlock => ({ type: 'text', text })));
  const image = cached(
    fc.oneof(
      fc.tuple(fc.constantFrom('image/png', 'image/gif'), base64).map(
        ([media_type, data]): AnthropicImageBlock => ({
          type: 'image',
          source: { type: 'base64', media_type, data },
        }),
      ),
      imageUrl.map((url): AnthropicImageBlock => ({ type: 'image', source: { type: 'url', url } })),
    ),
  );
  const document = cached(
    fc
      .tuple(
        fc.oneof(
          base64.map((data) => ({ type: 'base64' as const, media_type: 'application/pdf', data })),
          fc.constant({ type: 'url' as const, url: 'https://example.org/spec.pdf' }),
          fc
            .constantFrom(...TEXTS)
            .map((data) => ({ type: 'text' as const, media_type: 'text/plain', data })),
        ),
        fc.option(fc.constantFrom('spec.pdf', 'notes'), { nil: undefined }),
      )
      .map(
        ([source, title]): AnthropicDocumentBlock =>
          title === undefined ? { type: 'document', source } : { type: 'document', source, title },
      ),
  );
  const userBlock = fc.oneof({ weight: 3, arbitrary: textBlock }, image, document);
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
    cached(
      fc.record({
        type: fc.constant('tool_use' as const),
        name: fc.constantFrom('read_file', 'run'),
        input: jsonObject,
      }),
    ),
    cached(
      fc.record({
        type: fc.constant('server_tool_use' as const),
        name: fc.constantFrom('web_search', 'code_execution'),
        input: jsonObject,
        result: fc.jsonValue({ maxDepth: 2 }),
      }),
    ),
  );
  const resultItem: fc.Arbitrary<AnthropicToolResultContentBlock> = fc.oneof(
    { weight: 2, arbitrary: textBlock },
    image,
    document,
  );
  const result = fc.record({
    output: fc.option(fc.oneof(visibleText, fc.array(resultItem, { minLength: 1, maxLength: 3 })), {
      nil: undefined,
    }),
    isError: fc.option(fc.boolean(), { nil: undefined }),
    cacheControl,
  });
  const turn = fc.record({
    user: fc.oneof(visibleText, fc.array(userBlock, { minLength: 0, maxLength: 3 })),
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
          const { output, isError, cacheControl: control } = spec.results[index] ?? {};
          const content = output ?? (isError ? 'failed' : undefined);
          return {
            type: 'tool_result',
            tool_use_id: id,
            ...(content === undefined ? {} : { content }),
            ...(isError === undefined ? {} : { is_error: isError }),
            ...(control === undefined ? {} : { cache_control: control }),
          };
        });
        if (results.length > 0) {
          const rest = typeof spec.user === 'string' ? [] : spec.user;
          messages.push({ role: 'user', content: [...results, ...rest] as AnthropicUserBlock[] });
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
          .slice(0, 3)
          .flatMap((block): AnthropicAssistantBlock[] => {
            if (block.type === 'tool_use') return [{ ...block, id: `toolu_${next++}` }];
            if (block.type !== 'server_tool_use') return [block];
            const { result: content, ...call } = block;
            const id = `srvtoolu_${next++}`;
            return [
              { ...call, id },
              { type: `${call.name}_tool_result`, tool_use_id: id, content },
            ];
          });
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
