import { createContextManager } from '@ctxkit/context-manager';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import { toolDeclarations } from '../src/index.js';

// toolDeclarations must count what fit counts for the same tools: LangChain's tools as bindTools
// sends them (OpenAI Chat Completions' function tools).

const lookup = tool(async () => 'shipped', {
  name: 'lookup_order',
  description: 'Looks an order up by its number.',
  schema: {
    type: 'object',
    properties: {
      order: { type: 'string', description: 'The order number, such as A-1042.' },
      include_items: { type: 'boolean', description: 'Whether to list the items too.' },
    },
    required: ['order'],
  },
});

describe('toolDeclarations', () => {
  for (const model of ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-pro']) {
    it(`${model}: counts as fit counts the tools in OpenAI Chat Completions' shape`, async () => {
      const manager = createContextManager({ model });
      const sent = [convertToOpenAITool(lookup)];
      const declared = manager.countTools(toolDeclarations([lookup]));
      expect(declared).toBe(manager.countTools(sent));
      const { report } = await manager.fit([{ role: 'user', content: 'Where is A-1042?' }], {
        tools: sent,
      });
      expect(report.toolTokens).toBe(declared);
      expect(declared).toBeGreaterThan(
        manager.countTools([{ name: lookup.name, description: lookup.description }]),
      );
    });
  }
});
