import type { AssembleInput, Message, Part } from '@ctxkit/context-core';
import { arbitraryHistory } from '@ctxkit/context-core/testing';
import fc from 'fast-check';

/** Options of {@link arbitraryVariedHistory}. */
export interface VariedHistoryOptions {
  /** Only object tool inputs (for Anthropic, which takes only objects). */
  objectInputs?: boolean;
  /**
   * Only what both wire formats can send: no opaque parts (a message left with none says
   * `Done.`), and provider-executed results with JSON output (Anthropic sends only those).
   */
  sendable?: boolean;
}

/**
 * Valid histories (from core's `arbitraryHistory`, which holds every part kind) with what it
 * does not make: first-model thinking without a signature or redacted, `isError: false`, tool
 * inputs given as JSON text or left out, string inputs that are not JSON (unless
 * `objectInputs`), and cached counts and meta on messages.
 */
export function arbitraryVariedHistory(
  options: VariedHistoryOptions = {},
): fc.Arbitrary<Message[]> {
  const maxChoice = options.objectInputs ? 5 : 6;
  return fc
    .record({
      history: arbitraryHistory({ minTurns: 1, maxTurns: 5, maxOutputChars: 2_000 }),
      choices: fc.array(fc.nat({ max: 9 }), { minLength: 64, maxLength: 64 }),
    })
    .map(({ history, choices }) =>
      history.map((message, index) => {
        const choice = choices[index % choices.length] as number;
        const extra =
          choice === 9 ? { tokens: 12, tokenCounter: 'test', meta: { note: index } } : {};
        const sent = options.sendable ? sendable(message) : message;
        if (typeof sent.content === 'string') return { ...sent, ...extra };
        return {
          ...sent,
          ...extra,
          content: sent.content.map((part) =>
            vary(part, choice <= maxChoice || choice > 6 ? choice : 0),
          ),
        };
      }),
    );
}

/** One operation of {@link arbitraryDamagedInput}, applied at `at` modulo the history length. */
type Damage =
  | 'drop'
  | 'blank-message'
  | 'summary'
  | 'mid-system'
  | 'move-result-later'
  | 'empty-output'
  | 'trailing-space'
  | 'blank-part';

/**
 * Assembler input as compressors and stores hand it over, and worse: varied histories (only
 * what both wire formats can send, with `sendable`) with
 * messages dropped (orphan results and calls), blank messages and parts, summaries anywhere,
 * system messages in the middle, results moved after later messages, empty tool outputs and
 * trailing whitespace; a system prompt as a string or messages; and no input, text (blank now
 * and then), a user message, or a tool message answering the pending calls.
 */
export function arbitraryDamagedInput(
  options: Pick<VariedHistoryOptions, 'sendable'> = {},
): fc.Arbitrary<AssembleInput> {
  const damage = fc.record({
    kind: fc.constantFrom<Damage>(
      'drop',
      'blank-message',
      'summary',
      'mid-system',
      'move-result-later',
      'empty-output',
      'trailing-space',
      'blank-part',
    ),
    at: fc.nat(),
    by: fc.integer({ min: 1, max: 4 }),
  });
  return fc
    .record({
      history: arbitraryVariedHistory({ objectInputs: true, ...options }),
      damages: fc.array(damage, { maxLength: 6 }),
      system: fc.oneof(
        fc.constantFrom('You are a careful operator.', '', '  '),
        fc.constant<Message[]>([
          { role: 'system', content: 'Rules.' },
          { role: 'system', content: [{ type: 'text', text: 'More rules.' }] },
        ]),
        fc.constant<Message[]>([]),
      ),
      input: fc.constantFrom('none', 'text', 'blank', 'user', 'answer'),
    })
    .map(({ history, damages, system, input }) => {
      const messages = [...history];
      for (const { kind, at, by } of damages) {
        if (messages.length === 0) break;
        apply(messages, kind, at % messages.length, by);
      }
      return { system, history: messages, ...inputFor(messages, input) };
    });
}

// --- internal helpers ---

