/** The package's name in error messages: `[ctxkit/ai-sdk]`. */
export const SOURCE = 'ai-sdk';
