import type { CompressorGuarantees } from '@ctxkit/context-core';

/**
 * The guarantees of a stage that reshapes messages on every call and never drops one (or drops
 * only an assistant's reasoning-only message): it cannot promise to fit the budget, nor to leave
 * a history that fits unchanged; it keeps tool pairs and the first user message.
 */
export const RESHAPING: CompressorGuarantees = Object.freeze({
  fitsBudget: false,
  unchangedWhenFits: false,
  keepsToolPairs: true,
  keepsFirstUser: true,
});
