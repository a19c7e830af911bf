import { ContextError } from './context-error.js';

/** Options of an {@link UnknownModelError}. */
export interface UnknownModelErrorOptions {
  /** The model id as it was given. */
  model: string;
  /**
   * What fixes it where the model was given, such as "Pass `contextWindow` and
   * `maxOutputTokens`, or add it to `modelOverrides`.".
   *
   * @default a sentence naming both fixes: `contextWindow` and `maxOutputTokens`, or an override
   */
  fix?: string;
  /**
   * The package that raised it.
   *
   * @default 'context-core'
   */
  source?: string;
}

/**
 * Thrown when a model id is not in ctxkit's model table and no explicit limits were given:
 * ctxkit never guesses a window. Its `code` is `unknown_model` and `details.model` holds the id.
 * Use {@link UnknownModelError.isInstance} rather than `instanceof`: it also recognizes errors
 * thrown by another copy of this package.
 */
export class UnknownModelError extends ContextError<'unknown_model'> {
  /** The model id as it was given. */
  readonly model: string;

  /** @param options - the model id, and what fixes it */
  constructor(options: UnknownModelErrorOptions) {
    super({
      code: 'unknown_model',
      ...(options.source === undefined ? {} : { source: options.source }),
      message:
        `Unknown model ${JSON.stringify(options.model)}: ctxkit's model table has no entry for ` +
        `it, and ctxkit does not guess a context window. ${options.fix ?? DEFAULT_FIX}`,
      details: { model: options.model },
    });
    this.name = 'UnknownModelError';
    this.model = options.model;
  }

  /**
   * Whether `error` is an UnknownModelError (code `unknown_model`) from any copy of ctxkit.
   *
   * @param error - any value, such as what a `catch` caught
   * @returns whether it is one
   */
  static override isInstance(error: unknown): error is UnknownModelError {
    return ContextError.isInstance(error, 'unknown_model');
  }
}

// --- internal helpers ---

const DEFAULT_FIX =
  'Pass its limits explicitly (`contextWindow` and `maxOutputTokens`), or add ' +
  '`{ contextWindow, maxOutputTokens }` for it to the overrides (`overrides` of getModelInfo, ' +
  '`modelOverrides` of createContextPipeline).';
