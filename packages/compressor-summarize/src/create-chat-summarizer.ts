import {
  countMessageTokens,
  type Message,
  type OptionKeys,
  optionChecker,
  resolveModelLimits,
} from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { DEFAULT_SUMMARY_PROMPT } from './default-summary-prompt.js';
import { renderTranscript } from './render-transcript.js';
import type { SummarizeOptions, Summarizer } from './summarizer.js';
import { MIN_SUMMARIZER_INPUT_TOKENS, modelInputTokens } from './summarizer-input-limit.js';
import { SOURCE } from './summarizer-source.js';

/**
 * Sends a prompt to a chat model and returns the text of its answer; an adapter over whatever
 * client you already have (an OpenAI-compatible endpoint, a provider SDK). It should honour
 * `signal` and throw when the call fails.
 *
 * @param messages - the prompt: the system prompt, then a user message with the transcript
 * @param options - the call's abort signal
 * @returns the text of the model's answer
 */
export type ChatComplete = (messages: Message[], options: SummarizeOptions) => Promise<string>;

/** Options of {@link createChatSummarizer}. */
export interface ChatSummarizerOptions {
  /** Calls the model. */
  complete: ChatComplete;
  /**
   * The system prompt.
   *
   * @default {@link DEFAULT_SUMMARY_PROMPT}
   */
  prompt?: string;
  /**
   * Characters of each tool output, tool-call input and reasoning sent to the model.
   *
   * @default 2000
   */
  maxToolChars?: number;
  /**
   * The id of the model `complete` calls, looked up in core's model table (`getModelInfo`) for
   * the size of its window. An id the table lacks throws an `UnknownModelError` unless
   * `contextWindow` is given.
   *
   * @default none: the window comes from `contextWindow` or `maxInputTokens`
   */
  model?: string;
  /**
   * The context window of the model `complete` calls, in tokens; wins over the table.
   *
   * @default the window the table gives for `model`
   */
  contextWindow?: number;
  /**
   * The largest answer of that model, in tokens; wins over the table.
   *
   * @default the table's value for `model`; without one, 4,096 tokens are kept for the answer
   */
  maxOutputTokens?: number;
  /**
   * Most tokens of messages and previous summary one call takes (see
   * {@link Summarizer.maxInputTokens}). At least 256. One of `model`, `contextWindow` and
   * `maxInputTokens` is required: the summarizer does not guess a window.
   *
   * @default what the model's window leaves beside the answer (its `maxOutputTokens`, at most
   *   4,096) and the prompt
   */
  maxInputTokens?: number;
}

/**
 * A {@link Summarizer} on a chat model: each call sends `prompt` as the system message and a user
 * message holding the previous summary and a transcript of the new messages (`renderTranscript`:
 * tool outputs, tool-call inputs and reasoning cut to `maxToolChars`, images and files named
 * without their bytes), and returns the model's text as the new summary.
 * Its `maxInputTokens` tells the summarizing compressor how much one call may be given, so that
 * the request fits the model's window (as far as the compressor's counter matches the model's
 * tokenizer): the window less the answer and the prompt (counted with core's heuristic counter),
 * unless `maxInputTokens` is given.
 *
 * @param options - the model call, its window and what is sent to it
 * @returns a frozen summarizer with `maxInputTokens` set
 * @throws InvalidOptionError (`invalid_option`) at creation when `complete` is not a function,
 *   `prompt` or `model` is not a non-empty string, `maxToolChars` is not a whole number,
 *   `contextWindow` or `maxOutputTokens` is not a positive whole number, `maxInputTokens` is not
 *   a whole number of at least 256, none of `model`, `contextWindow` and `maxInputTokens` is
 *   given, or the model's window leaves fewer than 256 tokens beside the prompt and the answer
 * @throws UnknownModelError (`unknown_model`) at creation when `model` is not in the model table
 *   and `contextWindow` is not given
 * @example
 * ```ts
 * const summarize = createChatSummarizer({
 *   complete: async (messages, { signal }) => (await model.complete({ messages, tools: [], signal })).text,
 *   model: 'gpt-4o-mini',
 * });
 * ```
 */
export function createChatSummarizer(options: ChatSummarizerOptions): Summarizer {
  const factory = 'createChatSummarizer';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, OPTION_KEYS);
  const complete = check.requiredFunction<ChatComplete>('complete', options?.complete);
  const prompt = check.text('prompt', options.prompt, DEFAULT_SUMMARY_PROMPT);
  const maxToolChars = check.wholeNumber('maxToolChars', options.maxToolChars, 2_000);
  if (options.model !== undefined) check.text('model', options.model, '');
  const limits = resolveModelLimits(options, { factory, source: SOURCE });
  const given = check.wholeNumber(
    'maxInputTokens',
    options.maxInputTokens,
    undefined,
    MIN_SUMMARIZER_INPUT_TOKENS,
  );
  const maxInputTokens = given ?? (limits && modelInputTokens(limits, promptTokens(prompt)));
  if (maxInputTokens === undefined) {
    throw check.invalid(
      'model',
      options.model,
      'given (or contextWindow, or maxInputTokens): the summarizer needs the size of its model’s window',
    );
  }
  if (maxInputTokens < MIN_SUMMARIZER_INPUT_TOKENS) {
    throw check.invalid(
      options.contextWindow === undefined ? 'model' : 'contextWindow',
      options.contextWindow ?? options.model,
      `a model whose window leaves at least ${MIN_SUMMARIZER_INPUT_TOKENS} tokens beside the prompt and the answer (it leaves ${maxInputTokens})`,
    );
  }
  const summarize = async (
    messages: readonly Message[],
    previousSummary: string | undefined,
    callOptions: SummarizeOptions,
  ) =>
    complete(
      [
        { role: 'system', content: prompt },
        {
          role: 'user',
          content: request(renderTranscript(messages, { maxToolChars }), previousSummary),
        },
      ],
      callOptions,
    );
  return Object.freeze(Object.assign(summarize, { maxInputTokens }));
}

// --- internal helpers ---

/** The user message of a call: the transcript, after the previous summary when there is one. */
function request(transcript: string, previousSummary: string | undefined): string {
  return previousSummary === undefined
    ? `Summarize this conversation.\n\n<conversation>\n${transcript}\n</conversation>`
    : `Update the summary with the messages that followed it.\n\n<previous-summary>\n${previousSummary}\n</previous-summary>\n\n<new-messages>\n${transcript}\n</new-messages>`;
}

/** Tokens of a call without its transcript and summary: the system prompt and the framing. */
function promptTokens(prompt: string): number {
  const counter = createHeuristicCounter();
  return (
    countMessageTokens({ role: 'system', content: prompt }, counter) +
    countMessageTokens({ role: 'user', content: request('', '') }, counter)
  );
}

const OPTION_KEYS = Object.freeze({
  complete: true,
  prompt: true,
  maxToolChars: true,
  model: true,
  contextWindow: true,
  maxOutputTokens: true,
  maxInputTokens: true,
} satisfies OptionKeys<ChatSummarizerOptions>);
