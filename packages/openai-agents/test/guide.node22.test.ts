import { readFileSync } from 'node:fs';
import { createKyselyProvider } from '@ctxkit/provider-sqlite';
import { Agent, setTracingDisabled } from '@openai/agents';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { ask } from './guide/ask-agent.js';
import './postgres-context.js';
import { assistantSays, ScriptedModel } from './scripted-model.js';

it('docs/integrations/openai-agents.md shows the example this test type-checks and runs', () => {
  const page = readFileSync(
    new URL('../../../docs/integrations/openai-agents.md', import.meta.url),
    'utf8',
  );
  const example = readFileSync(new URL('./guide/ask-agent.ts', import.meta.url), 'utf8');
  // The fence may say more after `ts` (`no-run` and why: the docs' code-block check does not
  // call the model; this test runs the file).
  const fenced = new RegExp(`^\`\`\`ts( [^\\n]*)?\\n${escapeRegExp(example)}\`\`\`$`, 'm');
  expect(page).toMatch(fenced);
  // The glue: the lines that import or call ctxkit; the rest is the user's own code.
  const glueLines = example
    .split('\n')
    .filter((line) => /@ctxkit\/|\b(contextInputFilter|createProviderSession)\b/.test(line));
  expect(glueLines.length).toBeLessThanOrEqual(5);
});

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

describe.skipIf(url === '')(`PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('the guide’s ask() keeps each user’s conversation and fits every call', async () => {
    setTracingDisabled(true);
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
    });
    const provider = createKyselyProvider({ db });
    const model = new ScriptedModel((_request, step) => [assistantSays(`Answer ${step}.`)]);
    const agent = new Agent({ name: 'helper', instructions: 'Answer briefly.', model });

    expect((await ask(agent, provider, 'guide-user', 'First question?')).finalOutput).toBe(
      'Answer 0.',
    );
    expect((await ask(agent, provider, 'guide-user', 'Second question?')).finalOutput).toBe(
      'Answer 1.',
    );

    expect(model.requests[1]?.input).toEqual([
      expect.objectContaining({ role: 'user', content: 'First question?' }),
      expect.objectContaining({ role: 'assistant' }),
      expect.objectContaining({ role: 'user', content: 'Second question?' }),
    ]);
    expect(await provider.getHistory('guide-user')).toHaveLength(4);
    await provider.close();
    await db.destroy();
  });
});

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
