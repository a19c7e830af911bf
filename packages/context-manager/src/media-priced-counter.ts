import { InvalidOptionError, type TokenCounter } from '@ctxkit/context-core';
import { withMediaPricing } from '@ctxkit/token-counters';
import { modelProvider } from './model-provider.js';

/**
 * `counter`, pricing images and files as the model's provider does (`withMediaPricing` of
 * `@ctxkit/token-counters`: an image, or a file whose media type is an image, by the provider's
 * formula at the size its header gives; a PDF by its pages; a text file by its text), when the
 * model is known and `counter` has no `countMedia` of its own. A counter with `countMedia`, no
 * model, or a model whose image formula ctxkit does not have, leaves `counter` as it is (media are
 * then priced by core's `estimateMediaTokens`).
 *
 * @param counter - the counter the manager counts text with
 * @param modelId - the model id, when the manager has one
 * @returns the counter the manager counts with
 */
export function mediaPricedCounter(
  counter: TokenCounter,
  modelId: string | undefined,
): TokenCounter {
  if (modelId === undefined || typeof counter.countMedia === 'function') return counter;
  try {
    return withMediaPricing(counter, { provider: modelProvider(modelId), model: modelId });
  } catch (error) {
    // The provider's formula does not know this model: its media stay estimated.
    if (error instanceof InvalidOptionError) return counter;
    throw error;
  }
}
