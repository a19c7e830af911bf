import { createSimpleCompressor, threeLayer } from '@ctxkit/compressor-simple';
import {
  type ContextCompressor,
  countMessageTokens,
  countTokens,
  type Message,
  type TokenCounter,
  toolOutputText,
  withTokenCount,
} from '@ctxkit/context-core';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';
import { measure, printTable } from './measure.js';

/** The history budget of every run: 100,000 tokens. */
const BUDGET = Object.freeze({ maxTokens: 100_000 });
/** The counter both sides use: a quarter of the characters, the usual rough estimate. */
const CHARS_4: TokenCounter = Object.freeze({
  name: 'chars/4',
  count: (text: string) => Math.ceil(text.length / 4),
});
/** trimMessages runs that would take longer than this are not repeated (it is quadratic). */
const SLOW_RUN_MS = 2_000;

/**
 * `createSimpleCompressor` and `threeLayer` against LangChain.js `trimMessages` on the same agent
 * history (about 2 KB per message, tool calls included), trimmed to 100,000 tokens with the same
 * counter: cold (nothing cached: every message counted with chars/4) and warm (counts cached, as a
 * store delivers them; LangChain reads them from a map by message id). Reports per-call time as a
 * ratio to trimMessages at 10,000 messages, and how each scales over 1,000 / 10,000 / 100,000.
 * trimMessages is not run on 100,000 messages: it counts the whole kept prefix once per dropped
 * message, so it would take about a hundred times its 10,000-message time.
 */
export async function benchCompressorSimple(): Promise<void> {
  const sizes = [1_000, 10_000, 100_000];
  const results = new Map<string, Map<number, Timing>>();
  const record = (name: string, size: number, timing: Timing) => {
    if (!results.has(name)) results.set(name, new Map());
    results.get(name)?.set(size, timing);
  };
  for (const size of sizes) {
    const history = agentHistory(size);
    const cached = history.map((message) => withTokenCount(message, CHARS_4));
    const ours: [string, () => ContextCompressor][] = [
      ['createSimpleCompressor', () => createSimpleCompressor()],
      ['threeLayer', () => threeLayer()],
    ];
    for (const [name, create] of ours) {
      const compressor = create();
      record(`${name} cold`, size, await timeOurs(compressor, history, 'cold'));
      record(`${name} warm`, size, await timeOurs(compressor, cached, 'warm'));
    }
    if (size <= 10_000) {
      const langchain = toLangChain(history);
      const byId = new Map(history.map((message) => [message.id as string, message]));
      const countsById = new Map(
        cached.map((message) => [message.id as string, message.tokens as number]),
      );
      const coldCounter = (messages: BaseMessage[]) =>
        messages.reduce(
          (sum, message) =>
            sum + countMessageTokens(byId.get(message.id as string) as Message, CHARS_4),
          0,
        );
      const warmCounter = (messages: BaseMessage[]) =>
        messages.reduce(
          (sum, message) => sum + (countsById.get(message.id as string) as number),
          0,
        );
      record('trimMessages cold', size, await timeLangChain(langchain, coldCounter, byId));
      record('trimMessages warm', size, await timeLangChain(langchain, warmCounter, byId));
    }
  }

  const at = (name: string, size: number) => results.get(name)?.get(size);
  const rows = [...results.keys()].map((name) => {
    const timing = at(name, 10_000) as Timing;
    const baseline = at(
      name.endsWith('cold') ? 'trimMessages cold' : 'trimMessages warm',
      10_000,
    ) as Timing;
    return {
      '10,000 messages': name,
      'per call (ms)': formatMs(timing.ms),
      'vs trimMessages': name.startsWith('trimMessages')
        ? '1x'
        : `${Math.round(baseline.ms / timing.ms).toLocaleString('en')}x faster`,
      'messages kept': timing.kept,
      'tokens out': timing.tokens.toLocaleString('en'),
      runs: timing.runs,
    };
  });
  printTable(
    'Trimming a 10,000-message agent history (~2 KB each) to 100,000 tokens, same chars/4 counter; ' +
      'cold: nothing cached, warm: counts cached (LangChain: by id)',
    rows,
  );
  console.log(
    'Kept differs by design: createSimpleCompressor first caps each message at 4,000 characters, ' +
      'threeLayer masks old tool outputs and leaves 25% headroom; trimMessages only drops.',
  );
  const scaling = [...results.keys()].map((name) => {
    const row: Record<string, string> = { compressor: name };
    for (const size of sizes) {
      const timing = at(name, size);
      row[`${size.toLocaleString('en')} (ms)`] = timing ? formatMs(timing.ms) : 'not run';
    }
    const small = at(name, 1_000);
    const large = at(name, 10_000);
    const largest = at(name, 100_000);
    row['x per 10x messages'] = [
      small && large ? large.ms / small.ms : undefined,
      large && largest ? largest.ms / large.ms : undefined,
    ]
      .filter((factor): factor is number => factor !== undefined)
      .map((factor) => factor.toFixed(1))
      .join(', then ');
    return row;
  });
  printTable(
    'Scaling: median time per call by history length (trimMessages not run at 100,000: quadratic)',
    scaling,
  );
}

