import { countTokensUncached, type ToolDeclaration } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { countToolDefinitions, createContextManager, defaultCounter } from '../src/index.js';
import { agentHistory } from './agent-history.js';

// An agent (an MCP client, say) that adds tools to the very array it passes at every step, or
// edits a tool's schema in place: each fit must count the tools it is given now.

const MAX_TOKENS = 4_000;

/** A tool whose description and schema take some 200 tokens. */
function bigTool(index: number): ToolDeclaration {
  const properties: Record<string, unknown> = {};
  for (let field = 0; field < 8; field += 1) {
    properties[`field_${index}_${field}`] = {
      type: 'string',
      description: `Field ${field} of tool ${index}: a value the server checks before it runs.`,
    };
  }
  return {
    name: `mcp_tool_${index}`,
    description: `Tool ${index} of the MCP server: reads and writes records of kind ${index}.`,
    parameters: { type: 'object', properties },
  };
}

/** The request's tokens counted afresh: a copy of the tools, a new counter, no cache. */
function independentCount(
  sent: Parameters<typeof countTokensUncached>[0],
  tools: readonly ToolDeclaration[],
) {
  const counter = defaultCounter('gpt-4o');
  const toolTokens = countToolDefinitions(structuredClone(tools), counter, 'gpt-4o');
  return { toolTokens, total: countTokensUncached(sent, counter) + toolTokens };
}

describe('manager.fit with tools changed between fits', () => {
  it('counts tools pushed into the same array in place, and stays within the budget', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: MAX_TOKENS });
    const tools: ToolDeclaration[] = [bigTool(0)];
    const history = agentHistory(30, 600);
    for (let step = 1; step <= 8; step += 1) {
      const { messages, report } = await manager.fit(history, { tools });
      const { toolTokens, total } = independentCount(messages, tools);
      expect(report.toolTokens).toBe(toolTokens);
      expect(total).toBeLessThanOrEqual(MAX_TOKENS);
      expect(report.promptTokens).toBe(total);
      tools.push(bigTool(step));
    }
  });

  it('counts a description or schema edited in place', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: MAX_TOKENS });
    const tools: ToolDeclaration[] = [bigTool(0), bigTool(1)];
    const history = agentHistory(30, 600);
    const first = await manager.fit(history, { tools });
    expect(first.report.toolTokens).toBe(independentCount([], tools).toolTokens);
    const tool = tools[0] as { description?: string; parameters?: Record<string, unknown> };
    tool.description = `${tool.description} ${'It keeps an audit log of every change. '.repeat(40)}`;
    (tool.parameters?.properties as Record<string, unknown>).extra = {
      type: 'string',
      description: 'A note for the audit log. '.repeat(60),
    };
    const second = await manager.fit(history, { tools });
    const { toolTokens, total } = independentCount(second.messages, tools);
    expect(toolTokens).toBeGreaterThan(first.report.toolTokens + 500);
    expect(second.report.toolTokens).toBe(toolTokens);
    expect(total).toBeLessThanOrEqual(MAX_TOKENS);
    expect(manager.countTools(tools)).toBe(toolTokens);
  });
});
