import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';

/** The conversation {@link recordConversation} records. */
export const CONVERSATION = 'build-doctor';

/**
 * A SQLite file written by the real pipeline: the provider stores an agent's steps (each reads a
 * file of about 3,000 characters), and before every step the context manager (priced as gpt-4o,
 * a 4,000-token budget) fits the stored history and records its `context.compressed` event in
 * the same file. Later steps no longer fit, so old messages are dropped; each step extends the
 * last, so the cost predictor reads a cached prefix.
 *
 * @param steps - tool-calling steps, one build each, plus the first build
 * @returns the file and how many builds it holds
 */
export async function recordConversation(steps = 8): Promise<{ file: string; builds: number }> {
  const file = join(mkdtempSync(join(tmpdir(), 'ctxkit-inspector-')), 'conversation.sqlite');
  const provider = createSqliteProvider({ filename: file });
  const manager = createContextManager({ model: 'gpt-4o', maxTokens: 4_000, events: provider });
  const fitStored = async () => {
    const history = await provider.getHistory(CONVERSATION);
    await manager.fit(history, { system: 'You are a build doctor.', conversationId: CONVERSATION });
  };
  await provider.append(CONVERSATION, { role: 'user', content: 'Find why the build fails.' });
  await fitStored();
  for (let step = 0; step < steps; step++) {
    await provider.append(CONVERSATION, stepMessages(step));
    await fitStored();
  }
  await provider.close();
  return { file, builds: steps + 1 };
}

function stepMessages(step: number): Message[] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${step}: reading the next file.` },
        {
          type: 'tool-call',
          toolCallId: `call-${step}`,
          toolName: 'read_file',
          input: { path: `src/module-${step}.ts` },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `call-${step}`,
          toolName: 'read_file',
          output: `export const value${step} = ${JSON.stringify(`line ${step} `.repeat(400))};`,
        },
      ],
    },
  ];
}
