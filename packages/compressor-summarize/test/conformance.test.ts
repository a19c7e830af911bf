import { testCompressor } from '@ctxkit/context-core/testing';
import { createExtractiveSummarizer, createSummarizingCompressor } from '../src/index.js';

// Random histories of up to ~100k tokens under budgets from a few tokens up: the whole contract
// holds, including the budget (a summary is cut to its room, and trimming takes over when the
// newest unit leaves none).
testCompressor({
  name: 'createSummarizingCompressor({ summarize: createExtractiveSummarizer() })',
  create: () => createSummarizingCompressor({ summarize: createExtractiveSummarizer() }),
});
testCompressor({
  name: 'createSummarizingCompressor({ keepRecentTokens: 500, maxSummaryTokens: 200 })',
  create: () =>
    createSummarizingCompressor({
      summarize: createExtractiveSummarizer({ maxSummaryChars: 20_000 }),
      keepRecentTokens: 500,
      maxSummaryTokens: 200,
    }),
});
