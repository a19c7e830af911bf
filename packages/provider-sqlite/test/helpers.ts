import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@ctxkit/context-core';
import { afterAll } from 'vitest';

/** A fresh path for a database file in a temporary folder removed after the test file. */
export function tempDatabasePath(name = 'history.db'): string {
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-provider-sqlite-'));
  folders.push(folder);
  return join(folder, name);
}

afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A user message. */
export function user(content: string): Message {
  return { role: 'user', content };
}

/** An assistant message making one tool call per id. */
export function call(...ids: string[]): Message {
  return {
    role: 'assistant',
    content: ids.map((toolCallId) => ({
      type: 'tool-call' as const,
      toolCallId,
      toolName: 'read_file',
      input: { path: `/srv/${toolCallId}` },
    })),
  };
}

/** A tool message answering `id`. */
export function result(id: string, output = `output of ${id}`): Message {
  return {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output }],
  };
}

// --- internal helpers ---

const folders: string[] = [];
