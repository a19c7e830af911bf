import { countTokensUncached, type FitReport, type ToolDeclaration } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import { countToolDefinitions, defaultCounter } from '@ctxkit/context-manager';
import { jsonSchema, type ModelMessage, type ToolSet, tool } from 'ai';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { contextPrepareStep, fromModelMessages } from '../src/index.js';

// Random step sequences of an agent that changes, between fits, its tools (pushed into the same
// ToolSet, a schema edited in place, a tool replaced) and its messages (text edited in place, a
// message replaced by a new object with the same call id, or by a Proxy of one). After every fit:
// the request is within the budget by an independent count that the report agrees with, no tool
// result is without its call, and every message sent is one of the input's as it is now.

const RUNS = fuzzParameters(60);
const MAX_TOKENS = 2_500;

type Op =
  | { kind: 'turn'; words: number }
  | { kind: 'tool-step'; words: number }
  | { kind: 'edit-text'; at: number; words: number }
  | { kind: 'replace-message'; at: number; words: number; proxy: boolean }
  | { kind: 'push-tool' }
  | { kind: 'edit-schema'; at: number }
  | { kind: 'replace-tool'; at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('turn' as const), words: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('tool-step' as const), words: fc.integer({ min: 1, max: 60 }) }),
  fc.record({
    kind: fc.constant('edit-text' as const),
    at: fc.nat(),
    words: fc.integer({ min: 1, max: 120 }),
  }),
  fc.record({
    kind: fc.constant('replace-message' as const),
    at: fc.nat(),
    words: fc.integer({ min: 1, max: 120 }),
    proxy: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('push-tool' as const) }),
  fc.record({ kind: fc.constant('edit-schema' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace-tool' as const), at: fc.nat() }),
);

/** Text of `words` words, unique to `version` so that stale text can be told from current. */
function text(version: number, words: number): string {
  return `v${version} ${'word '.repeat(words)}`.trim();
}

interface Schema {
  type: 'object';
  properties: Record<string, { type: 'string'; description: string }>;
}

function makeTool(index: number, version: number) {
  const schema: Schema = {
    type: 'object',
    properties: {
      key: { type: 'string', description: `Key of kind ${index}, version ${version}.` },
    },
  };
  return { schema, tool: tool({ description: `Tool ${index}.`, inputSchema: jsonSchema(schema) }) };
}

/** The text fields of a message that an edit may change, in place. */
function editText(message: ModelMessage, next: string): void {
  if (typeof message.content === 'string') {
    (message as { content: string }).content = next;
    return;
  }
  for (const part of message.content as Record<string, unknown>[]) {
    if (part.type === 'text') part.text = next;
    const output = part.output as { type: string; value: unknown } | undefined;
    if (part.type === 'tool-result' && output?.type === 'text') output.value = next;
  }
}

/** A new object (or a Proxy of one) with the same role and call ids, and new text. */
function replaced(message: ModelMessage, next: string, proxy: boolean): ModelMessage {
  const copy = JSON.parse(JSON.stringify(message)) as ModelMessage;
  editText(copy, next);
  return proxy ? new Proxy(copy, {}) : copy;
}

it('keeps every request within the budget, paired and current, whatever changes between fits', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
      let version = 0;
      let calls = 0;
      const schemas: Schema[] = [];
      const toolSet: ToolSet = {};
      const addTool = (index: number) => {
        const made = makeTool(index, version);
        schemas[index] = made.schema;
        toolSet[`tool_${index}`] = made.tool;
      };
      addTool(0);
      const messages: ModelMessage[] = [{ role: 'user', content: text(version, 5) }];
      const reports: FitReport[] = [];
      const prepare = contextPrepareStep({
        model: 'gpt-4o',
        maxTokens: MAX_TOKENS,
        tools: toolSet,
        onFit: (report) => reports.push(report),
      });
      for (const step of ops) {
        version += 1;
        const at = 'at' in step ? step.at : 0;
        switch (step.kind) {
          case 'turn':
            messages.push(
              { role: 'assistant', content: text(version, step.words) },
              { role: 'user', content: text(version, 3) },
            );
            break;
          case 'tool-step': {
            calls += 1;
            const id = `call-${calls}`;
            messages.push(
              {
                role: 'assistant',
                content: [{ type: 'tool-call', toolCallId: id, toolName: 'tool_0', input: {} }],
              },
              {
                role: 'tool',
                content: [
                  {
                    type: 'tool-result',
                    toolCallId: id,
                    toolName: 'tool_0',
                    output: { type: 'text', value: text(version, step.words) },
                  },
                ],
              },
            );
            break;
          }
          case 'edit-text':
            editText(messages[at % messages.length] as ModelMessage, text(version, step.words));
            break;
          case 'replace-message': {
            const index = at % messages.length;
            messages[index] = replaced(
              messages[index] as ModelMessage,
              text(version, step.words),
              step.proxy,
            );
            break;
          }
          case 'push-tool':
            if (schemas.length < 5) addTool(schemas.length);
            break;
          case 'edit-schema': {
            const schema = schemas[at % schemas.length] as Schema;
            schema.properties[`note_${version}`] = {
              type: 'string',
              description: `A note added in place at version ${version}.`,
            };
            break;
          }
          case 'replace-tool':
            addTool(at % schemas.length);
            break;
        }
        // The messages must end with a user turn or a tool result to be a model step.
        const { messages: sent } = await prepare({ messages });
        const report = reports.at(-1) as FitReport;

        // Within the budget, by a count made afresh of what is sent now.
        const counter = defaultCounter('gpt-4o');
        const { messages: converted, repairs } = fromModelMessages(sent);
        expect(repairs).toEqual([]);
        const declarations: ToolDeclaration[] = Object.entries(toolSet).map(([name, entry]) => ({
          name,
          description: entry.description as string,
          parameters: structuredClone(schemas[Number(name.slice(5))]) as unknown as Record<
            string,
            unknown
          >,
        }));
        const tokens =
          countTokensUncached(converted, counter) +
          countToolDefinitions(declarations, counter, 'gpt-4o');
        expect(tokens).toBeLessThanOrEqual(MAX_TOKENS);
        expect(report.promptTokens).toBe(tokens);

        // Every message sent is one of the input's, as it is now: nothing stale, nothing foreign.
        const current = new Set(messages.map((message) => JSON.stringify(message)));
        for (const message of sent) expect(current.has(JSON.stringify(message))).toBe(true);
      }
    }),
    RUNS,
  );
});