// --- internal helpers ---

/** One measured compressor: median time per call and what it kept. */
interface Timing {
  ms: number;
  runs: number;
  kept: number;
  tokens: number;
}

/**
 * Median time of `compressor` over `history`. Core caches counts by message object, so a cold run
 * gets fresh copies of the messages every time (made outside the timed part): nothing it sees
 * has been counted. A warm run gets the same counted messages every time, as a store delivers.
 */
async function timeOurs(
  compressor: ContextCompressor,
  history: readonly Message[],
  mode: 'cold' | 'warm',
): Promise<Timing> {
  const run = (messages: readonly Message[]) =>
    compressor.compress(messages, BUDGET, { counter: CHARS_4 });
  const prepare = () =>
    mode === 'warm'
      ? history
      : history.map(({ tokens: _tokens, tokenCounter: _counter, ...message }) => message);
  const { messages } = await run(prepare());
  const timing = await measure(run, { minRuns: 5, minTime: 2_000, maxRuns: 5_000, prepare });
  return {
    ms: timing.median,
    runs: timing.runs,
    kept: messages.length,
    tokens: countTokens(messages, CHARS_4),
  };
}

async function timeLangChain(
  history: BaseMessage[],
  counter: (messages: BaseMessage[]) => number,
  byId: ReadonlyMap<string, Message>,
): Promise<Timing> {
  const run = () =>
    trimMessages(history, { maxTokens: BUDGET.maxTokens, strategy: 'last', tokenCounter: counter });
  const started = performance.now();
  const kept = await run();
  const first = performance.now() - started;
  const tokens = countTokens(
    kept.map((message) => byId.get(message.id as string) as Message),
    CHARS_4,
  );
  if (first > SLOW_RUN_MS) return { ms: first, runs: 1, kept: kept.length, tokens };
  const timing = await measure(run, { minRuns: 3, minTime: 1_000, maxRuns: 200 });
  return { ms: timing.median, runs: timing.runs + 1, kept: kept.length, tokens };
}

/** The same history as LangChain messages, with the same ids. */
function toLangChain(history: readonly Message[]): BaseMessage[] {
  return history.map((message) => {
    const id = message.id as string;
    if (typeof message.content === 'string') {
      return message.role === 'user'
        ? new HumanMessage({ content: message.content, id })
        : new AIMessage({ content: message.content, id });
    }
    const [part] = message.content;
    if (part?.type === 'tool-result')
      return new ToolMessage({
        content: toolOutputText(part.output),
        tool_call_id: part.toolCallId,
        id,
      });
    const text = message.content
      .flatMap((item) => (item.type === 'text' ? [item.text] : []))
      .join('');
    const toolCalls = message.content.flatMap((item) =>
      item.type === 'tool-call'
        ? [
            {
              id: item.toolCallId,
              name: item.toolName,
              args: item.input as Record<string, unknown>,
            },
          ]
        : [],
    );
    return new AIMessage({ content: text, tool_calls: toolCalls, id });
  });
}

/**
 * A deterministic agent history of `size` messages, about 2 KB each: a user request, an assistant
 * step with text and a tool call, the tool's output (logs or JSON), and the assistant's answer.
 * Every text is a different slice of a generated corpus.
 */
function agentHistory(size: number): Message[] {
  const corpus = makeCorpus(1 << 20);
  let seed = 1;
  const slice = (length: number) => {
    seed = (seed * 48_271) % 2_147_483_647;
    const start = seed % (corpus.length - 2 * length);
    return corpus.slice(start, start + length + (seed % length) - (length >> 1));
  };
  const messages: Message[] = [];
  for (let step = 0; messages.length < size; step += 1) {
    const callId = `call_${step}`;
    messages.push({ role: 'user', content: slice(400) });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: slice(300) },
        {
          type: 'tool-call',
          toolCallId: callId,
          toolName: 'get_logs',
          input: { service: `svc-${step % 7}`, lines: 200 },
        },
      ],
    });
    messages.push({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: callId, toolName: 'get_logs', output: slice(5_000) },
      ],
    });
    messages.push({ role: 'assistant', content: slice(1_800) });
  }
  return messages.slice(0, size).map((message, index) => ({ ...message, id: `m${index}` }));
}

/** About `length` characters of log lines and prose. */
function makeCorpus(length: number): string {
  const words =
    'the agent reads config value request returns error while building context tokens model window tool output'.split(
      ' ',
    );
  const pieces: string[] = [];
  let size = 0;
  for (let line = 0; size < length; line += 1) {
    const text =
      line % 3 === 0
        ? `2025-03-14T09:${String(line % 60).padStart(2, '0')}:00Z INFO [svc-${line % 7}] ${words[line % words.length]} id=${(line * 7919) % 1_000_003}\n`
        : `${words[(line * 3) % words.length]} ${words[(line * 5) % words.length]} ${words[(line * 11) % words.length]} ${line}. `;
    pieces.push(text);
    size += text.length;
  }
  return pieces.join('');
}

function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(4);
}
