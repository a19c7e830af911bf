/** The package's name in error messages: `[ctxkit/context-manager]`. */
export const SOURCE = 'context-manager';
