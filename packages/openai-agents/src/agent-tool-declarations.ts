import type { ToolDeclaration } from '@ctxkit/context-core';
import { type Agent, getHandoff } from '@openai/agents-core';

/**
 * The tool definitions an agent may send with a model call, as ctxkit counts them: its function
 * tools with their descriptions and parameter schemas, its hosted and other tools by name, and a
 * transfer tool per handoff. Tools disabled for a run are counted too, so a fit made with these
 * errs on the safe side.
 *
 * @param agent - the agent
 * @returns one declaration per tool and handoff
 */
export function agentToolDeclarations(
  // biome-ignore lint/suspicious/noExplicitAny: any agent, whatever its context and output types
  agent: Agent<any, any>,
): ToolDeclaration[] {
  const declarations: ToolDeclaration[] = [];
  for (const tool of agent.tools) {
    if (tool.type === 'function') {
      declarations.push({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters as Record<string, unknown>,
      });
    } else {
      declarations.push({ name: tool.name });
    }
  }
  for (const target of agent.handoffs) {
    const handoff = getHandoff(target);
    declarations.push({
      name: handoff.toolName,
      description: handoff.toolDescription,
      parameters: handoff.inputJsonSchema as Record<string, unknown>,
    });
  }
  return declarations;
}
