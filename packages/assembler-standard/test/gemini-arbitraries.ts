import type { JsonValue } from '@ctxkit/context-core';
import fc from 'fast-check';
import type {
  GeminiContent,
  GeminiFunctionCallPart,
  GeminiPart,
  GeminiRequest,
} from '../src/index.js';

// Random Gemini requests in the form toGemini writes: every content with a role, calls with
// object args, every call answered (but maybe in the last step) in a user content of function
// responses only, responses with an id exactly when their call has one, in the calls' order.

const text = fc.oneof(
  fc.constantFrom(
    'ok',
    'line one\nline two\n',
    '日志显示内存不足。',
    '{"status":"running"}',
    ' ',
    '',
  ),
  fc.string({ maxLength: 30 }),
);
const base64 = fc
  .uint8Array({ minLength: 1, maxLength: 24 })
  .map((bytes) => Buffer.from(bytes).toString('base64'));
const signature = fc.option(
  base64.map((value) => `sig${value}`),
  { nil: undefined },
);
const signed = <P extends GeminiPart>(part: P, value: string | undefined): P =>
  value === undefined ? part : { ...part, thoughtSignature: value };

const media: fc.Arbitrary<GeminiPart> = fc.oneof(
  base64.map((data) => ({ inlineData: { mimeType: 'image/png', data } })),
  base64.map((data) => ({ inlineData: { mimeType: 'application/pdf', data } })),
  fc.nat(99).map((n) => ({
    fileData: { mimeType: 'image/jpeg', fileUri: `https://example.com/shots/${n}.jpg` },
  })),
  fc.nat(99).map((n) => ({
    fileData: { mimeType: 'application/pdf', fileUri: `gs://bucket/reports/${n}.pdf` },
  })),
  fc.nat(99).map((n) => ({
    fileData: { fileUri: `https://generativelanguage.googleapis.com/v1beta/files/f${n}` },
  })),
);
const opaque: fc.Arbitrary<GeminiPart> = fc.oneof(
  text.map((code) => ({ executableCode: { language: 'PYTHON', code } })),
  text.map((output) => ({ codeExecutionResult: { outcome: 'OUTCOME_OK', output } })),
);

const userContent: fc.Arbitrary<GeminiContent> = fc.oneof(
  text.map((value): GeminiContent => ({ role: 'user', parts: [{ text: value }] })),
  fc
    .tuple(text, fc.array(media, { minLength: 1, maxLength: 2 }))
    .map(([value, rest]): GeminiContent => ({ role: 'user', parts: [{ text: value }, ...rest] })),
);

const modelPart: fc.Arbitrary<GeminiPart> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(text, signature).map(([value, sig]) => signed({ text: value }, sig)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(text, signature)
      .map(([value, sig]) => signed({ text: value, thought: true }, sig)),
  },
  { weight: 1, arbitrary: media },
  { weight: 1, arbitrary: opaque },
);

const response = fc.oneof(
  text.map((output) => ({ output })),
  text.map((error) => ({ error })),
  fc.record({ lines: fc.array(text, { maxLength: 2 }), ok: fc.boolean() }),
  fc.jsonValue({ maxDepth: 1 }).map((value) => ({ output: value, status: 'done' })),
);

const call = fc.record({
  name: fc.constantFrom('read_file', 'search'),
  args: fc.dictionary(fc.constantFrom('path', 'limit', 'q'), fc.jsonValue({ maxDepth: 1 })),
  withId: fc.boolean(),
  signature,
  response,
});

/** Random Gemini requests in the written form. */
export function arbitraryGemini(): fc.Arbitrary<GeminiRequest> {
  return fc
    .record({
      system: fc.option(fc.array(text, { minLength: 1, maxLength: 2 }), { nil: undefined }),
      turns: fc.array(
        fc.record({
          user: userContent,
          steps: fc.array(
            fc.record({
              parts: fc.array(modelPart, { maxLength: 3 }),
              calls: fc.array(call, { maxLength: 3 }),
            }),
            { maxLength: 2 },
          ),
        }),
        { maxLength: 4 },
      ),
      answerLast: fc.boolean(),
    })
    .map(({ system, turns, answerLast }) => {
      const contents: GeminiContent[] = [];
      let n = 0;
      turns.forEach((turn, turnIndex) => {
        contents.push(turn.user);
        turn.steps.forEach((step, stepIndex) => {
          const calls = step.calls.map((spec) => ({ ...spec, id: `call_${n++}` }));
          const parts: GeminiPart[] = [
            ...step.parts,
            ...calls.map((spec) =>
              signed(
                {
                  functionCall: {
                    name: spec.name,
                    args: spec.args as Record<string, JsonValue>,
                    ...(spec.withId ? { id: spec.id } : {}),
                  },
                } as GeminiFunctionCallPart,
                spec.signature,
              ),
            ),
          ];
          if (parts.length === 0) parts.push({ text: 'Done.' });
          contents.push({ role: 'model', parts });
          const last = turnIndex === turns.length - 1 && stepIndex === turn.steps.length - 1;
          if (calls.length === 0 || (last && !answerLast)) return;
          contents.push({
            role: 'user',
            parts: calls.map(
              (spec): GeminiPart => ({
                functionResponse: {
                  name: spec.name,
                  response: spec.response as Record<string, JsonValue>,
                  ...(spec.withId ? { id: spec.id } : {}),
                },
              }),
            ),
          });
        });
      });
      return system === undefined
        ? { contents }
        : { systemInstruction: { parts: system.map((value) => ({ text: value })) }, contents };
    });
}
