import type { Message, ToolDeclaration } from '@ctxkit/context-core';

/** The tools of {@link agentHistory}'s agent, as declared to the model. */
export const AGENT_TOOLS: ToolDeclaration[] = [
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'run_tests',
    description: 'Runs the test suite and returns its output.',
    parameters: { type: 'object', properties: {} },
  },
];

/**
 * An agent's array: a task, then `steps` tool-calling steps, each reading a file of about
 * `outputChars` characters.
 */
export function agentHistory(steps: number, outputChars = 2_000): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Find why the build fails and fix it.' }];
  for (let step = 0; step < steps; step += 1) {
    messages.push({
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
    });
    messages.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `call-${step}`,
          toolName: 'read_file',
          output: `export const value${step} = ${JSON.stringify('x'.repeat(outputChars))};`,
        },
      ],
    });
  }
  return messages;
}
