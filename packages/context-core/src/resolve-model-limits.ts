import { assertModelOverrides, findModelInfo, type ModelTableEntry } from './model-table.js';
import { optionChecker } from './option-checker.js';
import { UnknownModelError } from './unknown-model-error.js';

/**
 * The options through which a factory is told which model it serves: the same names, with the
 * same meaning, wherever a model id can be given.
 */
export interface ModelLimitOptions {
  /**
   * A model id, looked up in the model table (see `getModelInfo`).
   *
   * @default `undefined`: no lookup
   */
  model?: string;
  /**
   * The model's context window in tokens; wins over the table, and is needed for a model it lacks.
   *
   * @default the window of `model` in the model table
   */
  contextWindow?: number;
  /**
   * The model's largest answer in tokens; wins over the table.
   *
   * @default the largest answer of `model` in the model table, when it is known
   */
  maxOutputTokens?: number;
  /**
   * Rows that replace or extend the table, by model id.
   *
   * @default {}
   */
  modelOverrides?: Readonly<Record<string, ModelTableEntry>>;
}

/** The limits {@link resolveModelLimits} found. */
export interface ResolvedModelLimits {
  /** The context window in tokens. */
  contextWindow: number;
  /** The largest answer in tokens, when given or known from the table. */
  maxOutputTokens?: number;
}

/** Where {@link resolveModelLimits} is called from, for its errors. */
export interface ResolveModelLimitsContext {
  /** The factory whose options these are, such as `createContextPipeline`. */
  factory: string;
  /** The package that raises the errors; defaults to `context-core`. */
  source?: string;
  /** Whether the factory takes `modelOverrides`, so that the error of an unknown model names it. */
  acceptsOverrides?: boolean;
}

/**
 * The limits of the model `options` name: `contextWindow` and `maxOutputTokens` when given, the
 * model table's row of `model` (or of `modelOverrides`) for what is not. Undefined when neither
 * `model` nor `contextWindow` is given. Throws an {@link UnknownModelError} for a `model` that
 * nothing matches when `contextWindow` is not given (ctxkit never guesses a window), and a
 * `ContextError` (`invalid_option`) for a limit that is not a positive whole number.
 *
 * @param options - the factory's options that name the model
 * @param context - the factory, for the errors
 * @returns the limits, or `undefined` when neither `model` nor `contextWindow` is given
 * @throws UnknownModelError (`unknown_model`) for an unknown `model` without `contextWindow`
 * @throws InvalidOptionError (`invalid_option`) for a limit that is not a positive whole number
 */
export function resolveModelLimits(
  options: ModelLimitOptions,
  context: ResolveModelLimitsContext,
): ResolvedModelLimits | undefined {
  const { model, modelOverrides } = options;
  const check = optionChecker(context.source ?? 'context-core', context.factory);
  assertModelOverrides(
    modelOverrides,
    context.source ?? 'context-core',
    context.factory,
    'modelOverrides',
  );
  const contextWindow = check.wholeNumber('contextWindow', options.contextWindow, undefined, 1);
  const maxOutputTokens = check.wholeNumber(
    'maxOutputTokens',
    options.maxOutputTokens,
    undefined,
    1,
  );
  const info =
    model === undefined
      ? undefined
      : findModelInfo(model, modelOverrides ? { overrides: modelOverrides } : {});
  if (model !== undefined && info === undefined && contextWindow === undefined) {
    throw new UnknownModelError({
      model,
      ...(context.source === undefined ? {} : { source: context.source }),
      fix:
        `Pass its limits to ${context.factory}: \`contextWindow\` (and \`maxOutputTokens\`)` +
        (context.acceptsOverrides ? ', or add it to `modelOverrides`.' : '.'),
    });
  }
  const window = contextWindow ?? info?.contextWindow;
  if (window === undefined) return undefined;
  const output = maxOutputTokens ?? info?.maxOutputTokens;
  return output === undefined
    ? { contextWindow: window }
    : { contextWindow: window, maxOutputTokens: output };
}
