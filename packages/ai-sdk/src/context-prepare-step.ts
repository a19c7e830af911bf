import type { FitReport, Message, OptionKeys, ToolDeclaration } from '@ctxkit/context-core';
import type { LanguageModelUsage, ModelMessage, SystemModelMessage, ToolSet } from 'ai';
import {
  CONTEXT_ADAPTER_OPTION_KEYS,
  type ContextAdapterOptions,
  checkAdapterOptions,
} from './context-adapter-options.js';
import { sdkFitter } from './fit-sdk-messages.js';
import { stepUsage } from './reported-usage.js';
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

/** What `prepareStep` is given of a step run before: its number and its usage. */
export interface PreviousStep {
  /** The step's number, from 0. */
  readonly stepNumber: number;
  /** The tokens the step used, as the provider reported them. */
  readonly usage: LanguageModelUsage;
}

/** What `prepareStep` is given that the fit reads. */
export interface PrepareStepInput {
  /** The messages of the step. */
  messages: ModelMessage[];
  /** The step's system prompt. */
  instructions?: string | SystemModelMessage | SystemModelMessage[] | undefined;
  /**
   * The steps of this call run so far: the usage of the one before is recorded with the report of
   * the fit made for it.
   *
   * @default none: no usage is recorded
   */
  steps?: readonly PreviousStep[];
  /**
   * The number of this step, from 0.
   *
   * @default the number of `steps`
   */
  stepNumber?: number;
}

/**
 * A `prepareStep` for `generateText`, `streamText` and the agent classes that fits each step's
 * `messages` to the model's window, with the step's instructions and the given tools counted.
 *
 * Each step is also given the steps run before; the input tokens the previous step reports
 * (`usage.inputTokens`, cache reads and writes included) go to the manager's `recordUsage` with
 * the report of the fit this function made for that step, so that later fits budget with the
 * provider's count. A fit is paired with its step by the call's `steps` array (the AI SDK passes
 * the same one at every step of a call) and the step's number; nothing is paired across calls,
 * and each report is recorded at most once. The last step of a call has no step after it, so its
 * usage is not seen here (the middleware sees every call's). `recordUsage: false` turns this off.
 *
 * @param options - the manager's options or a ready `manager`, the tools, the conversation, the
 *   handlers
 * @returns the `prepareStep` function: it returns `{ messages }`
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take;
 *   (`invalid_option`) for a `conversationId` that is not valid or a `recordUsage` that is not a
 *   boolean
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
  const fitter = sdkFitter(options, 'model-message');
  const recording = options.recordUsage !== false;
  // The fit made for the latest step of each call, by the call's `steps` array.
  const pending = new WeakMap<readonly PreviousStep[], StepFit>();
  return async ({ messages, instructions, steps, stepNumber }) => {
    if (recording && steps !== undefined) recordPrevious(pending, steps, fitter.recordUsage);
    const tools: readonly ToolDeclaration[] =
      options.tools === undefined ? [] : await toolSetDeclarations(options.tools);
    const system = instructionMessages(instructions);
    const { messages: fitted, report } = await fitter.fit(messages as readonly SdkMessage[], {
      tools,
      ...(system === undefined ? {} : { system }),
    });
    if (recording && steps !== undefined) {
      pending.set(steps, { stepNumber: stepNumber ?? steps.length, report });
    }
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

/** The fit made for one step. */
interface StepFit {
  readonly stepNumber: number;
  readonly report: FitReport;
}

/**
 * Records the usage of the step the call's pending fit was made for, once that step is among the
 * steps run: the step at that index, carrying that number.
 */
function recordPrevious(
  pending: WeakMap<readonly PreviousStep[], StepFit>,
  steps: readonly PreviousStep[],
  record: (report: FitReport, usage: ReturnType<typeof stepUsage>) => void,
): void {
  const fit = pending.get(steps);
  if (fit === undefined) return;
  const step = steps[fit.stepNumber];
  if (step === undefined || step.stepNumber !== fit.stepNumber) return;
  pending.delete(steps);
  record(fit.report, stepUsage(step.usage));
}
