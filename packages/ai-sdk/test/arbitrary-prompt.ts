import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  SharedV4FileData,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import fc from 'fast-check';

// Random language-model prompts (LanguageModelV4Prompt) with every part and output the spec has,
// optional fields present or absent, tool calls answered in the next tool message, provider-
// executed calls answered in their own message, and now and then a result without its call.

const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<never>;

const providerOptions: fc.Arbitrary<SharedV4ProviderOptions> = fc.dictionary(
  fc.constantFrom('anthropic', 'openai', 'google', 'ctxkit'),
  fc.dictionary(fc.constantFrom('cacheControl', 'signature', 'itemId', 'note'), json, {
    maxKeys: 2,
    noNullPrototype: true,
  }),
  { maxKeys: 2, noNullPrototype: true },
);

/** `{ ...fields, providerOptions? }` with the options absent or present. */
function withOptions<T extends object>(fields: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc
    .tuple(fields, fc.option(providerOptions, { nil: undefined }))
    .map(([part, options]) =>
      options === undefined ? part : { ...part, providerOptions: options },
    );
}

const bytes = fc.uint8Array({ maxLength: 12 });
const url = fc.webUrl().map((address) => new URL(address));

const fileData: fc.Arbitrary<SharedV4FileData> = fc.oneof(
  fc.record(
    { type: fc.constant('data' as const), data: fc.oneof(bytes, fc.base64String()) },
    { noNullPrototype: true },
  ),
  fc.record({ type: fc.constant('url' as const), url }, { noNullPrototype: true }),
  fc.record(
    { type: fc.constant('url' as const), url, originalUrl: fc.webUrl() },
    { noNullPrototype: true },
  ),
  fc.record(
    {
      type: fc.constant('reference' as const),
      reference: fc.constant({ openai: 'file-1' }),
    },
    { noNullPrototype: true },
  ),
  fc.record({ type: fc.constant('text' as const), text: fc.string() }, { noNullPrototype: true }),
);

const text = withOptions(
  fc.record({ type: fc.constant('text' as const), text: fc.string() }, { noNullPrototype: true }),
);
const file = withOptions(
  fc.record(
    {
      type: fc.constant('file' as const),
      data: fileData,
      mediaType: fc.constantFrom('image/png', 'application/pdf', 'text/plain'),
      filename: fc.string({ maxLength: 8 }),
    },
    { requiredKeys: ['type', 'data', 'mediaType'], noNullPrototype: true },
  ),
);
const reasoning = withOptions(
  fc.record(
    { type: fc.constant('reasoning' as const), text: fc.string() },
    { noNullPrototype: true },
  ),
);
const custom = withOptions(
  fc.record(
    {
      type: fc.constant('custom' as const),
      kind: fc.constant('openai.compaction' as const),
    },
    { noNullPrototype: true },
  ),
);
const reasoningFile = withOptions(
  fc.record(
    {
      type: fc.constant('reasoning-file' as const),
      data: fc.oneof(
        fc.record({ type: fc.constant('data' as const), data: bytes }, { noNullPrototype: true }),
        fc.record({ type: fc.constant('url' as const), url }, { noNullPrototype: true }),
      ),
      mediaType: fc.constant('image/png'),
    },
    { noNullPrototype: true },
  ),
);

const output: fc.Arbitrary<LanguageModelV4ToolResultOutput> = fc.oneof(
  withOptions(
    fc.record(
      { type: fc.constant('text' as const), value: fc.string() },
      { noNullPrototype: true },
    ),
  ),
  withOptions(
    fc.record({ type: fc.constant('json' as const), value: json }, { noNullPrototype: true }),
  ),
  withOptions(
    fc.record(
      { type: fc.constant('error-text' as const), value: fc.string() },
      { noNullPrototype: true },
    ),
  ),
  withOptions(
    fc.record({ type: fc.constant('error-json' as const), value: json }, { noNullPrototype: true }),
  ),
  withOptions(
    fc.record(
      { type: fc.constant('execution-denied' as const), reason: fc.string() },
      { requiredKeys: ['type'], noNullPrototype: true },
    ),
  ),
  fc.record(
    {
      type: fc.constant('content' as const),
      value: fc.array(
        fc.oneof(
          text,
          withOptions(
            fc.record(
              {
                type: fc.constant('file' as const),
                data: fileData,
                mediaType: fc.constant('image/png'),
                filename: fc.string({ maxLength: 8 }),
              },
              { requiredKeys: ['type', 'data', 'mediaType'], noNullPrototype: true },
            ),
          ),
          withOptions(
            fc.record({ type: fc.constant('custom' as const) }, { noNullPrototype: true }),
          ),
        ),
        { maxLength: 3 },
      ),
    },
    { noNullPrototype: true },
  ),
);

