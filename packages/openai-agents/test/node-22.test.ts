import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const node22 = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

it('the tests that run the Agents SDK pass on Node 22', async () => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      node22,
      [vitest, 'run', '--root', packageDir],
      {
        cwd: packageDir,
        env: { ...process.env, CTXKIT_NODE_22_RUN: '1' },
        maxBuffer: 64 * 1024 * 1024,
        // A limit for a hang only, below the test's own, so that a stopped run reports its output.
        timeout: 600_000,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          output: `${stdout}\n${stderr}${error?.signal ? `\n[stopped by ${error.signal}${error.killed ? ' at its 600 s limit' : ''}]` : ''}`,
        }),
    );
  });
  expect(code, output).toBe(0);
  // The run checked its own Node, and found the suites that drive the SDK.
  expect(output).toContain('runtime.node22.test.ts');
  expect(output).toContain('agent-loop.node22.test.ts');
});
