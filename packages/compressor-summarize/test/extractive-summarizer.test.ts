import type { Message } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer } from '../src/index.js';

describe('createExtractiveSummarizer', () => {
  it('keeps the reference of an offloaded output that its line would cut off', async () => {
    const header = `[read_file output stored as ${'x'.repeat(40)} ref=toolout_0123456789abcdef]`;
    const message: Message = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: header }],
    };
    const summarize = createExtractiveSummarizer({ lineChars: 20 });
    const summary = await summarize([message], undefined, {});
    expect(summary).toContain('toolout_0123456789abcdef');
    expect(summary.length).toBeLessThan(header.length + 20);
  });
});
