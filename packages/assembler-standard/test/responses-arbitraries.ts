import fc from 'fast-check';
import type {
  OpenAIResponsesInputContent,
  OpenAIResponsesItem,
  OpenAIResponsesMessage,
} from '../src/index.js';

// Random Responses API input in the form toOpenAIResponses writes: message items typed
// `message`, assistant messages with an id and output_text parts (a refusal now and then),
// reasoning with an id and non-empty summary paragraphs, compact JSON arguments (or text cut off
// mid-way), `data:` URLs with a media type, and items ctxkit carries as opaque parts.

const text = fc.oneof(
  fc.constantFrom('ok', 'line one\nline two\n', '日志显示内存不足。', '{"status":"running"}', ' '),
  fc.string({ maxLength: 30 }),
);
const nonEmpty = text.filter((value) => value.length > 0);
const base64 = fc
  .uint8Array({ minLength: 1, maxLength: 24 })
  .map((bytes) => Buffer.from(bytes).toString('base64'));
const detail = fc.option(fc.constantFrom<'auto' | 'low' | 'high'>('auto', 'low', 'high'), {
  nil: undefined,
});

const inputImage = fc.oneof(
  fc.record({ data: base64, detail }).map(({ data, detail }) => ({
    type: 'input_image' as const,
    image_url: `data:image/png;base64,${data}`,
    ...(detail ? { detail } : {}),
  })),
  fc.record({ n: fc.nat(99), detail }).map(({ n, detail }) => ({
    type: 'input_image' as const,
    image_url: `https://example.com/shots/${n}.jpg`,
    ...(detail ? { detail } : {}),
  })),
  fc.nat(99).map((n) => ({ type: 'input_image' as const, file_id: `file-img${n}` })),
);
const filename = fc.option(fc.constantFrom('report.pdf', 'notes.txt'), { nil: undefined });
const inputFile = fc.oneof(
  fc.record({ data: base64, filename }).map(({ data, filename }) => ({
    type: 'input_file' as const,
    file_data: `data:application/pdf;base64,${data}`,
    ...(filename ? { filename } : {}),
  })),
  fc.record({ n: fc.nat(99), filename }).map(({ n, filename }) => ({
    type: 'input_file' as const,
    file_url: `https://example.com/files/${n}.pdf`,
    ...(filename ? { filename } : {}),
  })),
  fc.nat(99).map((n) => ({ type: 'input_file' as const, file_id: `file-doc${n}` })),
);
const inputText = text.map((value) => ({ type: 'input_text' as const, text: value }));
const inputContent: fc.Arbitrary<OpenAIResponsesInputContent> = fc.oneof(
  { weight: 3, arbitrary: inputText },
  { weight: 1, arbitrary: inputImage },
  { weight: 1, arbitrary: inputFile },
);

const userMessage = fc.oneof(
  text.map((content): OpenAIResponsesMessage => ({ type: 'message', role: 'user', content })),
  fc
    .array(inputContent, { minLength: 1, maxLength: 3 })
    .map((content): OpenAIResponsesMessage => ({ type: 'message', role: 'user', content })),
);
const systemMessage = fc
  .record({
    role: fc.constantFrom<'system' | 'developer'>('system', 'developer'),
    content: fc.oneof(text, fc.array(inputText, { minLength: 1, maxLength: 2 })),
  })
  .map(({ role, content }): OpenAIResponsesMessage => ({ type: 'message', role, content }));

