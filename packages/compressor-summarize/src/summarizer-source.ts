/** The `source` every ContextError of this package carries: `[ctxkit/compressor-summarize]`. */
export const SOURCE = 'compressor-summarize';
