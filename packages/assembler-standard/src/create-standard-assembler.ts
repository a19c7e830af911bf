import {
  type AssembleInput,
  type ContextError,
  InvalidOptionError,
  type Message,
  type OptionKeys,
  optionChecker,
  type PromptAssembler,
} from '@ctxkit/context-core';
import { assemblePrompt } from './assemble-prompt.js';
import { describeValue } from './describe-value.js';
import { SOURCE } from './package-source.js';
import type { PromptRepair } from './prompt-repair.js';
import type { OrphanPolicy } from './repair-tool-pairs.js';

/** Default text of the user message put before a conversation that starts with the assistant. */
export const DEFAULT_LEADING_USER_TEXT = '(continued)';

/** Default output given to a tool result with no visible output. */
export const DEFAULT_EMPTY_OUTPUT_TEXT = '(no output)';

/** Options of {@link createStandardAssembler}. */
export interface StandardAssemblerOptions {
  /**
   * A tool result without its call, or a call without its result: drop and report, or throw.
   *
   * @default 'drop'
   */
  orphans?: OrphanPolicy;
  /**
   * Text of the user message put first when the conversation would start with the assistant.
   *
   * @default {@link DEFAULT_LEADING_USER_TEXT}, `'(continued)'`
   */
  leadingUserText?: string;
  /**
   * Output given to tool results whose output is blank (Anthropic rejects empty results).
   *
   * @default {@link DEFAULT_EMPTY_OUTPUT_TEXT}, `'(no output)'`
   */
  emptyOutputText?: string;
  /**
   * Called with each repair, in order, after each `assemble` has put the prompt together.
   *
   * @param repair - one change made to the prompt
   * @default none: repairs are not reported
   */
  onRepair?: (repair: PromptRepair) => void;
}

/**
 * The standard prompt assembler: system, then the compressed history, then the new input (a string
 * becomes a user message), as a prompt both `toOpenAIChat` and `toAnthropic` accept. Every system
 * message goes first (the given ones, then those of the history, in order); a summary
 * (`meta.kind: 'summary'`) goes right after them wherever it was, with its tool unit when it calls
 * or answers a tool. Then it repairs what the APIs would reject, reporting each repair to
 * `onRepair`: tool pairs and approvals as {@link repairToolPairs} does (orphans dropped, or
 * thrown with `orphans: 'throw'`; late results and approval responses moved up; a
 * provider-executed call answered in its own message kept), blank text parts removed, messages
 * with nothing to send dropped (reasoning alone is not enough), tool results without visible
 * output given `emptyOutputText` (blank text items of content output removed), a user message
 * with `leadingUserText` put first when the conversation would start with the assistant, and
 * trailing whitespace trimmed from the last text of a final assistant message. Every part it
 * does not remove or repair comes out deep-equal to what went in, `providerOptions` included
 * (the same object); sealed reasoning is never edited. Input messages are never mutated;
 * changed messages are copies without cached token counts, unchanged ones are passed through.
 *
 * @param options - how orphans are handled, the texts of repairs, and who hears of them
 * @returns a frozen `PromptAssembler`
 * @throws InvalidOptionError (`invalid_option`) at creation when `orphans` is neither `'drop'`
 *   nor `'throw'`, `leadingUserText` or `emptyOutputText` has no visible character, or `onRepair`
 *   is not a function
 * @throws InvalidMessageError from `assemble`: `invalid_message` for malformed input (naming
 *   `system`, `history` or `input` and the index), `orphan_tool_call` / `orphan_tool_result` for
 *   an orphan under `orphans: 'throw'`, `empty_prompt` when nothing but system messages is left
 */
export function createStandardAssembler(options: StandardAssemblerOptions = {}): PromptAssembler {
  optionChecker(SOURCE, 'createStandardAssembler').knownKeys(options, OPTION_KEYS);
  const orphans = options.orphans ?? 'drop';
  if (orphans !== 'drop' && orphans !== 'throw') {
    throw invalidOption('orphans', orphans, '"drop" or "throw"');
  }
  const settings = Object.freeze({
    orphans,
    leadingUserText: textOption(
      'leadingUserText',
      options.leadingUserText,
      DEFAULT_LEADING_USER_TEXT,
    ),
    emptyOutputText: textOption(
      'emptyOutputText',
      options.emptyOutputText,
      DEFAULT_EMPTY_OUTPUT_TEXT,
    ),
  });
  const onRepair = options.onRepair;
  if (onRepair !== undefined && typeof onRepair !== 'function') {
    throw invalidOption('onRepair', onRepair, 'a function');
  }
  return Object.freeze({
    /**
     * The prompt for `input`, repaired so that both wire formats accept it.
     *
     * @param input - the system prompt, the compressed history and the new input
     * @returns the messages to send, system messages first
     * @throws InvalidMessageError (`invalid_message`, `orphan_tool_call`, `orphan_tool_result`,
     *   `empty_prompt`) as {@link createStandardAssembler} describes
     */
    assemble(input: AssembleInput): Message[] {
      const { messages, repairs } = assemblePrompt(input, settings);
      if (onRepair) for (const repair of repairs) onRepair(repair);
      return messages;
    },
  });
}

// --- internal helpers ---

function textOption(option: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/\S/.test(value)) {
    throw invalidOption(option, value, 'a string with visible text');
  }
  return value;
}

function invalidOption(option: string, value: unknown, expected: string): ContextError {
  return new InvalidOptionError({
    code: 'invalid_option',
    source: SOURCE,
    message: `createStandardAssembler: option ${option} must be ${expected}, got ${describeValue(value)}.`,
    details: { option, value },
  });
}

const OPTION_KEYS = Object.freeze({
  orphans: true,
  leadingUserText: true,
  emptyOutputText: true,
  onRepair: true,
} satisfies OptionKeys<StandardAssemblerOptions>);
