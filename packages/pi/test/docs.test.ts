import { readFileSync } from 'node:fs';
import { sampleText } from '@ctxkit/context-core/testing';
import { Agent, type AgentTool } from '@mariozechner/pi-agent-core';
import {
  type Context,
  fauxAssistantMessage,
  fauxToolCall,
  registerFauxProvider,
  Type,
} from '@mariozechner/pi-ai';
import { afterAll, expect, it } from 'vitest';
import { fitToWindow } from './guide/fit-to-window.js';

const faux = registerFauxProvider({
  models: [{ id: 'faux-16k', contextWindow: 16_000, maxTokens: 2_000 }],
});
afterAll(() => faux.unregister());

it('docs/integrations/pi.md shows the glue this test type-checks and runs', () => {
  const page = readFileSync(new URL('../../../docs/integrations/pi.md', import.meta.url), 'utf8');
  const glue = readFileSync(new URL('./guide/fit-to-window.ts', import.meta.url), 'utf8');
  // The fence may say more after `ts` (`no-run` and why: the docs' code-block check does not
  // call the model; this test runs the file).
  const fenced = new RegExp(`^\`\`\`ts( [^\\n]*)?\\n${escapeRegExp(glue)}\`\`\`$`, 'm');
  expect(page).toMatch(fenced);
  const body = glue.slice(glue.indexOf('{\n') + 2, glue.lastIndexOf('}'));
  expect(body.trim().split('\n').length).toBeLessThanOrEqual(5);
});

it('the guide’s agent runs ten 30 KB tool steps on a 16k model, every request within its window', async () => {
  const tool: AgentTool = {
    name: 'fetch_page',
    label: 'Fetch page',
    description: 'Fetches a page of results.',
    parameters: Type.Object({ page: Type.Number() }),
    execute: async (_id, params) => ({
      content: [
        { type: 'text', text: sampleText('json', 30_000, (params as { page: number }).page) },
      ],
      details: {},
    }),
  };
  const promptSizes: number[] = [];
  const step = (index: number) => (context: Context) => {
    promptSizes.push(JSON.stringify(context.messages).length);
    return fauxAssistantMessage(fauxToolCall('fetch_page', { page: index }), {
      stopReason: 'toolUse',
    });
  };
  faux.setResponses([
    ...Array.from({ length: 10 }, (_, index) => step(index)),
    fauxAssistantMessage('Done.'),
  ]);
  const agent = new Agent({
    initialState: { model: faux.getModel(), systemPrompt: 'You fetch pages.', tools: [tool] },
  });
  fitToWindow(agent);
  await agent.prompt('Fetch all pages.');
  expect(agent.state.errorMessage).toBeUndefined();
  expect(agent.state.messages.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'stop' });
  // 16,000 tokens are far fewer than 10 x 30 KB of JSON: the requests stopped growing.
  expect(Math.max(...promptSizes)).toBeLessThan(100_000);
});

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
