import { trimToBudget } from '@ctxkit/compressor-simple';
import { composeCompressors } from '@ctxkit/context-core';
import { testCompressor } from '@ctxkit/context-core/testing';
import { createExtractiveSummarizer, createSummarizingCompressor } from '../src/index.js';

// Random histories of up to ~100k tokens under budgets from a few tokens up: the whole contract
// holds, including the budget (a summary is cut to its room, and without room for one the newest
// whole units that fit are kept; only a newest unit over the budget by itself is left over it).
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
// The composition the docs recommend: trimToBudget after it cuts such a newest unit, and keeps
// the summary the compressor pinned for it.
testCompressor({
  name: 'composeCompressors(createSummarizingCompressor(...), trimToBudget())',
  create: () =>
    composeCompressors(
      createSummarizingCompressor({
        summarize: createExtractiveSummarizer({ maxSummaryChars: 20_000 }),
        keepRecentTokens: 500,
        maxSummaryTokens: 200,
      }),
      trimToBudget(),
    ),
});
