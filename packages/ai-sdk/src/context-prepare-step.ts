import type { Message, OptionKeys, ToolDeclaration } from '@ctxkit/context-core';
import type { ModelMessage, SystemModelMessage, ToolSet } from 'ai';
import {
  CONTEXT_ADAPTER_OPTION_KEYS,
  type ContextAdapterOptions,
  checkAdapterOptions,
} from './context-adapter-options.js';
import { sdkFitter } from './fit-sdk-messages.js';
import type { SdkMessage } from './sdk-message.js';
import { toolSetDeclarations } from './tool-set-declarations.js';

/** Options of {@link contextPrepareStep}. */
export interface ContextPrepareStepOptions extends ContextAdapterOptions {
  /**
   * The tools the call is given, counted against the budget (`prepareStep` is not told them).
   *
   * @default none: tools are not counted
   */
  tools?: ToolSet;
}

/** What `prepareStep` is given that the fit reads. */
export interface PrepareStepInput {
  /** The messages of the step. */
  messages: ModelMessage[];
  /** The step's system prompt. */
  instructions?: string | SystemModelMessage | SystemModelMessage[] | undefined;
}

/**
 * A `prepareStep` for `generateText`, `streamText` and the agent classes that fits each step's
 * `messages` to the model's window, with the step's instructions and the given tools counted.
 *
 * @param options - the manager's options or a ready `manager`, the tools, the conversation, the
 *   handlers
 * @returns the `prepareStep` function: it returns `{ messages }`
 * @throws BudgetError (`budget_exceeded`), from a step, when the instructions, the tools and what
 *   the compressor must keep do not fit the budget
 * @throws InvalidMessageError (`invalid_message`), from a step, for messages that reuse one
 *   `toolCallId` for two calls
 * @example
 * ```ts
 * await generateText({ model, tools, messages, prepareStep: contextPrepareStep({ model: 'gpt-4o', tools }) });
 * ```
 */
export function contextPrepareStep(
  options: ContextPrepareStepOptions,
): (step: PrepareStepInput) => Promise<{ messages: ModelMessage[] }> {
  checkAdapterOptions(options, 'contextPrepareStep', OPTION_KEYS);
  const fitMessages = sdkFitter(options, 'model-message');
  return async ({ messages, instructions }) => {
    const tools: readonly ToolDeclaration[] =
      options.tools === undefined ? [] : await toolSetDeclarations(options.tools);
    const system = instructionMessages(instructions);
    const fitted = await fitMessages(messages as readonly SdkMessage[], {
      tools,
      ...(system === undefined ? {} : { system }),
    });
    return { messages: fitted as ModelMessage[] };
  };
}

function instructionMessages(
  instructions: PrepareStepInput['instructions'],
): Message[] | undefined {
  if (instructions === undefined) return undefined;
  const list =
    typeof instructions === 'string'
      ? [{ role: 'system' as const, content: instructions }]
      : Array.isArray(instructions)
        ? instructions
        : [instructions];
  return list.map((message) => ({ role: 'system', content: message.content }));
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  ...CONTEXT_ADAPTER_OPTION_KEYS,
  tools: true,
} satisfies OptionKeys<ContextPrepareStepOptions>);
