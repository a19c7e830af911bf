import { fileURLToPath } from 'node:url';
import type { Message } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../src/chat-model.js';
import { createScriptedModel } from '../src/scripted-model.js';
import { createOpsTools } from '../src/tools/ops-tools.js';

const tools = createOpsTools({
  sandboxDir: fileURLToPath(new URL('../data/sandbox', import.meta.url)),
});
const context = { conversationId: 'c1' };

/** Plays one question against the model and the real tools until it answers; returns the tools called and the answer. */
async function play(model: ChatModel, question: string, earlier: Message[] = []) {
  const messages: Message[] = [
    { role: 'system', content: 'ops' },
    ...earlier,
    { role: 'user', content: question },
  ];
  const called: string[][] = [];
  for (let round = 0; round < 5; round++) {
    const { message } = await model.complete({ messages, tools: tools.definitions });
    messages.push(message);
    if (typeof message.content === 'string') return { called, answer: message.content, messages };
    const calls = message.content.filter((part) => part.type === 'tool-call');
    if (calls.length === 0) return { called, answer: '', messages };
    called.push(calls.map((part) => part.toolName));
    for (const part of calls)
      messages.push({ role: 'tool', content: [await tools.run(part, context)] });
  }
  throw new Error('the scripted model did not answer within 5 rounds');
}

describe('createScriptedModel', () => {
  const model = createScriptedModel();

  it('investigates a container with parallel calls and diagnoses from the outputs', async () => {
    const { called, answer } = await play(model, 'Why does payments-api keep restarting?');
    expect(called).toEqual([['inspect_container', 'get_container_logs']]);
    expect(answer).toContain('payments-api is restarting');
    expect(answer).toContain('OOMKilled');
    expect(answer).toContain(
      'Diagnosis: the Node heap may grow to 384 MB but the container may use only 256 MiB',
    );
  });

  it('lists the directory before reading a file', async () => {
    const { called, answer } = await play(
      model,
      'Which variables does config/auth.env.example require?',
    );
    expect(called).toEqual([['list_files'], ['read_file']]);
    expect(answer).toContain('JWT_SIGNING_KEY');
  });

  it('lists the fleet for a fleet question', async () => {
    const { called, answer } = await play(model, 'Which containers are not healthy right now?');
    expect(called).toEqual([['list_containers']]);
    expect(answer).toContain('restarting: payments-api (exit 137), mail-relay (exit 1)');
    expect(answer).toContain('exited with an error: auth-service (exit 1)');
  });

  it('says when an output reached it cut short', async () => {
    const cut: Message[] = [
      { role: 'user', content: 'Check edge-nginx.' },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'get_container_logs',
            input: { name: 'edge-nginx' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'get_container_logs',
            output: 'a [error] b\n\n... [9000 characters truncated] ...\n\nc',
          },
        ],
      },
    ];
    const { message } = await model.complete({ messages: cut, tools: tools.definitions });
    expect(message.content).toContain(
      'Part of what the tools returned was cut before it reached me',
    );
  });

  it('summarizes from the earlier answers it can still see, without tools', async () => {
    const earlier: Message[] = [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'payments-api is restarting, last exit code 137.' },
    ];
    const { called, answer } = await play(model, 'Summarize what we found.', earlier);
    expect(called).toEqual([]);
    expect(answer).toContain('- payments-api is restarting, last exit code 137.');
  });

  it('answers without tools when told not to call any', async () => {
    const { message } = await model.complete({
      messages: [{ role: 'user', content: 'Why does payments-api keep restarting?' }],
      tools: tools.definitions,
      toolChoice: 'none',
    });
    expect(typeof message.content).toBe('string');
  });

  it('is deterministic and gives new call ids for a new prompt', async () => {
    const request = {
      messages: [{ role: 'user', content: 'Check mail-relay.' }] as Message[],
      tools: tools.definitions,
    };
    const first = await model.complete(request);
    expect(await model.complete(request)).toEqual(first);
    const later = await model.complete({
      ...request,
      messages: [...request.messages, { role: 'user', content: 'Check mail-relay.' }],
    });
    expect(JSON.stringify(later)).not.toBe(JSON.stringify(first));
  });
});
