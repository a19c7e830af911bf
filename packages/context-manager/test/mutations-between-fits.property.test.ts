import { cacheAware, contextGuard } from '@ctxkit/compressor-simple';
import {
  countTokensUncached,
  type Message,
  messageParts,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import { countOpenAIToolTokens, createTiktokenCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContextManager } from '../src/index.js';

/**
 * What an agent (or a framework, or an attacker) does between two fits of one manager serving two
 * conversations: messages appended, edited in place however deep, replaced by a new object under
 * the same id; tools pushed into the same array or edited in place; the array handed in as a
 * Proxy; conversation ids left out. After every fit: the request is within the budget by an
 * independent count, no tool call or result is orphaned, and every text sent belongs to the
 * current input of the conversation that asked (nothing stale, nothing from the other one).
 */

type Conversation = 'a' | 'b';

type Operation =
  | {
      kind: 'append';
      conversation: Conversation;
      shape: 'user' | 'assistant' | 'tool-pair';
      size: number;
    }
  | { kind: 'edit-in-place'; conversation: Conversation; at: number }
  | { kind: 'replace-same-id'; conversation: Conversation; at: number }
  | { kind: 'push-tool'; conversation: Conversation; size: number }
  | { kind: 'edit-tool-in-place'; conversation: Conversation; at: number; size: number }
  | { kind: 'fit'; conversation: Conversation; named: boolean; proxy: boolean };

const conversation = fc.constantFrom<Conversation>('a', 'b');
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      conversation,
      shape: fc.constantFrom('user' as const, 'assistant' as const, 'tool-pair' as const),
      size: fc.integer({ min: 1, max: 400 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('edit-in-place' as const),
      conversation,
      at: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('replace-same-id' as const),
      conversation,
      at: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('push-tool' as const),
      conversation,
      size: fc.integer({ min: 1, max: 300 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('edit-tool-in-place' as const),
      conversation,
      at: fc.nat(),
      size: fc.integer({ min: 1, max: 300 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('fit' as const),
      conversation,
      named: fc.boolean(),
      proxy: fc.boolean(),
    }),
  },
);

/** A text tagged `⟦conversation:serial⟧` some words long: tags say where a text came from. */
function taggedText(tag: string, size: number): string {
  return `⟦${tag}⟧ ${Array.from({ length: size }, (_, index) => `w${index % 97}`).join(' ')} ⟦${tag}⟧`;
}

const TAG = /⟦([ab]:\d+)⟧/g;

/** Every tag in a message's texts, tool inputs and outputs. */
function tagsOf(messages: readonly Message[]): Set<string> {
  const tags = new Set<string>();
  for (const message of messages) {
    for (const match of JSON.stringify(message.content).matchAll(TAG)) tags.add(match[1] as string);
  }
  return tags;
}

function orphans(messages: readonly Message[]): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of messages) {
    for (const part of messageParts(message)) {
      if (part.type === 'tool-call') calls.add(part.toolCallId);
      if (part.type === 'tool-result') results.add(part.toolCallId);
    }
  }
  return [
    ...[...results].filter((id) => !calls.has(id)).map((id) => `result ${id}`),
    ...[...calls].filter((id) => !results.has(id)).map((id) => `call ${id}`),
  ];
}

/** The array as a Proxy that reads like the array (what a framework's reactive store hands in). */
function proxied(messages: Message[]): Message[] {
  return new Proxy(messages, {});
}

const independentCounter = createTiktokenCounter('o200k_base');

describe('one manager, two conversations, everything changed between fits', () => {
  for (const [name, compressor] of [
    ['contextGuard', () => contextGuard()],
    ['cacheAware', () => cacheAware()],
  ] as const) {
    it(`${name}: within budget by an independent count, paired, nothing stale or foreign`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(operation, { minLength: 1, maxLength: 40 }),
          async (operations) => {
            const manager = createContextManager({
              model: 'gpt-4o',
              maxTokens: 2_500,
              compressor: compressor(),
              predictCost: false,
            });
            let serial = 0;
            const tag = (of: Conversation) => `${of}:${serial++}`;
            const state = {
              a: { messages: [] as Message[], tools: [] as ToolDeclaration[] },
              b: { messages: [] as Message[], tools: [] as ToolDeclaration[] },
            };
            for (const step of operations) {
              const { messages, tools } = state[step.conversation];
              switch (step.kind) {
                case 'append': {
                  const id = `m${messages.length}`; // the same ids in both conversations
                  if (step.shape === 'tool-pair') {
                    const callId = `call_${messages.length}`;
                    messages.push(
                      {
                        id,
                        role: 'assistant',
                        content: [
                          {
                            type: 'tool-call',
                            toolCallId: callId,
                            toolName: 'read',
                            input: { note: taggedText(tag(step.conversation), 3) },
                          },
                        ],
                      },
                      {
                        id: `${id}r`,
                        role: 'tool',
                        content: [
                          {
                            type: 'tool-result',
                            toolCallId: callId,
                            toolName: 'read',
                            output: taggedText(tag(step.conversation), step.size),
                          },
                        ],
                      },
                    );
                  } else {
                    messages.push({
                      id,
                      role: step.shape,
                      content: [
                        { type: 'text', text: taggedText(tag(step.conversation), step.size) },
                      ],
                    });
                  }
                  break;
                }
                case 'edit-in-place': {
                  const message = messages[step.at % Math.max(1, messages.length)];
                  if (message === undefined || typeof message.content === 'string') break;
                  const part = message.content[0];
                  if (part?.type === 'text') part.text = taggedText(tag(step.conversation), 50);
                  else if (part?.type === 'tool-result')
                    part.output = taggedText(tag(step.conversation), 50); // a redaction, say
                  else if (part?.type === 'tool-call')
                    (part.input as { note: string }).note = taggedText(tag(step.conversation), 2);
                  break;
                }
                case 'replace-same-id': {
                  const at = step.at % Math.max(1, messages.length);
                  const old = messages[at];
                  if (old === undefined || old.role === 'tool' || typeof old.content === 'string')
                    break;
                  if (old.content.some((part) => part.type === 'tool-call')) break;
                  messages[at] = {
                    ...old,
                    content: [{ type: 'text', text: taggedText(tag(step.conversation), 20) }],
                  };
                  break;
                }
                case 'push-tool':
                  tools.push({
                    name: `tool_${tools.length}`,
                    description: taggedText(tag(step.conversation), step.size),
                    parameters: { type: 'object', properties: { path: { type: 'string' } } },
                  });
                  break;
                case 'edit-tool-in-place': {
                  const tool = tools[step.at % Math.max(1, tools.length)] as
                    | { description?: string }
                    | undefined;
                  if (tool !== undefined)
                    tool.description = taggedText(tag(step.conversation), step.size);
                  break;
                }
                case 'fit': {
                  const toolTokens = countOpenAIToolTokens(tools, independentCounter, 'gpt-4o');
                  if (toolTokens > 1_500) break; // no room for any message: BudgetError, as documented
                  const input = step.proxy ? proxied(messages) : messages;
                  const { messages: sent, report } = await manager.fit(input, {
                    tools,
                    ...(step.named ? { conversationId: `conversation-${step.conversation}` } : {}),
                  });
                  const prompt = countTokensUncached(sent, independentCounter) + toolTokens;
                  expect(prompt).toBeLessThanOrEqual(report.maxTokens);
                  expect(report.promptTokens).toBe(prompt);
                  expect(orphans(sent)).toEqual([]);
                  const current = tagsOf(messages);
                  for (const found of tagsOf(sent)) expect(current).toContain(found);
                  break;
                }
              }
            }
          },
        ),
        fuzzParameters(100),
      );
    });
  }
});
