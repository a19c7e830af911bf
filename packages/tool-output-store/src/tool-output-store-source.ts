/** The `source` every ContextError of this package carries: `[ctxkit/tool-output-store]`. */
export const SOURCE = 'tool-output-store';
