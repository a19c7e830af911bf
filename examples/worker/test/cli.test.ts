import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from './temp-database.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Runs the CLI in a child process; resolves with its exit code and output whatever the code. */
async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--conditions=@ctxkit/source', 'src/cli.ts', ...args],
      { cwd: packageDir, env: { ...process.env, LOG_FORMAT: 'pretty', ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the command line', () => {
  it('enqueues, runs with the scripted model and inspects a conversation', async () => {
    const database = tempDatabase();
    cleanups.push(database.remove);
    const env = { CTX_DB: database.file, CTX_COUNTER: 'heuristic', CTX_OFFLOAD: 'off' };

    const enqueued = await cli(['enqueue', 'ops', 'Why does payments-api keep restarting?'], env);
    expect(enqueued).toMatchObject({ code: 0, stdout: 'Enqueued task 1 in conversation ops.\n' });

    const run = await cli(['run'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'worker started: model scripted (offline scripted model, no network), compressor simple',
    );
    expect(run.stdout).toMatch(
      /INFO \[worker\] task 1 done \(ops, scripted\): 2 model calls, tokens \d+ → \d+; truncated tool result/,
    );
    expect(run.stdout).toContain('worker stopped: 1 tasks claimed, 1 done, 0 failed');

    const inspected = await cli(['inspect', 'ops'], env);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toMatch(
      /^Conversation ops: 5 active messages \([\d,]+ tokens\), 0 archives, 2 events, 1 tasks/,
    );
    expect(inspected.stdout).toContain('→ inspect_container({"name":"payments-api"})');
    expect(inspected.stdout).toContain('← get_container_logs: 24,566 chars');
    expect(inspected.stdout).toMatch(
      /context\.compressed {2}4 → 4 messages, \d+\/\d+ tokens; truncate-messages 2 truncated/,
    );
    expect(inspected.stdout).toMatch(/ 1 {2}done {11}1 {2}Why does payments-api keep restarting\?/);
  });

  it('refuses a bad configuration with every problem named, and bad usage', async () => {
    const bad = await cli(['run'], { MAX_CONTEXT_TOKENS: 'lots', CTX_COUNTER: 'words' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'MAX_CONTEXT_TOKENS must be a whole number of at least 1000, got "lots".',
    );
    expect(bad.stderr).toContain(
      'CTX_COUNTER must be one of o200k_base, cl100k_base, heuristic, got "words".',
    );
    const unknown = await cli(['launch'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "launch".');
  });
});
