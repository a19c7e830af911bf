/** The package's name in error messages: `[ctxkit/langchain]`. */
export const SOURCE = 'langchain';

/**
 * The `providerOptions` key under which a converted message or part keeps what LangChain has and
 * ctxkit has no field for, so that the conversion back restores it.
 */
export const LANGCHAIN_KEY = 'langchain';
