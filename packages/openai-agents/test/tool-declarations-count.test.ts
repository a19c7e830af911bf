import { createContextManager } from '@ctxkit/context-manager';
import { Agent, getHandoff, tool } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentToolDeclarations } from '../src/index.js';

// agentToolDeclarations must count what fit counts for the same tools: the function tools and
// handoffs of an agent, as the Agents SDK sends them (OpenAI Responses' function tools).

const lookup = tool({
  name: 'lookup_order',
  description: 'Looks an order up by its number.',
  parameters: z.object({
    order: z.string().describe('The order number, such as A-1042.'),
    include_items: z.boolean().describe('Whether to list the items too.'),
  }),
  execute: async () => 'shipped',
});
const billing = new Agent({ name: 'billing', instructions: 'You answer billing questions.' });
const agent = new Agent({
  name: 'support',
  instructions: 'You help customers.',
  tools: [lookup],
  handoffs: [billing],
});

describe('agentToolDeclarations', () => {
  for (const model of ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-pro']) {
    it(`${model}: counts as fit counts the agent's tools in OpenAI Responses' shape`, async () => {
      const manager = createContextManager({ model });
      const handoff = getHandoff(billing);
      const sent = [
        {
          type: 'function' as const,
          name: lookup.name,
          description: lookup.description,
          parameters: lookup.parameters as Record<string, unknown>,
          strict: lookup.strict,
        },
        {
          type: 'function' as const,
          name: handoff.toolName,
          description: handoff.toolDescription,
          parameters: handoff.inputJsonSchema as Record<string, unknown>,
          strict: handoff.strictJsonSchema,
        },
      ];
      const declared = manager.countTools(agentToolDeclarations(agent));
      expect(declared).toBe(manager.countTools(sent));
      const { report } = await manager.fit([{ role: 'user', content: 'Where is A-1042?' }], {
        tools: sent,
      });
      expect(report.toolTokens).toBe(declared);
      // The schema is counted.
      expect(declared).toBeGreaterThan(
        manager.countTools(sent.map(({ name, description }) => ({ name, description }))),
      );
    });
  }
});
