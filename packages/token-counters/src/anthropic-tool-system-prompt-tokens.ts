import { checkName, checkOneOf } from './check-option.js';
import { claudeModelVersion } from './claude-model-version.js';

/** Anthropic's `tool_choice` types. */
export type AnthropicToolChoice = 'auto' | 'none' | 'any' | 'tool';

/** The `tool_choice` types, for checks and lists. */
export const ANTHROPIC_TOOL_CHOICES: readonly AnthropicToolChoice[] = Object.freeze([
  'auto',
  'none',
  'any',
  'tool',
]);

/** Tokens of the tool-use system prompt: with `tool_choice` auto or none, and any or tool. */
export interface AnthropicToolSystemPrompt {
  /** With `tool_choice` `auto` or `none`. */
  readonly autoOrNone: number;
  /** With `tool_choice` `any` or `tool`. */
  readonly anyOrTool: number;
}

/** Where {@link ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS} comes from. */
export const ANTHROPIC_TOOL_SYSTEM_PROMPT_SOURCE =
  'https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview';

/**
 * The system prompt Anthropic adds to a request that has at least one tool, in tokens, keyed by
 * `<family>-<major>.<minor>` ("Pricing", "Tool use system prompt token count"; the revision that
 * lists Claude Opus 4.8). Figures change between revisions (an earlier one gave 346 and 313 for
 * Claude Opus 4 and Sonnet 4); the newest are used.
 */
export const ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS: Readonly<
  Record<string, AnthropicToolSystemPrompt>
> = Object.freeze({
  'opus-4.8': prompt(290, 410),
  'opus-4.7': prompt(675, 804),
  'opus-4.6': prompt(497, 589),
  'opus-4.5': prompt(496, 588),
  'opus-4.1': prompt(313, 315),
  'opus-4.0': prompt(313, 315),
  'sonnet-5.0': prompt(354, 474),
  'sonnet-4.6': prompt(497, 589),
  'sonnet-4.5': prompt(496, 588),
  'sonnet-4.0': prompt(313, 315),
  'haiku-4.5': prompt(496, 588),
  'haiku-3.5': prompt(264, 355),
});

/**
 * Tokens of the tool-use system prompt Anthropic adds when a request has tools. A model the
 * table does not list (a newer one) is given the table's largest figure, 804, so that a budget
 * never undercounts it.
 *
 * @param model - A Claude model id such as `claude-sonnet-4-5-20250929`.
 * @param toolChoice - The request's `tool_choice` type; `auto` by default.
 * @returns the system prompt's tokens
 * @throws InvalidOptionError (`invalid_option`) when `model` is empty or `toolChoice` is not
 *   one of `auto`, `none`, `any`, `tool`
 * @see https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview ("Pricing")
 */
export function anthropicToolSystemPromptTokens(
  model: string,
  toolChoice: AnthropicToolChoice = 'auto',
): number {
  const caller = 'anthropicToolSystemPromptTokens';
  checkName(caller, 'model', model);
  const choice = checkOneOf(caller, 'toolChoice', toolChoice, ANTHROPIC_TOOL_CHOICES);
  const version = claudeModelVersion(model);
  const row =
    version === undefined
      ? undefined
      : ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS[`${version.family}-${version.major}.${version.minor}`];
  if (row === undefined) return LARGEST;
  return choice === 'auto' || choice === 'none' ? row.autoOrNone : row.anyOrTool;
}

// --- internal helpers ---

function prompt(autoOrNone: number, anyOrTool: number): AnthropicToolSystemPrompt {
  return Object.freeze({ autoOrNone, anyOrTool });
}

/** The largest figure of the table, for models it does not list. */
const LARGEST = Math.max(
  ...Object.values(ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS).flatMap((row) => [
    row.autoOrNone,
    row.anyOrTool,
  ]),
);
