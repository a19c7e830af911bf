import type { ModelInfo } from '@ctxkit/context-core';
import type { Model } from '@mariozechner/pi-ai';

/**
 * ctxkit's model info for a pi-ai model: its id, its context window and its largest answer, as
 * pi-ai's model says (pi-ai knows the windows of the models it serves; ctxkit's table need not).
 *
 * @param model - the pi-ai model
 * @returns the info a context manager takes as its `model`
 */
export function piModelInfo(model: Model<string>): ModelInfo {
  return {
    id: model.id,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxTokens,
  };
}

/**
 * Whether `model` is a pi-ai model rather than a model id or ctxkit's model info.
 *
 * @param model - the value given as a model
 * @returns whether it has pi-ai's `api`, `provider` and `contextWindow`
 */
export function isPiModel(model: unknown): model is Model<string> {
  return (
    typeof model === 'object' &&
    model !== null &&
    typeof (model as Model<string>).api === 'string' &&
    typeof (model as Model<string>).provider === 'string' &&
    typeof (model as Model<string>).contextWindow === 'number'
  );
}
