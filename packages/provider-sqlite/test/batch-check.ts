import type { Message } from '@ctxkit/context-core';
import { expect } from 'vitest';

/**
 * A batch of `size` user messages labelled `writer:batch:index:size`, so a reader can tell
 * which batch each message belongs to and whether the batch arrived whole.
 */
export function labelledBatch(writer: string, batch: number, size: number): Message[] {
  return Array.from({ length: size }, (_, index) => ({
    role: 'user' as const,
    content: `${writer}:${batch}:${index}:${size}`,
  }));
}

/**
 * Checks that `history` holds exactly `batches` whole labelled batches, each contiguous and in
 * order, with no message lost or repeated.
 */
export function expectWholeBatches(history: readonly Message[], batches: number): void {
  let seen = 0;
  const labels = new Set<string>();
  for (let start = 0; start < history.length; seen++) {
    const [writer, batch, , size] = String(history[start]?.content).split(':');
    const expected = Array.from(
      { length: Number(size) },
      (_, index) => `${writer}:${batch}:${index}:${size}`,
    );
    expect(history.slice(start, start + expected.length).map((message) => message.content)).toEqual(
      expected,
    );
    labels.add(`${writer}:${batch}`);
    start += expected.length;
  }
  expect(seen).toBe(batches);
  expect(labels.size).toBe(batches);
}
