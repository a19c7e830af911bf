import {
  createChatSummarizer,
  createSummarizingCompressor,
  SUMMARY_HEADER,
} from '@ctxkit/compressor-summarize';
import { createContextManager } from '@ctxkit/context-manager';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { describe, expect, it } from 'vitest';
import { chatComplete, contextTrimmer } from '../src/index.js';

const SYSTEM = 'You answer questions about the build logs.';

function chat(turns: number): BaseMessage[] {
  const messages: BaseMessage[] = [new SystemMessage(SYSTEM)];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push(new HumanMessage(`Question ${turn}: ${'why does it fail? '.repeat(25)}`));
    messages.push(new AIMessage(`Answer ${turn}: ${'a missing file. '.repeat(25)}`));
  }
  messages.push(new HumanMessage('And now?'));
  return messages;
}

describe('chatComplete', () => {
  it('lets compressor-summarize summarize through your chat model, the system prompt inside the messages kept out of the summary', async () => {
    const summaryModel = fakeModel().respond(
      new AIMessage('## Goal\nFind why the build fails.\n## Found\nA missing file.'),
    );
    const summarize = createChatSummarizer({
      complete: chatComplete(summaryModel),
      contextWindow: 32_000,
    });
    const manager = createContextManager({
      model: 'gpt-4o',
      maxTokens: 3_000,
      compressor: createSummarizingCompressor({ summarize, keepRecentTokens: 1_000 }),
    });
    const input = chat(30);

    const output = await contextTrimmer({ manager, keepFirstUserMessage: false }).invoke(input);

    // The model was asked once: the summarizer's own system prompt and the transcript.
    expect(summaryModel.calls).toHaveLength(1);
    const [prompt, transcript] = (summaryModel.calls[0]?.messages ?? []) as BaseMessage[];
    expect(prompt).toBeInstanceOf(SystemMessage);
    expect(transcript).toBeInstanceOf(HumanMessage);
    expect(transcript?.text).toContain('Question 0');
    expect(transcript?.text).not.toContain(SYSTEM);
    // The system message stays first, as it was; the summary follows it; the newest turn ends.
    expect(output[0]).toBe(input[0]);
    expect(output[1]).toBeInstanceOf(HumanMessage);
    expect(output[1]?.text).toContain(SUMMARY_HEADER);
    expect(output[1]?.text).toContain('A missing file.');
    expect(output.at(-1)).toBe(input.at(-1));
    expect(output.filter((message) => message.type === 'system')).toHaveLength(1);
    expect(output.length).toBeLessThan(input.length);
  });

  it('passes the abort signal to the model', async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const model = {
      invoke: async (_: BaseMessage[], options?: { signal?: AbortSignal }) => {
        seen.push(options?.signal);
        return { text: 'summary' };
      },
    };
    const signal = new AbortController().signal;
    const text = await chatComplete(model)(
      [
        { role: 'system', content: 'Summarize.' },
        { role: 'user', content: 'Transcript.' },
      ],
      { signal },
    );
    expect(text).toBe('summary');
    expect(seen).toEqual([signal]);
  });
});
