import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';

// The docs type-check once failed with `tsc failed:` and nothing else: tsc had been stopped at
// its time limit before printing anything, and nothing said so.
describe('runCommand', () => {
  it('reports a failed command’s output, its exit code and its time', async () => {
    const { failed, output } = await runCommand(
      process.execPath,
      ['-e', 'console.log("half done"); console.error("broke"); process.exit(3)'],
      tmpdir(),
    );
    expect(failed).toBe(true);
    expect(output).toContain('half done');
    expect(output).toContain('broke');
    expect(output).toMatch(/exited with code 3 after \d+\.\d s\]$/);
  });

  it('says that a command was stopped at its limit, naming the limit', async () => {
    // A command that never ends on its own: only the limit stops it.
    const { failed, output } = await runCommand(
      process.execPath,
      ['-e', 'setInterval(() => {}, 1000)'],
      tmpdir(),
      200,
    );
    expect(failed).toBe(true);
    expect(output).toMatch(/was stopped by SIGTERM at its limit of 0\.2 s after \d+\.\d s\]$/);
  });

  it('passes on the output of a command that succeeds, with nothing added', async () => {
    expect(await runCommand(process.execPath, ['-e', 'console.log("ok")'], tmpdir())).toEqual({
      failed: false,
      output: 'ok\n',
    });
  });
});
