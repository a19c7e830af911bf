import type { Message, Part } from '@ctxkit/context-core';
import {
  type SampleTextKind,
  type SeededRandom,
  sampleText,
  seededRandom,
} from '@ctxkit/context-core/testing';

/**
 * Version of what {@link scaleExchanges} generates. Seeded databases are cached under a name that
 * holds it: change it whenever the generated content changes, so stale caches are not reused.
 */
export const SCALE_CONTENT_VERSION = 1;

/** The seed of every stored history. */
export const SCALE_SEED = 20_261_125;

/** Tools the generated assistant calls, with the kinds of output each returns. */
const TOOLS: readonly { name: string; kinds: readonly SampleTextKind[] }[] = [
  { name: 'read_file', kinds: ['code', 'code', 'json'] },
  { name: 'run_command', kinds: ['log', 'log', 'prose'] },
  { name: 'search_docs', kinds: ['prose', 'chinese'] },
  { name: 'query_service', kinds: ['json'] },
];

/**
 * An endless, deterministic agent conversation, one exchange at a time: a user turn, one to three
 * assistant steps that call tools (a parallel pair now and then) each followed by the tool
 * results, and the assistant's answer. Tool outputs vary in size: most under 1,500 characters,
 * some up to 6,000, one in ten up to 24,000 (past the simple compressor's 4,000-character cap).
 * The same seed gives the same messages; every text is distinct.
 */
export function* scaleExchanges(seed: number = SCALE_SEED): Generator<Message[]> {
  const random = seededRandom(seed);
  for (let exchange = 0; ; exchange += 1) {
    const messages: Message[] = [userTurn(random, exchange)];
    const steps = random.integer(1, 3);
    for (let step = 0; step < steps; step += 1) {
      const calls = random.chance(0.2) ? 2 : 1;
      const callParts: Part[] = [
        { type: 'text', text: text(random, 'prose', 60, 300, exchange, step) },
      ];
      const resultParts: Part[] = [];
      for (let call = 0; call < calls; call += 1) {
        const tool = random.pick(TOOLS);
        const toolCallId = `call_${exchange}_${step}_${call}`;
        callParts.push({
          type: 'tool-call',
          toolCallId,
          toolName: tool.name,
          input: { target: `item-${random.integer(0, 9_999)}`, limit: random.integer(10, 500) },
        });
        resultParts.push({
          type: 'tool-result',
          toolCallId,
          toolName: tool.name,
          output: toolOutput(random, random.pick(tool.kinds), toolCallId),
        });
      }
      messages.push({ role: 'assistant', content: callParts });
      messages.push({ role: 'tool', content: resultParts });
    }
    messages.push(assistantReply(random, exchange));
    yield messages;
  }
}

/**
 * The first `count` messages of {@link scaleExchanges}, in batches of whole exchanges of at least
 * `batchSize` messages (the last batch shorter). When `count` cuts an exchange after an assistant
 * step that calls tools, that step is replaced by the exchange's answer, so the history never
 * ends with a call that has no result.
 */
export function* scaleBatches(
  count: number,
  batchSize: number,
  seed: number = SCALE_SEED,
): Generator<Message[]> {
  let batch: Message[] = [];
  let total = 0;
  for (const exchange of scaleExchanges(seed)) {
    if (total + exchange.length >= count) {
      const rest = exchange.slice(0, count - total);
      if (rest.length > 0 && hasToolCall(rest[rest.length - 1] as Message)) {
        rest[rest.length - 1] = exchange[exchange.length - 1] as Message;
      }
      batch.push(...rest);
      if (batch.length > 0) yield batch;
      return;
    }
    batch.push(...exchange);
    total += exchange.length;
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
}

/** The first `count` messages of {@link scaleBatches}, in one array. */
export function scaleHistory(count: number, seed: number = SCALE_SEED): Message[] {
  return [...scaleBatches(count, count, seed)].flat();
}

/** The user message of measured turn `turn`: distinct from every stored one. */
export function turnInput(turn: number): Message {
  return userTurn(seededRandom(SCALE_SEED ^ ((turn + 1) * 7_919)), turn, 'measured');
}

/** The assistant reply appended after measured turn `turn`'s build. */
export function turnReply(turn: number): Message {
  return assistantReply(seededRandom(SCALE_SEED ^ ((turn + 1) * 104_729)), turn, 'measured');
}

// --- internal helpers ---

function hasToolCall(message: Message): boolean {
  return (
    typeof message.content !== 'string' && message.content.some((part) => part.type === 'tool-call')
  );
}

function userTurn(random: SeededRandom, index: number, label = 'turn'): Message {
  return { role: 'user', content: text(random, 'prose', 40, 600, index, label) };
}

function assistantReply(random: SeededRandom, index: number, label = 'turn'): Message {
  return { role: 'assistant', content: text(random, 'prose', 100, 1_500, index, label) };
}

/** A tool output: 60% up to 1,500 characters, 30% up to 6,000, 10% up to 24,000. */
function toolOutput(random: SeededRandom, kind: SampleTextKind, callId: string): string {
  const draw = random.next();
  const [low, high] = draw < 0.6 ? [100, 1_500] : draw < 0.9 ? [1_500, 6_000] : [6_000, 24_000];
  return `${callId}\n${sampleText(kind, random.integer(low, high), random.integer(0, 2 ** 31))}`;
}

/** Text of `low` to `high` characters that starts with a mark of where it is, so none repeats. */
function text(
  random: SeededRandom,
  kind: SampleTextKind,
  low: number,
  high: number,
  index: number,
  label: string | number,
): string {
  return `[${index}.${label}] ${sampleText(kind, random.integer(low, high), random.integer(0, 2 ** 31))}`;
}
