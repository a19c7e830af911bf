import { contextInputFilter, createProviderSession } from '@ctxkit/openai-agents';
import type { KyselyProvider } from '@ctxkit/provider-sqlite';
import { type Agent, run } from '@openai/agents';

const callModelInputFilter = contextInputFilter({ model: 'gpt-4o' });

/** One turn of `userId`'s conversation, kept in `provider`, every model call fitted to the window. */
export function ask(agent: Agent, provider: KyselyProvider, userId: string, question: string) {
  const session = createProviderSession({ provider, sessionId: userId });
  return run(agent, question, { session, callModelInputFilter });
}
