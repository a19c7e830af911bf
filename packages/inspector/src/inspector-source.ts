/** The `source` of the inspector's errors: `[ctxkit/inspector] ...`. */
export const SOURCE = 'inspector';
