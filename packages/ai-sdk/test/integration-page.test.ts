import { readFileSync } from 'node:fs';
import { createContextManager } from '@ctxkit/context-manager';
import { generateText, stepCountIs, ToolLoopAgent } from 'ai';
import { expect, it } from 'vitest';
import { fitEachStep, fitted } from './guide/glue.js';
import { checkRequest, INSTRUCTIONS, scriptedModel, TASK, tools } from './scripted-agent.js';

// The page's glue, type-checked and run: 40 steps of 52 KB tool outputs (some 540,000 tokens)
// against gpt-4o's window.

const STEPS = 40;
const gpt4o = createContextManager({ model: 'gpt-4o' });

it('docs/integrations/ai-sdk.md shows the glue this test runs', () => {
  const page = readFileSync(
    new URL('../../../docs/integrations/ai-sdk.md', import.meta.url),
    'utf8',
  );
  const glue = readFileSync(new URL('./guide/glue.ts', import.meta.url), 'utf8');
  // The fence may say more after `ts` (`no-run` and why: the docs' code-block check does not
  // call the model; this test runs the file).
  const fenced = new RegExp(`^\`\`\`ts( [^\\n]*)?\\n${escapeRegExp(glue)}\`\`\`$`, 'm');
  expect(page).toMatch(fenced);
  // The glue: the lines that import or call ctxkit; the rest is the user's own code.
  const glueLines = glue
    .split('\n')
    .filter((line) => /@ctxkit\/|\b(contextMiddleware|contextPrepareStep)\b/.test(line));
  expect(glueLines.length).toBeLessThanOrEqual(5);
});

it('the wrapped model keeps a 40-step loop inside gpt-4o’s window', async () => {
  const mock = scriptedModel();
  await generateText({
    model: fitted(mock),
    instructions: INSTRUCTIONS,
    messages: [{ role: 'user', content: TASK }],
    tools,
    stopWhen: stepCountIs(STEPS),
  });
  expect(mock.doGenerateCalls).toHaveLength(STEPS);
  for (const call of mock.doGenerateCalls) checkRequest(call, gpt4o);
});

it('prepareStep keeps a 40-step ToolLoopAgent inside gpt-4o’s window', async () => {
  const mock = scriptedModel();
  const agent = new ToolLoopAgent({
    model: mock,
    instructions: INSTRUCTIONS,
    tools,
    prepareStep: fitEachStep(tools),
    stopWhen: stepCountIs(STEPS),
  });
  await agent.generate({ prompt: TASK });
  expect(mock.doGenerateCalls).toHaveLength(STEPS);
  for (const call of mock.doGenerateCalls) checkRequest(call, gpt4o);
});

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
