import { InvalidMessageError, type StoredPrompt } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import type { KyselyProvider } from '../src/index.js';

/** How the suite opens, reopens and closes a provider on one dialect. */
export interface LastPromptSuiteOptions {
  /** Names the suite. */
  name: string;
  /** A provider on an empty database. */
  open: () => Promise<KyselyProvider>;
  /** Closes `provider` and opens a new one on the same database, as a restarted process. */
  reopen: (provider: KyselyProvider) => Promise<KyselyProvider>;
  /** Closes `provider` and what it was opened on. */
  close: (provider: KyselyProvider) => Promise<void>;
}

/** A prompt of a summary, a kept message with image bytes, and a cut one, from four inputs. */
export function storedPrompt(text = 'the summary'): StoredPrompt {
  return {
    inputIds: ['1', '2', '3', '4'],
    messages: [
      { role: 'user', content: text, meta: { summary: true } },
      {
        role: 'user',
        id: '3',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', image: new Uint8Array([0, 1, 2, 255]), mediaType: 'image/png' },
        ],
      },
      { role: 'assistant', id: '4', content: 'cut sh…' },
    ],
    origins: [
      null,
      { inputIndex: 2, derivation: 'kept' },
      { inputIndex: 3, derivation: 'truncated' },
    ],
    tokens: 57,
  };
}

/** The last-prompt methods of a provider: round trip, replacement, restart, refusal. */
export function testLastPromptStorage(options: LastPromptSuiteOptions): void {
  describe(`last prompts: ${options.name}`, () => {
    it('reads back what was put, media bytes included, after a restart too', async () => {
      const provider = await options.open();
      expect(await provider.getLastPrompt('c')).toBeUndefined();
      await provider.putLastPrompt('c', storedPrompt());
      expect(await provider.getLastPrompt('c')).toEqual(storedPrompt());
      const reopened = await options.reopen(provider);
      expect(await reopened.getLastPrompt('c')).toEqual(storedPrompt());
      expect(await reopened.getLastPrompt('other')).toBeUndefined();
      await options.close(reopened);
    });

    it('replaces the conversation’s prompt, leaving other conversations alone', async () => {
      const provider = await options.open();
      await provider.putLastPrompt('c', storedPrompt('first'));
      await provider.putLastPrompt('d', storedPrompt('other'));
      await provider.putLastPrompt('c', storedPrompt('second'));
      expect(await provider.getLastPrompt('c')).toEqual(storedPrompt('second'));
      expect(await provider.getLastPrompt('d')).toEqual(storedPrompt('other'));
      const rows = await provider.db.selectFrom('last_prompts').select('conversation_id').execute();
      expect(rows.map((row) => row.conversation_id).sort()).toEqual(['c', 'd']);
      await options.close(provider);
    });

    it('refuses a malformed prompt before writing, keeping the one stored', async () => {
      const provider = await options.open();
      await provider.putLastPrompt('c', storedPrompt('kept'));
      const malformed = { ...storedPrompt('lost'), origins: [null] };
      await expect(provider.putLastPrompt('c', malformed)).rejects.toSatisfy(
        (error: unknown) =>
          InvalidMessageError.isInstance(error) && error.code === 'invalid_stored_prompt',
      );
      await expect(provider.putLastPrompt('', storedPrompt())).rejects.toMatchObject({
        code: 'invalid_option',
      });
      expect(await provider.getLastPrompt('c')).toEqual(storedPrompt('kept'));
      await options.close(provider);
    });
  });
}
