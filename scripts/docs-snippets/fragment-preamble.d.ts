/**
 * The names that `ts fragment` blocks of the documentation use without defining them: the
 * application's state around the snippet (its agent loop, its model clients, what the page built
 * earlier). Only fragments are type-checked with these declared; whole programs must define
 * everything they use.
 */
import type { Summarizer, SummaryStore } from '@ctxkit/compressor-summarize';
import type {
  ContextCompressor,
  EventSink,
  HistoryStore,
  Message,
  PromptAssembler,
  TokenCounter,
  ToolOutputStore,
} from '@ctxkit/context-core';
import type { ContextPipeline, ContextPipelineOptions } from '@ctxkit/context-manager';
import type { Agent as PiAgent } from '@mariozechner/pi-agent-core';
import type { Model } from '@mariozechner/pi-ai';
import type { Agent as OpenAIAgent } from '@openai/agents';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';

declare global {
  // The agent loop's state at one step.
  const history: Message[];
  const system: string;
  const tools: ToolSet & import('@ctxkit/context-core').ToolDeclaration[];
  const input: string;
  const question: Message;
  const messages: ModelMessage[];
  const conversationId: string;
  const userId: string;
  const sessionId: string;
  const result: import('@ctxkit/context-core').ToolResultPart;
  const call: import('@ctxkit/context-core').ToolCallPart;
  const toolMessage: Message;
  const historyStore: HistoryStore;
  const pngBytes: Uint8Array;
  const ref: string;
  // What the page built earlier.
  const counter: TokenCounter;
  /** An agent's requests so far: when each was sent, and its messages. */
  const steps: { at: number; messages: Message[] }[];
  const pipeline: ContextPipeline;
  const parts: Pick<ContextPipelineOptions, 'provider' | 'counter' | 'compressor' | 'assembler'>;
  const compressor: ContextCompressor;
  const assembler: PromptAssembler;
  const store: HistoryStore & SummaryStore & ToolOutputStore & EventSink;
  const events: EventSink;
  const summarize: Summarizer;
  const endpoint: string;
  function createSummarizingPipeline(
    filename: string,
    endpoint: string,
    counter: TokenCounter,
  ): { pipeline: ContextPipeline; close(): Promise<void> };
  // The application's clients.
  const logger: Pick<Console, 'debug' | 'info' | 'warn' | 'error'>;
  const openai: ((modelId: string) => LanguageModel) & {
    chat: {
      completions: {
        create(body: {
          model: string;
          messages: unknown[];
        }): Promise<{ usage?: { prompt_tokens: number } }>;
      };
    };
  };
  const chatModel: import('@langchain/core/language_models/chat_models').BaseChatModel;
  const model: OpenAIAgent['model'] & import('@openai/agents').Model;
  const agent: PiAgent;
  const assistant: OpenAIAgent;
  const provider: import('@ctxkit/provider-sqlite').KyselyProvider;
  const langchainTools: import('@langchain/core/tools').StructuredTool[];
  const cheapModel: Model<never>;
  const connectionString: string;
  const myModel: ((messages: Message[], signal?: AbortSignal) => Promise<string>) & {
    summarize(input: {
      messages: readonly Message[];
      previousSummary?: string;
      signal?: AbortSignal;
    }): Promise<string>;
  };
  function callModel(request: unknown): Promise<unknown>;
  /** Your own model call, answering with the provider's usage. */
  function callProvider(messages: Message[]): Promise<{ usage: { inputTokens: number } }>;
  const manager: import('@ctxkit/context-core').ContextManager;
  /** Your own model call, in the shape `createChatSummarizer` takes. */
  const callMyModel: import('@ctxkit/compressor-summarize').ChatComplete;
  function log(value: unknown): void;
}
