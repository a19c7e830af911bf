import { optionChecker, type ToolDeclaration } from '@ctxkit/context-core';
import { type Agent, getHandoff } from '@openai/agents-core';
import { SOURCE } from './source.js';

/**
 * The tool definitions an agent may send with a model call, as ctxkit counts them: its function
 * tools with their descriptions and parameter schemas, its hosted and other tools by name, and a
 * transfer tool per handoff. Tools disabled for a run are counted too, so a fit made with these
 * errs on the safe side.
 *
 * @param agent - the agent
 * @returns one declaration per tool and handoff
 * @throws InvalidOptionError (`invalid_option`) when `agent` is not an agent: not an object with
 *   arrays of tool objects (`tools`) and of handoff objects (`handoffs`)
 */
export function agentToolDeclarations(
  // biome-ignore lint/suspicious/noExplicitAny: any agent, whatever its context and output types
  agent: Agent<any, any>,
): ToolDeclaration[] {
  checkAgent(agent);
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

// --- internal helpers ---

function checkAgent(agent: unknown): void {
  const check = optionChecker(SOURCE, 'agentToolDeclarations');
  if (typeof agent !== 'object' || agent === null || Array.isArray(agent)) {
    throw check.invalid('agent', agent, 'an Agent');
  }
  for (const field of ['tools', 'handoffs'] as const) {
    const list: unknown = (agent as Record<string, unknown>)[field];
    if (!Array.isArray(list)) {
      throw check.invalid(`agent.${field}`, list, 'an array (is agent an Agent?)');
    }
    list.forEach((entry: unknown, index) => {
      if (typeof entry !== 'object' || entry === null) {
        throw check.invalid(
          `agent.${field}[${index}]`,
          entry,
          field === 'tools' ? 'a tool object' : 'an Agent or a Handoff',
        );
      }
    });
  }
}
