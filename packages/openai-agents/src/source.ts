/** The package's name in error messages: `[ctxkit/openai-agents]`. */
export const SOURCE = 'openai-agents';

/**
 * The key under which a converted message keeps what ctxkit has no field for (`providerOptions`
 * of messages and parts), so that the way back rebuilds the Agents SDK item exactly.
 */
export const PROVIDER_KEY = 'openaiAgents';
