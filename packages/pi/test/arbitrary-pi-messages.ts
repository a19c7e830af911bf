import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type {
  AssistantMessage,
  ImageContent,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  Usage,
} from '@mariozechner/pi-ai';
import fc from 'fast-check';

/** A custom app message, as an app declares one by declaration merging. */
export interface NotificationMessage {
  role: 'notification';
  text: string;
  level: 'info' | 'warning';
  timestamp: number;
}

const text = fc.string({ maxLength: 40 });
const timestamp = fc.nat();
const signature = fc.base64String({ minLength: 4, maxLength: 24 });

const textBlock: fc.Arbitrary<TextContent> = fc.record(
  { type: fc.constant('text' as const), text, textSignature: signature },
  { requiredKeys: ['type', 'text'] },
);
const imageBlock: fc.Arbitrary<ImageContent> = fc.record({
  type: fc.constant('image' as const),
  data: fc.base64String({ minLength: 4, maxLength: 32 }),
  mimeType: fc.constantFrom('image/png', 'image/jpeg'),
});
const thinkingBlock: fc.Arbitrary<ThinkingContent> = fc.oneof(
  fc.record(
    { type: fc.constant('thinking' as const), thinking: text, thinkingSignature: signature },
    { requiredKeys: ['type', 'thinking'] },
  ),
  fc.record({
    type: fc.constant('thinking' as const),
    thinking: fc.constant(''),
    thinkingSignature: signature,
    redacted: fc.constant(true),
  }),
);
const usage: fc.Arbitrary<Usage> = fc.record({
  input: fc.nat(),
  output: fc.nat(),
  cacheRead: fc.nat(),
  cacheWrite: fc.nat(),
  totalTokens: fc.nat(),
  cost: fc.record({
    input: fc.nat(),
    output: fc.nat(),
    cacheRead: fc.nat(),
    cacheWrite: fc.nat(),
    total: fc.nat(),
  }),
});
const json: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 }).map((value) =>
  // JSON data as it reads back: no -0.
  JSON.parse(JSON.stringify(value)),
);

/** One step of a conversation: its messages, given the step's index for unique call ids. */
type Step = (index: number) => AgentMessage[];

const userStep: fc.Arbitrary<Step> = fc
  .record({
    content: fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 })),
    timestamp,
  })
  .map((fields) => () => [{ role: 'user', ...fields }]);

const customStep: fc.Arbitrary<Step> = fc
  .record({
    role: fc.constant('notification' as const),
    text,
    level: fc.constantFrom('info' as const, 'warning' as const),
    timestamp,
  })
  .map((message) => () => [message as unknown as AgentMessage]);

const assistantStep: fc.Arbitrary<Step> = fc
  .record({
    thinking: fc.array(thinkingBlock, { maxLength: 1 }),
    texts: fc.array(textBlock, { maxLength: 2 }),
    calls: fc.array(
      fc.record(
        {
          name: fc.constantFrom('read_file', 'grep', 'bash'),
          arguments: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), json, {
            maxKeys: 3,
          }),
          thoughtSignature: signature,
        },
        { requiredKeys: ['name', 'arguments'] },
      ),
      { maxLength: 3 },
    ),
    results: fc.array(
      fc.record(
        {
          content: fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }),
          isError: fc.boolean(),
          details: json,
          timestamp,
        },
        { requiredKeys: ['content', 'isError', 'timestamp'] },
      ),
      { minLength: 3, maxLength: 3 },
    ),
    fields: fc.record(
      {
        api: fc.constantFrom('anthropic-messages', 'openai-responses'),
        provider: fc.constantFrom('anthropic', 'openai'),
        model: fc.constantFrom('claude-sonnet-4-5', 'gpt-5'),
        responseId: fc.string({ minLength: 1, maxLength: 12 }),
        usage,
        stopReason: fc.constantFrom('stop' as const, 'length' as const, 'toolUse' as const),
        errorMessage: text,
        timestamp,
      },
      { requiredKeys: ['api', 'provider', 'model', 'usage', 'stopReason', 'timestamp'] },
    ),
  })
  .map(({ thinking, texts, calls, results, fields }) => (index: number) => {
    const toolCalls: ToolCall[] = calls.map((call, n) => ({
      type: 'toolCall',
      id: `call_${index}_${n}`,
      ...call,
    }));
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: [...thinking, ...texts, ...toolCalls],
      ...fields,
    };
    const answers: ToolResultMessage[] = toolCalls.map((call, n) => ({
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      ...(results[n] as Omit<ToolResultMessage, 'role' | 'toolCallId' | 'toolName'>),
    }));
    return [assistant, ...answers];
  });

/**
 * Well-formed pi transcripts: user, assistant (thinking with signatures or redacted, text with
 * signatures, tool calls), each call answered by a tool result (text and images, `isError`,
 * JSON details) right after it, and custom notification messages, with every optional field
 * present or absent.
 */
export const arbitraryPiMessages: fc.Arbitrary<AgentMessage[]> = fc
  .array(fc.oneof(userStep, assistantStep, customStep), { maxLength: 12 })
  // As pi's messages are: plain objects (fast-check makes some without a prototype).
  .map((steps) => JSON.parse(JSON.stringify(steps.flatMap((step, index) => step(index)))));