function vary(part: Part, choice: number): Part {
  if (part.type === 'thinking') {
    if (choice === 1) return { type: 'thinking', text: part.text };
    if (choice === 2)
      return {
        type: 'thinking',
        text: '',
        signature: `redacted-${part.signature ?? ''}`,
        redacted: true,
      } as Part;
  }
  if (part.type === 'tool-result' && choice === 3 && part.isError === undefined)
    return { ...part, isError: false };
  if (part.type === 'tool-call') {
    if (choice === 4) return { ...part, input: JSON.stringify(part.input) };
    if (choice === 5) return { ...part, input: undefined };
    if (choice === 6) return { ...part, input: 'not json: /srv/data' };
  }
  return part;
}

/** `message` without opaque parts, its provider-executed results with JSON output. */
function sendable(message: Message): Message {
  if (typeof message.content === 'string') return message;
  const parts = message.content.flatMap((part): Part[] => {
    if (part.type === 'opaque') return [];
    if (part.type !== 'tool-result' || message.role !== 'assistant') return [part];
    const { output } = part;
    if (typeof output === 'string') {
      return [{ ...part, output: { type: 'json', value: { text: output } } }];
    }
    if (output.type === 'content') {
      return [{ ...part, output: { type: 'json', value: { items: output.value.length } } }];
    }
    return [part];
  });
  return { ...message, content: parts.length === 0 ? 'Done.' : parts };
}

function apply(messages: Message[], kind: Damage, at: number, by: number): void {
  const message = messages[at] as Message;
  switch (kind) {
    case 'drop':
      messages.splice(at, 1);
      return;
    case 'blank-message':
      messages.splice(
        at,
        0,
        [
          { role: 'user', content: ' \n' },
          { role: 'assistant', content: [{ type: 'text', text: '' }] },
          { role: 'user', content: [] },
          {
            role: 'assistant',
            content: [{ type: 'thinking', text: 'only thinking', signature: 'sig' }],
          },
        ][by - 1] as Message,
      );
      return;
    case 'summary':
      if (message.role !== 'system')
        messages[at] = { ...message, meta: { ...message.meta, kind: 'summary' } };
      return;
    case 'mid-system':
      messages.splice(at, 0, { role: 'system', content: `Note ${at}: prefer read-only tools.` });
      return;
    case 'move-result-later':
      if (message.role === 'tool') {
        messages.splice(at, 1);
        messages.splice(Math.min(messages.length, at + by), 0, message);
      }
      return;
    case 'empty-output':
      if (message.role === 'tool' && typeof message.content !== 'string') {
        messages[at] = {
          ...message,
          content: message.content.map((part) =>
            part.type === 'tool-result' ? { ...part, output: by > 2 ? '' : ' \n' } : part,
          ),
        };
      }
      return;
    case 'trailing-space':
      if (message.role === 'assistant') {
        messages[at] =
          typeof message.content === 'string'
            ? { ...message, content: `${message.content} \n` }
            : { ...message, content: [...message.content, { type: 'text', text: 'tail \n' }] };
      }
      return;
    case 'blank-part':
      if (message.role !== 'tool' && typeof message.content !== 'string') {
        messages[at] = { ...message, content: [{ type: 'text', text: '\t' }, ...message.content] };
      }
      return;
  }
}

function inputFor(messages: Message[], kind: string): { input?: string | Message } {
  switch (kind) {
    case 'text':
      return { input: 'What next?' };
    case 'blank':
      return { input: '   ' };
    case 'user':
      return { input: { role: 'user', content: [{ type: 'text', text: 'Look at the logs.' }] } };
    case 'answer': {
      const answered = new Set(
        messages.flatMap((message) =>
          typeof message.content === 'string'
            ? []
            : message.content.flatMap((part) =>
                part.type === 'tool-result' ? [part.toolCallId] : [],
              ),
        ),
      );
      const last = [...messages].reverse().find((message) => message.role === 'assistant');
      const pending =
        last && typeof last.content !== 'string'
          ? last.content.filter(
              (part) => part.type === 'tool-call' && !answered.has(part.toolCallId),
            )
          : [];
      if (pending.length === 0) return {};
      return {
        input: {
          role: 'tool',
          content: pending.map((part) => ({
            type: 'tool-result',
            toolCallId: (part as { toolCallId: string }).toolCallId,
            toolName: (part as { toolName: string }).toolName,
            output: 'fresh result',
          })),
        },
      };
    }
    default:
      return {};
  }
}
