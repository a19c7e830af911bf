import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import fc from 'fast-check';

/**
 * JSON data of a few levels, as additional_kwargs and metadata hold: as JSON.parse gives it
 * (fast-check's objects have no prototype, which no LangChain message holds).
 */
const jsonValue = fc.jsonValue({ maxDepth: 2 }).map(asParsed);
const jsonObject = fc
  .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
  .map(asParsed) as fc.Arbitrary<Record<string, unknown>>;

function asParsed(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
const text = fc.string({ maxLength: 40 });
const bytes = fc.uint8Array({ minLength: 1, maxLength: 16 });
const url = fc.stringMatching(/^[a-z0-9]{1,12}$/).map((name) => `https://example.com/${name}.png`);

/** Optional fields: present with a value, or absent (not `undefined`). */
function maybe<T>(key: string, value: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> {
  return fc.option(value, { nil: undefined }).map((v) => (v === undefined ? {} : { [key]: v }));
}

const extras = fc.record(
  { cache_control: fc.constant({ type: 'ephemeral' }), id: text },
  { requiredKeys: [], noNullPrototype: true },
);

const textBlock = fc
  .tuple(text, extras)
  .map(([value, extra]) => ({ ...extra, type: 'text', text: value }));
const imageBlock = fc.oneof(
  fc
    .tuple(url, maybe('mimeType', fc.constant('image/png')), extras)
    .map(([url, mime, extra]) => ({ ...extra, ...mime, type: 'image', url })),
  fc
    .tuple(fc.oneof(fc.base64String({ minLength: 4, maxLength: 24 }), bytes), extras)
    .map(([data, extra]) => ({ ...extra, type: 'image', data, mimeType: 'image/jpeg' })),
  url.map((url) => ({ type: 'image_url', image_url: url })),
  fc
    .tuple(url, fc.constantFrom('low', 'high', 'auto'))
    .map(([url, detail]) => ({ type: 'image_url', image_url: { url, detail } })),
);
const base64 = fc.base64String({ minLength: 4, maxLength: 24 });
/** A file block: v1 with `mimeType`, v1 by a `data:` URL that names its type, or legacy. */
const fileBlock = fc.oneof(
  fc
    .tuple(base64, maybe('filename', text))
    .map(([data, name]) => ({ ...name, type: 'file', data, mimeType: 'application/pdf' })),
  fc
    .tuple(base64, fc.constantFrom('application/pdf', 'image/png'), maybe('filename', text))
    .map(([data, type, name]) => ({ ...name, type: 'file', url: `data:${type};base64,${data}` })),
  fc
    .tuple(base64, fc.constantFrom('application/pdf', 'image/png'), maybe('metadata', jsonObject))
    .map(([data, type, metadata]) => ({
      ...metadata,
      type: 'file',
      source_type: 'base64',
      data,
      mime_type: type,
    })),
);
const reasoningBlock = fc.oneof(
  text.map((value) => ({ type: 'reasoning', reasoning: value })),
  fc
    .tuple(text, maybe('signature', fc.base64String({ maxLength: 12 })))
    .map(([value, signature]) => ({ type: 'thinking', thinking: value, ...signature })),
  fc.base64String({ maxLength: 12 }).map((data) => ({ type: 'redacted_thinking', data })),
);
/** A block ctxkit has no part for (a server tool call, a citation): carried as opaque. */
const unknownBlock = fc
  .tuple(fc.constantFrom('server_tool_call', 'citation', 'tool_use'), jsonObject)
  .map(([type, rest]) => ({ ...rest, type }));

const userContent = fc.oneof(
  text,
  fc.array(fc.oneof(textBlock, imageBlock, fileBlock, unknownBlock), {
    minLength: 1,
    maxLength: 4,
  }),
);
const aiBlocks = fc.array(fc.oneof(textBlock, reasoningBlock, imageBlock, unknownBlock), {
  maxLength: 4,
});

const common = fc
  .tuple(
    maybe('id', fc.uuid()),
    maybe('name', fc.stringMatching(/^[a-z_]{1,8}$/)),
    maybe('additional_kwargs', jsonObject),
    maybe('response_metadata', jsonObject),
  )
  .map((fields) => Object.assign({}, ...fields) as Record<string, unknown>);

function hasId<T extends { id?: string }>(call: T): call is T & { id: string } {
  return call.id !== undefined;
}

interface Turn {
  human: BaseMessage;
  ai: BaseMessage;
  tools: BaseMessage[];
}

/** One turn: a human message, an AI message with 0 to 2 tool calls, and their results. */
function turn(index: number): fc.Arbitrary<Turn> {
  const call = (n: number) =>
    fc
      .tuple(fc.stringMatching(/^[a-z_]{1,10}$/), jsonObject, fc.boolean(), fc.nat(9))
      .map(([name, args, typed, dice]) => ({
        // Now and then a call without an id, which no result can answer.
        ...(dice === 0 ? {} : { id: `call_${index}_${n}` }),
        name,
        args,
        ...(typed ? { type: 'tool_call' as const } : {}),
      }));
  const result = (toolCall: { id: string }) =>
    fc
      .tuple(
        fc.oneof(
          text,
          fc.array(fc.oneof(textBlock, imageBlock), { minLength: 1, maxLength: 2 }),
          fc.array(fc.oneof(textBlock, unknownBlock), { minLength: 1, maxLength: 2 }),
        ),
        common,
        maybe('status', fc.constantFrom('success', 'error')),
        maybe('artifact', jsonValue),
        maybe('metadata', jsonObject),
      )
      .map(
        ([content, fields, status, artifact, metadata]) =>
          new ToolMessage({
            ...fields,
            ...status,
            ...artifact,
            ...metadata,
            content: content as string,
            tool_call_id: toolCall.id,
          }),
      );
  return fc
    .tuple(
      userContent,
      common,
      fc.oneof(text, aiBlocks),
      common,
      fc.array(fc.nat(), { maxLength: 2 }).chain((ns) => fc.tuple(...ns.map((_, n) => call(n)))),
      maybe(
        'usage_metadata',
        fc.record(
          { input_tokens: fc.nat(), output_tokens: fc.nat(), total_tokens: fc.nat() },
          { noNullPrototype: true },
        ),
      ),
    )
    .chain(([humanContent, humanFields, aiContent, aiFields, calls, usage]) =>
      fc.tuple(...calls.filter(hasId).map(result)).map((tools) => ({
        human: new HumanMessage({ ...humanFields, content: humanContent as string }),
        ai: new AIMessage({
          ...aiFields,
          ...usage,
          content: aiContent as string,
          ...(calls.length === 0 ? {} : { tool_calls: calls }),
        }),
        tools,
      })),
    );
}

/** A well-formed LangChain history: maybe a system message, then 1 to 4 turns. */
export const langchainHistory: fc.Arbitrary<BaseMessage[]> = fc
  .tuple(
    fc.option(
      fc
        .oneof(text, fc.array(textBlock, { minLength: 1, maxLength: 2 }))
        .map((content) => new SystemMessage({ content: content as string })),
      { nil: undefined },
    ),
    fc
      .integer({ min: 1, max: 4 })
      .chain((turns) => fc.tuple(...Array.from({ length: turns }, (_, index) => turn(index)))),
  )
  .map(([system, turns]) => [
    ...(system === undefined ? [] : [system]),
    ...turns.flatMap((t) => [t.human, t.ai, ...t.tools]),
  ]);
