/** The name errors of this package are raised under: `[ctxkit/assembler-standard]`. */
export const SOURCE = 'assembler-standard';
