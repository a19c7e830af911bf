import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { type ContextManager, countTokensUncached, validateMessages } from '@ctxkit/context-core';
import { type ToolSet, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { expect } from 'vitest';
import { z } from 'zod';
import { callToolDeclarations, fromPrompt } from '../src/index.js';

// A scripted tool-calling agent: the mock model calls `read_file` at every step, and every file
// is over 50 KB of text, so the history outgrows any window within a few steps.

/** The task, the agent's first user message. */
export const TASK = 'Read every source file of the project and list the functions without tests.';

/** The agent's system prompt. */
export const INSTRUCTIONS = 'You are a careful code reviewer. Use the tools to read files.';

/** The text of file `path`: at least 50 KB. */
export function fileText(path: string): string {
  const lines: string[] = [];
  for (let line = 0; lines.join('\n').length < 52_000; line += 1) {
    lines.push(
      `${path}:${line}: export function step${line}(input) { return input.map((x) => x * ${line}); }`,
    );
  }
  return lines.join('\n');
}

/** The agent's tools. */
export const tools: ToolSet = {
  read_file: tool({
    description: 'Reads a file of the project and returns its text.',
    inputSchema: z.object({ path: z.string().describe('The file, from the project root.') }),
    execute: async ({ path }: { path: string }) => fileText(path),
  }),
};

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** A mock model that calls `read_file` on a new file at every step, generating or streaming. */
export function scriptedModel(): MockLanguageModelV4 {
  let step = 0;
  const nextCall = () => {
    step += 1;
    return {
      type: 'tool-call' as const,
      toolCallId: `call-${step}`,
      toolName: 'read_file',
      input: JSON.stringify({ path: `src/module-${step}.ts` }),
    };
  };
  const finishReason = { unified: 'tool-calls' as const, raw: undefined };
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => ({
      content: [nextCall()],
      finishReason,
      usage,
      warnings: [],
    }),
    doStream: async () => ({
      stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
        { type: 'stream-start', warnings: [] },
        nextCall(),
        { type: 'finish', finishReason, usage },
      ]),
    }),
  });
}

/**
 * Checks one request the model received: it fits the manager's budget with its tools counted as
 * the manager counts them, every tool result follows its call, and the task is still there.
 *
 * @param call - the request
 * @param manager - the manager that fitted it
 * @returns the request's tokens
 */
export function checkRequest(call: LanguageModelV4CallOptions, manager: ContextManager): number {
  const { messages, repairs } = fromPrompt(call.prompt);
  expect(repairs).toEqual([]);
  validateMessages(messages);
  const tokens =
    countTokensUncached(messages, manager.counter) +
    manager.countTools(callToolDeclarations(call.tools));
  expect(tokens).toBeLessThanOrEqual(manager.maxTokens);
  const task = { role: 'user', content: [{ type: 'text', text: TASK }] };
  expect(call.prompt).toContainEqual(task);
  return tokens;
}