/** One assistant-side item; `n` makes its ids unique. */
const assistantItem = (n: number): fc.Arbitrary<OpenAIResponsesItem> =>
  fc.oneof(
    fc
      .array(
        fc.oneof(
          { weight: 4, arbitrary: text.map((value) => ({ type: 'output_text', text: value })) },
          {
            weight: 1,
            arbitrary: text.map((value) => ({
              type: 'output_text',
              text: value,
              annotations: [
                {
                  type: 'url_citation',
                  url: 'https://example.com',
                  start_index: 0,
                  end_index: 1,
                  title: 'x',
                },
              ],
            })),
          },
          { weight: 1, arbitrary: nonEmpty.map((value) => ({ type: 'refusal', refusal: value })) },
        ),
        { minLength: 1, maxLength: 2 },
      )
      .map(
        (content) =>
          ({ type: 'message', role: 'assistant', id: `msg_${n}`, content }) as OpenAIResponsesItem,
      ),
    fc
      .record({ summary: fc.array(nonEmpty, { maxLength: 2 }), encrypted: fc.boolean() })
      .map(({ summary, encrypted }) => ({
        type: 'reasoning',
        id: `rs_${n}`,
        summary: summary.map((value) => ({ type: 'summary_text' as const, text: value })),
        ...(encrypted ? { encrypted_content: `gAAAA${n}` } : {}),
      })),
    fc.nat(9).map((query) => ({
      type: 'web_search_call',
      id: `ws_${n}`,
      status: 'completed',
      action: { type: 'search', query: `q${query}` },
    })),
  );

const argumentsText = fc.oneof(
  fc
    .dictionary(fc.constantFrom('path', 'limit', 'q'), fc.jsonValue({ maxDepth: 1 }))
    .map((value) => JSON.stringify(value)),
  fc.constantFrom('{"path": "/srv', 'not json'),
);

/** A step: assistant-side items, function calls, then outputs for some of them. */
const step = (first: number) =>
  fc
    .record({
      before: fc.array(fc.nat(), { maxLength: 3 }),
      calls: fc.array(
        fc.record({
          name: fc.constantFrom('read_file', 'search'),
          args: argumentsText,
          id: fc.boolean(),
        }),
        {
          maxLength: 3,
        },
      ),
      answered: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      outputs: fc.array(
        fc.oneof(text, fc.array(fc.oneof(inputText, inputImage), { minLength: 1, maxLength: 2 })),
        {
          minLength: 3,
          maxLength: 3,
        },
      ),
      trailing: fc.boolean(),
    })
    .chain((spec) =>
      fc.tuple(...spec.before.map((_, at) => assistantItem(first + at))).map((before) => {
        const items: OpenAIResponsesItem[] = [...before];
        spec.calls.forEach((call, at) => {
          items.push({
            type: 'function_call',
            call_id: `call_${first + at}`,
            name: call.name,
            arguments: call.args,
            ...(call.id ? { id: `fc_${first + at}` } : {}),
          });
        });
        spec.calls.forEach((_, at) => {
          if (!spec.answered[at]) return;
          items.push({
            type: 'function_call_output',
            call_id: `call_${first + at}`,
            output: spec.outputs[at] as string | OpenAIResponsesInputContent[],
          });
        });
        if (
          spec.trailing &&
          items.length > 0 &&
          items[items.length - 1]?.type === 'function_call_output'
        ) {
          items.push({ type: 'item_reference', id: `ref_${first}` });
        }
        return items;
      }),
    );

/** Random valid Responses `input` in the written form. */
export function arbitraryOpenAIResponses(): fc.Arbitrary<OpenAIResponsesItem[]> {
  return fc
    .record({
      system: fc.option(systemMessage, { nil: undefined }),
      turns: fc.array(fc.tuple(userMessage, fc.array(fc.constant(0), { maxLength: 2 })), {
        maxLength: 4,
      }),
    })
    .chain(({ system, turns }) => {
      const parts: fc.Arbitrary<OpenAIResponsesItem[]>[] = [];
      let n = 0;
      for (const [user, steps] of turns) {
        parts.push(fc.constant([user]));
        for (const _ of steps) {
          parts.push(step(n));
          n += 10;
        }
      }
      return fc.tuple(...parts).map((chunks) => [...(system ? [system] : []), ...chunks.flat()]);
    });
}
