import type { ToolDeclaration, ToolDefinition } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { toolCountCache } from '../src/tool-count-cache.js';

// The cache must save counts, not only notice changes: an unchanged list costs no count.

const WEATHER: ToolDeclaration = {
  name: 'get_weather',
  description: 'Gets the weather of a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

function spiedCache() {
  const calls: (readonly ToolDeclaration[])[] = [];
  const cache = toolCountCache((declarations) => {
    calls.push(declarations);
    return declarations.length * 10;
  });
  return { cache, calls };
}

describe('toolCountCache', () => {
  it('counts an unchanged list once, in any shape, and its own declarations without a count', () => {
    const { cache, calls } = spiedCache();
    const tools: ToolDefinition[] = [
      WEATHER,
      { name: 'search', description: 'Searches.', input_schema: { type: 'object' } },
    ];
    const first = cache(tools, 'fit');
    for (let fit = 0; fit < 5; fit += 1) expect(cache(tools, 'fit')).toBe(first);
    expect(cache(first.declarations, 'fit')).toBe(first);
    expect(calls).toHaveLength(1);
  });

  it('counts again a list a tool was pushed into, or whose schema was edited in place', () => {
    const { cache, calls } = spiedCache();
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const tools: ToolDefinition[] = [{ name: 'get_weather', parameters: schema }];
    cache(tools, 'fit');
    tools.push({ name: 'search' });
    expect(cache(tools, 'fit').tokens).toBe(20);
    (schema.properties as Record<string, unknown>).country = { type: 'string' };
    cache(tools, 'fit');
    expect(calls).toHaveLength(3);
    expect(calls[2]?.[0]?.parameters).toEqual(schema);
  });
});
