import {
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
  Usage,
} from '@openai/agents-core';

/** One request as the model received it: a deep copy, so later edits by the SDK do not show. */
export type ReceivedRequest = ModelRequest;

/**
 * An Agents SDK `Model` that answers from a script: the script gets each request and its
 * 0-based step and returns the output items. Every request is kept.
 */
export class ScriptedModel implements Model {
  /** The requests received, in order. */
  readonly requests: ReceivedRequest[] = [];
  /** The abort signal of each request, in order. */
  readonly signals: (AbortSignal | undefined)[] = [];

  constructor(
    private readonly script: (request: ModelRequest, step: number) => AgentOutputItem[],
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const { signal, ...copyable } = request;
    this.requests.push(structuredClone(copyable) as ReceivedRequest);
    this.signals.push(signal);
    const step = this.requests.length - 1;
    return { usage: new Usage(), output: this.script(request, step), responseId: `resp_${step}` };
  }

  // biome-ignore lint/correctness/useYield: the tests never stream
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('ScriptedModel does not stream.');
  }
}

/** An assistant message item saying `text`. */
export function assistantSays(text: string): AgentOutputItem {
  return {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text }],
  };
}
