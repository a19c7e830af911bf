import {
  type ContextManager,
  countTokens,
  type EventSink,
  type FitOptions,
  type FitReport,
  type FitResult,
  type Message,
  type PromptAssembler,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import { compressedEvent } from '@ctxkit/context-manager';

/** What {@link fitPrompt} works with. */
export interface FitPromptParts {
  /** Counts: its counter and tool pricing. */
  manager: ContextManager;
  /** The fit to use: the manager's, or the one `withContextRetry` hands an attempt. */
  fit: (messages: readonly Message[], options: FitOptions) => Promise<FitResult>;
  /** Puts the system prompt and the fitted messages together, repairing what an API would refuse. */
  assembler: PromptAssembler;
  /** Receives the one `context.compressed` event of the prompt. */
  events: EventSink;
  /** The system prompt. */
  system: string;
  /** The tool definitions sent with the prompt. */
  tools: readonly ToolDeclaration[];
  /** The conversation, for the compressor's state and the event. */
  conversationId: string;
  /** Aborts the fit. */
  signal?: AbortSignal;
}

/**
 * The prompt of one model call: `messages` fitted (system prompt and tools counted), then
 * assembled. When what the assembler adds (a `(continued)` opening a history that no longer
 * starts with the user, say) pushes the prompt over the fit's budget, the messages are fitted
 * again to what they took less the overshoot, at most three fits in all, as the library's
 * pipeline does. Records one `context.compressed` event, of the fit that was sent.
 */
export async function fitPrompt(
  messages: readonly Message[],
  parts: FitPromptParts,
): Promise<{ messages: Message[]; report: FitReport }> {
  const { manager, assembler, system, tools, conversationId, signal } = parts;
  const toolTokens = manager.countTools(tools);
  let budget: number | undefined;
  let limit: number | undefined;
  let built: { messages: Message[]; report: FitReport } | undefined;
  for (let pass = 0; pass < MAX_FITS; pass += 1) {
    const fitted = await parts.fit(messages, {
      system,
      tools,
      conversationId,
      ...(limit === undefined ? {} : { maxTokens: limit }),
      ...(signal ? { signal } : {}),
    });
    budget ??= fitted.report.maxTokens;
    built = {
      messages: assembler.assemble({ system, history: fitted.messages }),
      report: fitted.report,
    };
    const overshoot = countTokens(built.messages, manager.counter) + toolTokens - budget;
    if (overshoot <= 0 || fitted.report.estimatedTokens === 0) break;
    limit = Math.max(1, fitted.report.promptTokens - overshoot);
  }
  const sent = built as { messages: Message[]; report: FitReport };
  await parts.events.record(compressedEvent(conversationId, sent.report));
  return sent;
}

// --- internal helpers ---

/** Most fits of one prompt (see the overshoot loop). */
const MAX_FITS = 3;
