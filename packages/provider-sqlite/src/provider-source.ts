/** The `source` every ContextError of this package carries: `[ctxkit/provider-sqlite]`. */
export const SOURCE = 'provider-sqlite';
