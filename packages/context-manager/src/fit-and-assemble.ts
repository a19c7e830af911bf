import {
  type ContextManager,
  countTokens,
  FIT_OPTION_KEYS,
  type FitOptions,
  type FitReport,
  type FitResult,
  type Message,
  type OptionKeys,
  optionChecker,
  type PromptAssembler,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';
import { inCounterTokens, inProviderTokens } from './usage-calibration.js';

/** Options of {@link fitAndAssemble}: a fit's options, the assembler and what it adds. */
export interface FitAndAssembleOptions extends FitOptions {
  /** Puts the system prompt, the fitted messages and the input together. */
  assembler: PromptAssembler;
  /**
   * A new input the assembler appends after the fitted messages: counted, never compressed.
   *
   * @default none
   */
  input?: string | Message;
  /**
   * The fit to use: the manager's, or the one `withContextRetry` hands an attempt.
   *
   * @default `manager.fit`
   */
  fit?: (messages: readonly Message[], options?: FitOptions) => Promise<FitResult>;
}

/** What {@link fitAndAssemble} returns. */
export interface AssembledPrompt {
  /** The prompt as the assembler made it: system prompt, fitted messages, input. */
  messages: Message[];
  /** The report of the fit whose messages were assembled. */
  report: FitReport;
  /** The fitted messages, before assembly. */
  fitted: Message[];
}

/**
 * Fits `messages` and assembles the prompt, within the budget (`options.maxTokens`, or the
 * manager's) counting everything the request sends: the assembled prompt and the tools. The
 * input's tokens are set aside before the fit. When what the assembler adds (a notice opening a
 * history that no longer starts with the user, say) pushes the prompt over, the messages are
 * fitted again to what they took less the overshoot, at most three fits in all; a compressor that
 * fits its budget makes this end. Once the manager has learnt from reported usage
 * (`recordUsage`), the budget is compared in the counter's tokens as the fit's report calibrates
 * it (`report.calibration`), so an input the provider counts more of than the counter does is
 * made room for too. The caller checks the final prompt (the pipeline does).
 *
 * @param manager - the manager whose counter, tool pricing and budget are used
 * @param messages - the messages to fit, oldest first
 * @param options - the fit's options, the assembler, the input, the fit to use
 * @returns the prompt, the fit's report and the fitted messages
 * @throws BudgetError (`budget_exceeded`) when the fit cannot leave room, as `fit` does
 * @throws InvalidMessageError (`invalid_message`) for messages `fit` refuses
 */
export async function fitAndAssemble(
  manager: ContextManager,
  messages: readonly Message[],
  options: FitAndAssembleOptions,
): Promise<AssembledPrompt> {
  optionChecker(SOURCE, 'fitAndAssemble').knownKeys(options, OPTION_KEYS);
  const { assembler, input, fit: fitMessages = manager.fit, ...fitOptions } = options;
  const budget = fitOptions.maxTokens ?? manager.maxTokens;
  const inputTokens =
    input === undefined
      ? 0
      : countTokens(
          [typeof input === 'string' ? { role: 'user', content: input } : input],
          manager.counter,
        );
  let limit = Math.max(1, budget - inputTokens);
  let built: AssembledPrompt | undefined;
  for (let pass = 0; pass < MAX_FITS; pass += 1) {
    const fitted = await fitMessages(messages, { ...fitOptions, maxTokens: limit });
    built = {
      messages: assembler.assemble({
        system: fitOptions.system === undefined ? [] : (fitOptions.system as string | Message[]),
        history: fitted.messages,
        ...(input === undefined ? {} : { input }),
      }),
      report: fitted.report,
      fitted: fitted.messages,
    };
    // The whole budget in the counter's tokens, as the fit calibrated its own by the provider's
    // reported usage (the input was set aside at the counter's count, which may be short).
    const calibration = fitted.report.calibration ?? UNCALIBRATED;
    const budgetTokens = inCounterTokens(budget, calibration);
    // The tools as the fit counted them: counting them here too would walk them once more.
    const overshoot =
      countTokens(built.messages, manager.counter) + fitted.report.toolTokens - budgetTokens;
    if (overshoot <= 0 || fitted.report.estimatedTokens === 0) break;
    const next = fitted.report.promptTokens - overshoot;
    if (next < 1) break;
    limit = Math.min(budget, inProviderTokens(next, calibration));
  }
  return built as AssembledPrompt;
}

// --- internal helpers ---

/** Most fits of one prompt (see the overshoot loop). */
const MAX_FITS = 3;

/** The calibration of a report from a manager that has none: counts taken as they are. */
const UNCALIBRATED = Object.freeze({ factor: 1, margin: 0 });

const OPTION_KEYS = Object.freeze({
  ...FIT_OPTION_KEYS,
  assembler: true,
  input: true,
  fit: true,
} satisfies OptionKeys<FitAndAssembleOptions>);
