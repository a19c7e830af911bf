import { describe, expect, it } from 'vitest';
import { createChatSummarizer } from '../src/index.js';

describe('createChatSummarizer’s maxInputTokens', () => {
  const complete = async () => 'summary';

  it('is its model’s window less the answer and the prompt, by id, by limits, or given', () => {
    const unknown = createChatSummarizer({ complete }).maxInputTokens as number;
    expect(unknown).toBeLessThan(8_192 - 2_048);
    expect(unknown).toBeGreaterThan(8_192 - 2_048 - 1_000);
    expect(createChatSummarizer({ complete, model: 'no-such-model' }).maxInputTokens).toBe(unknown);
    const prompt = 8_192 - 2_048 - unknown;
    expect(createChatSummarizer({ complete, model: 'gpt-4o-mini' }).maxInputTokens).toBe(
      128_000 - 4_096 - prompt,
    );
    expect(
      createChatSummarizer({ complete, model: { contextWindow: 8_000, maxOutputTokens: 2_000 } })
        .maxInputTokens,
    ).toBe(8_000 - 2_000 - prompt);
    expect(
      createChatSummarizer({ complete, model: 'gpt-4o-mini', maxInputTokens: 3_000 })
        .maxInputTokens,
    ).toBe(3_000);
  });

  it('rejects a model that leaves no room, bad limits or a bound under 256', () => {
    const cases: [unknown, string][] = [
      [{ model: { contextWindow: 1_000, maxOutputTokens: 500 } }, 'model'],
      [{ model: { contextWindow: 0, maxOutputTokens: 500 } }, 'model'],
      [{ model: '' }, 'model'],
      [{ model: 42 }, 'model'],
      [{ maxInputTokens: 100 }, 'maxInputTokens'],
    ];
    for (const [options, option] of cases) {
      expect(() =>
        createChatSummarizer({ complete, ...(options as object) } as Parameters<
          typeof createChatSummarizer
        >[0]),
      ).toThrow(
        expect.objectContaining({
          code: 'invalid_option',
          message: expect.stringContaining(`option ${option} `),
        }),
      );
    }
  });
});