function withMessageOptions(message: fc.Arbitrary<LanguageModelV4Message>) {
  return withOptions(message) as fc.Arbitrary<LanguageModelV4Message>;
}

const system = withMessageOptions(
  fc.record(
    { role: fc.constant('system' as const), content: fc.string() },
    { noNullPrototype: true },
  ),
);
const user = withMessageOptions(
  fc.record(
    {
      role: fc.constant('user' as const),
      content: fc.array(fc.oneof(text, file), { minLength: 1, maxLength: 3 }),
    },
    { noNullPrototype: true },
  ),
);

/** An assistant message with `calls` tool calls, then the tool message that answers them. */
const toolTurn = fc
  .record({
    before: fc.array(fc.oneof(text, reasoning, custom, reasoningFile, file), { maxLength: 2 }),
    calls: fc.array(
      fc.record(
        {
          toolName: fc.constantFrom('read', 'search'),
          input: json,
          providerExecuted: fc.option(fc.boolean(), { nil: undefined }),
          output,
          options: fc.option(providerOptions, { nil: undefined }),
        },
        { noNullPrototype: true },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    approval: fc.option(
      fc.record({ approved: fc.boolean(), reason: fc.string() }, { noNullPrototype: true }),
      {
        nil: undefined,
      },
    ),
    messageOptions: fc.option(providerOptions, { nil: undefined }),
  })
  .map(({ before, calls, approval, messageOptions }) => (id: () => string) => {
    const assistant: unknown[] = [...before];
    const results: unknown[] = [];
    for (const call of calls) {
      const toolCallId = id();
      const options = call.options === undefined ? {} : { providerOptions: call.options };
      assistant.push({
        type: 'tool-call',
        toolCallId,
        toolName: call.toolName,
        input: call.input,
        ...(call.providerExecuted === undefined ? {} : { providerExecuted: call.providerExecuted }),
        ...options,
      });
      const result = {
        type: 'tool-result',
        toolCallId,
        toolName: call.toolName,
        output: call.output,
        ...options,
      };
      if (call.providerExecuted === true) assistant.push(result);
      else results.push(result);
    }
    if (approval !== undefined) {
      results.push({ type: 'tool-approval-response', approvalId: id(), ...approval });
    }
    const messages = [
      {
        role: 'assistant',
        content: assistant,
        ...(messageOptions ? { providerOptions: messageOptions } : {}),
      },
    ];
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    return messages as LanguageModelV4Message[];
  });

/** A tool message whose result answers no call. */
const orphan = output.map((value) => (id: () => string) => [
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id(), toolName: 'read', output: value }],
  } as LanguageModelV4Message,
]);

const turn = fc.oneof(
  { weight: 3, arbitrary: user.map((message) => () => [message]) },
  { weight: 3, arbitrary: toolTurn },
  { weight: 1, arbitrary: orphan },
  {
    weight: 1,
    arbitrary: withMessageOptions(
      fc.record(
        {
          role: fc.constant('assistant' as const),
          content: fc.array(fc.oneof(text, reasoning, file, custom), {
            minLength: 1,
            maxLength: 3,
          }),
        },
        { noNullPrototype: true },
      ),
    ).map((message) => () => [message]),
  },
);

/** A random language-model prompt: an optional system message, then turns. */
export const arbitraryPrompt: fc.Arbitrary<LanguageModelV4Prompt> = fc
  .tuple(fc.array(system, { maxLength: 2 }), fc.array(turn, { maxLength: 8 }))
  .map(([systems, turns]) => {
    let next = 0;
    const id = () => {
      next += 1;
      return `call-${next}`;
    };
    return [...systems, ...turns.flatMap((make) => make(id))];
  });
