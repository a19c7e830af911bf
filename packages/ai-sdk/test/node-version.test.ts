import { expect, it } from 'vitest';

it('runs on Node 22 or later, as the AI SDK 7 requires', () => {
  const major = Number(process.versions.node.split('.')[0]);
  expect(major).toBeGreaterThanOrEqual(22);
});
