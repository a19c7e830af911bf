import type { FitReport } from '@ctxkit/context-core';

/**
 * The debug line a manager writes per fit: messages and tokens in and out, the budget and its
 * parts, and what each step did.
 *
 * @param report - the fit's report
 * @returns one line
 */
export function fitLogLine(report: FitReport): string {
  const steps = report.steps
    .map((step) => `${step.name} ${step.tokensBefore}->${step.tokensAfter}`)
    .join(', ');
  return (
    `ctxkit fit: ${report.originalCount} -> ${report.compressedCount} messages, ` +
    `${report.originalTokens} -> ${report.estimatedTokens} tokens` +
    (report.uncountedMessages ? ` (${report.uncountedMessages} messages dropped uncounted)` : '') +
    `; prompt ${report.promptTokens} ` +
    `of ${report.maxTokens} (system ${report.systemTokens}, tools ${report.toolTokens}); ` +
    `counter ${report.counter}${steps ? `; steps: ${steps}` : ''}`
  );
}
