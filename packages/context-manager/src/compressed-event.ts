import type { ContextCompressedEvent, FitReport } from '@ctxkit/context-core';

/**
 * The `context.compressed` event of a fit: its counts, tokens, budget and steps, its predicted
 * cost when there is one, and every change without the changed messages themselves (so an inspector can show later what became of
 * each message).
 *
 * @param conversationId - the conversation fitted
 * @param report - the fit's report
 * @returns the event, stamped now
 */
export function compressedEvent(conversationId: string, report: FitReport): ContextCompressedEvent {
  return {
    type: 'context.compressed',
    conversationId,
    at: new Date().toISOString(),
    payload: {
      originalCount: report.originalCount,
      compressedCount: report.compressedCount,
      originalTokens: report.originalTokens,
      ...(report.uncountedMessages === undefined
        ? {}
        : { uncountedMessages: report.uncountedMessages }),
      estimatedTokens: report.estimatedTokens,
      budgetTokens: report.budgetTokens,
      steps: report.steps,
      changes: report.changes.map(({ message: _sent, ...change }) => change),
      ...(report.predictedCost === undefined ? {} : { predictedCost: report.predictedCost }),
    },
  };
}
