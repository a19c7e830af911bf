import { contextTransform } from '@ctxkit/pi';
import type { Agent } from '@mariozechner/pi-agent-core';

/** Fits every model call of `agent` to its model's window, system prompt and tools counted. */
export function fitToWindow(agent: Agent): void {
  agent.transformContext = contextTransform({
    model: agent.state.model,
    context: () => agent.state,
  });
}
