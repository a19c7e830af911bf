import { expect, it } from 'vitest';

it('runs on Node 22, the oldest Node the Agents SDK supports', () => {
  expect(process.versions.node.split('.')[0]).toBe('22');
});
