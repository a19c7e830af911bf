import type { Provider } from '@ctxkit/token-counters';

/**
 * The provider whose formulas price a model's tools and framing, read from its id: Claude models
 * are Anthropic's, Gemini models Google's, everything else is priced as OpenAI prices it (the
 * format most hosts and open models follow).
 *
 * @param modelId - the model id, as given or as the model table resolved it
 * @returns the provider
 */
export function modelProvider(modelId: string | undefined): Provider {
  const name = (modelId ?? '').toLowerCase();
  if (/(^|[/.:])claude/.test(name)) return 'anthropic';
  if (/(^|[/.:])gemini/.test(name)) return 'gemini';
  return 'openai';
}
