import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, it } from 'vitest';
import {
  createChatSummarizer,
  createExtractiveSummarizer,
  createSummarizingCompressor,
  renderTranscript,
} from '../src/index.js';

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'createChatSummarizer',
    () => createChatSummarizer({ complete: async () => 'x', promt: 'p' } as never),
    'promt',
    'prompt',
  ],
  [
    'createExtractiveSummarizer',
    () => createExtractiveSummarizer({ lineChar: 5 } as never),
    'lineChar',
    'lineChars',
  ],
  [
    'createSummarizingCompressor',
    () =>
      createSummarizingCompressor({
        summarize: createExtractiveSummarizer(),
        keepRecentToken: 5,
      } as never),
    'keepRecentToken',
    'keepRecentTokens',
  ],
  [
    'renderTranscript',
    () => renderTranscript([], { maxToolChar: 5 } as never),
    'maxToolChar',
    'maxToolChars',
  ],
];

describe('options objects of compressor-summarize', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});
