import type { AgentInputItem } from '@openai/agents-core';
import fc from 'fast-check';

/** JSON data without -0 (which JSON text cannot keep), as items hold it. */
const json: fc.Arbitrary<unknown> = fc
  .jsonValue({ maxDepth: 2 })
  .map((value) => JSON.parse(JSON.stringify(value)));
const key = fc.string({
  unit: fc.constantFrom('a', 'b', 'c', 'd', '_'),
  minLength: 1,
  maxLength: 6,
});
const providerData = fc.dictionary(key, json, { maxKeys: 3, noNullPrototype: true });
const text = fc.string({ maxLength: 40 });
const id = fc.string({
  unit: fc.constantFrom('a', 'b', '1', '2', '_'),
  minLength: 1,
  maxLength: 8,
});
const status = fc.constantFrom('in_progress', 'completed', 'incomplete');
const cacheBreakpoint = fc.constant({ mode: 'explicit' as const });
const imageUrl = fc.constantFrom('https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo=');

/** Fields every item and content part may have, or not. */
function withOptional<T extends object>(
  required: fc.Arbitrary<T>,
  optional: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<T> {
  return fc
    .tuple(required, fc.record(optional, { requiredKeys: [], noNullPrototype: true }))
    .map(([base, extra]) => ({ ...base, ...extra }));
}

const inputText = withOptional(
  fc.record({ type: fc.constant('input_text'), text }, { noNullPrototype: true }),
  {
    providerData,
    promptCacheBreakpoint: cacheBreakpoint,
  },
);
const inputImage = withOptional(
  fc.record({ type: fc.constant('input_image') }, { noNullPrototype: true }),
  {
    image: fc.oneof(imageUrl, fc.record({ id }, { noNullPrototype: true })),
    detail: fc.constantFrom('low', 'high', 'auto'),
    providerData,
  },
);
const inputFile = withOptional(
  fc.record({ type: fc.constant('input_file') }, { noNullPrototype: true }),
  {
    file: fc.oneof(
      fc.constantFrom('data:application/pdf;base64,JVBERi0=', 'data:image/png;base64,iVBORw0KGgo='),
      fc.record({ id }, { noNullPrototype: true }),
      fc.record({ url: imageUrl }, { noNullPrototype: true }),
    ),
    filename: fc.constant('report.pdf'),
    providerData,
  },
);
const audio = withOptional(
  fc.record(
    { type: fc.constant('audio'), audio: fc.constant('UklGRg==') },
    { noNullPrototype: true },
  ),
  {
    format: fc.constantFrom('wav', null),
    transcript: fc.option(text),
  },
);

const itemBase = { id, providerData };

const userMessage = withOptional(
  fc.record(
    {
      role: fc.constant('user'),
      content: fc.oneof(
        text,
        fc.array(fc.oneof(inputText, inputImage, inputFile, audio), { maxLength: 4 }),
      ),
    },
    { noNullPrototype: true },
  ),
  { ...itemBase, type: fc.constant('message') },
);
const systemMessage = withOptional(
  fc.record({ role: fc.constant('system'), content: text }, { noNullPrototype: true }),
  {
    ...itemBase,
    type: fc.constant('message'),
  },
);
const assistantMessage = withOptional(
  fc.record(
    {
      role: fc.constant('assistant'),
      status,
      content: fc.array(
        fc.oneof(
          withOptional(fc.record({ type: fc.constant('output_text'), text }), { providerData }),
          withOptional(fc.record({ type: fc.constant('refusal'), refusal: text }), {
            providerData,
          }),
          audio,
          fc.record({ type: fc.constant('image'), image: imageUrl }),
        ),
        { maxLength: 3 },
      ),
    },
    { noNullPrototype: true },
  ),
  {
    ...itemBase,
    type: fc.constant('message'),
    phase: fc.constantFrom('commentary', 'final_answer'),
  },
);
const reasoning = withOptional(
  fc.record(
    {
      type: fc.constant('reasoning'),
      content: fc.array(fc.record({ type: fc.constant('input_text'), text }), { maxLength: 2 }),
    },
    { noNullPrototype: true },
  ),
  {
    id,
    providerData: fc.oneof(
      providerData,
      fc.record({ encryptedContent: fc.constant('gAAAAB...sealed') }, { noNullPrototype: true }),
    ),
    rawContent: fc.array(
      fc.record({ type: fc.constant('reasoning_text'), text }, { noNullPrototype: true }),
      {
        maxLength: 2,
      },
    ),
  },
);
const hostedCall = withOptional(
  fc.record(
    {
      type: fc.constant('hosted_tool_call'),
      name: fc.constantFrom('web_search_call', 'file_search'),
    },
    { noNullPrototype: true },
  ),
  { ...itemBase, arguments: text, status: fc.constant('completed'), output: text },
);
const otherItems = fc.oneof(
  fc.record(
    { type: fc.constant('compaction'), encrypted_content: fc.constant('enc') },
    { noNullPrototype: true },
  ),
  withOptional(fc.record({ type: fc.constant('unknown') }, { noNullPrototype: true }), itemBase),
  fc.record(
    {
      type: fc.constant('computer_call'),
      callId: id,
      status,
      action: fc.constant({ type: 'screenshot' }),
    },
    { noNullPrototype: true },
  ),
);

const toolOutputImage = fc.oneof(
  imageUrl,
  fc.record({ url: imageUrl }, { noNullPrototype: true }),
  fc.record({ fileId: id }, { noNullPrototype: true }),
  withOptional(
    fc.record(
      {
        data: fc.oneof(fc.constant('iVBORw0KGgo='), fc.constant(new Uint8Array([137, 80, 78, 71]))),
      },
      { noNullPrototype: true },
    ),
    {
      mediaType: fc.constant('image/png'),
    },
  ),
);
const outputPiece = fc.oneof(
  withOptional(fc.record({ type: fc.constant('text'), text }, { noNullPrototype: true }), {
    providerData,
  }),
  withOptional(fc.record({ type: fc.constant('image') }, { noNullPrototype: true }), {
    image: toolOutputImage,
    detail: fc.constantFrom('low', 'high'),
    providerData,
  }),
  fc.record(
    {
      type: fc.constant('file'),
      file: fc.oneof(
        fc.record({ id }),
        fc.record({ url: imageUrl, filename: fc.constant('a.txt') }),
        fc.constantFrom(
          'data:application/pdf;base64,JVBERi0=',
          'data:image/png;base64,iVBORw0KGgo=',
        ),
        fc.record({
          data: fc.constant('JVBERi0='),
          mediaType: fc.constant('application/pdf'),
          filename: fc.constant('report.pdf'),
        }),
      ),
    },
    { noNullPrototype: true },
  ),
);
const outputArrayPiece = fc.oneof(inputText, inputImage, inputFile);
const toolOutput = fc.oneof(
  text,
  outputPiece,
  fc.array(fc.oneof(outputPiece, outputArrayPiece), { maxLength: 3 }),
);

/** A function call and its result, with call id `callId`. */
function toolPair(callId: string): fc.Arbitrary<AgentInputItem[]> {
  return fc
    .tuple(
      withOptional(
        fc.record(
          {
            type: fc.constant('function_call'),
            callId: fc.constant(callId),
            name: key,
            arguments: fc.oneof(text, fc.constant('{"q":1}')),
          },
          { noNullPrototype: true },
        ),
        { ...itemBase, status, namespace: key },
      ),
      withOptional(
        fc.record(
          {
            type: fc.constant('function_call_result'),
            callId: fc.constant(callId),
            name: key,
            status,
            output: toolOutput,
          },
          { noNullPrototype: true },
        ),
        { ...itemBase, namespace: key },
      ),
    )
    .map((pair) => pair as unknown as AgentInputItem[]);
}

/**
 * Random Agents SDK input: messages of every role and content kind, function calls each followed
 * by its result, reasoning (some sealed), hosted tool calls and other items ctxkit has no part for.
 */
export const arbitraryItems: fc.Arbitrary<AgentInputItem[]> = fc
  .array(
    fc.oneof(
      fc
        .oneof(userMessage, systemMessage, assistantMessage, reasoning, hostedCall, otherItems)
        .map((item) => [item as unknown as AgentInputItem]),
      fc.constant('pair' as const),
    ),
    { maxLength: 12 },
  )
  .chain((units) =>
    fc.tuple(
      ...units.map((unit, index) =>
        unit === 'pair' ? toolPair(`call_${index}`) : fc.constant(unit),
      ),
    ),
  )
  .map((units) => units.flat().map((item) => plain(item)));

/** `value` rebuilt from plain objects and arrays (fast-check makes some without a prototype). */
function plain<T>(value: T): T {
  if (Array.isArray(value)) return value.map((entry) => plain(entry)) as T;
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, entry]) => [name, plain(entry)]),
  ) as T;
}
