import { kitCounter } from '@ctxkit/context-core/testing';
import { createKyselyProvider } from '@ctxkit/provider-sqlite';
import { Agent, type AgentInputItem, run, tool } from '@openai/agents-core';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { contextInputFilter, createProviderSession } from '../src/index.js';
import './postgres-context.js';
import { assistantSays, ScriptedModel } from './scripted-model.js';

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

describe.skipIf(url === '')(`PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('run() keeps a conversation in the session across runs, with the filter fitting each call', async () => {
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
    });
    const provider = createKyselyProvider({ db, counter: kitCounter });
    const session = createProviderSession({ provider, sessionId: `run_${process.pid}` });
    const model = new ScriptedModel((_request, step) =>
      step === 0
        ? [
            {
              type: 'function_call',
              callId: 'call_0',
              name: 'count_rows',
              arguments: '{}',
              status: 'completed',
            },
          ]
        : [assistantSays(step === 1 ? 'There are 42 rows.' : 'Still 42.')],
    );
    const agent = new Agent({
      name: 'db helper',
      model,
      tools: [
        tool({
          name: 'count_rows',
          description: 'Counts the rows.',
          parameters: z.object({}),
          execute: async () => '42',
        }),
      ],
    });
    const callModelInputFilter = contextInputFilter({ maxTokens: 10_000, counter: kitCounter });

    await run(agent, 'How many rows?', { session, callModelInputFilter });
    const second = await run(agent, 'And now?', { session, callModelInputFilter });

    expect(second.finalOutput).toBe('Still 42.');
    const stored = await session.getItems();
    expect(stored.map((item) => ('role' in item ? item.role : item.type))).toEqual([
      'user',
      'function_call',
      'function_call_result',
      'assistant',
      'user',
      'assistant',
    ]);
    // Stored as ctxkit reads it: the result answers its call, whichever batch each came in.
    const history = await provider.getHistory(`run_${process.pid}`);
    expect(history[2]?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'call_0',
        output: { type: 'content', value: [expect.objectContaining({ type: 'text', text: '42' })] },
      }),
    ]);
    const lastInput = model.requests[2]?.input as AgentInputItem[];
    expect(lastInput.slice(0, 5)).toEqual(stored.slice(0, 5));
    await provider.close();
    await db.destroy();
  });
});
