import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'provider-sqlite',
    globalSetup: ['./test/postgres/global-setup.ts'],
  },
});
