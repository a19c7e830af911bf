import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ToolCallPart, toolOutputText } from '@ctxkit/context-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpsTools } from '../src/tools/ops-tools.js';
import { READ_FILE_MAX_CHARS } from '../src/tools/read-file.js';

const context = { conversationId: 'c1' };
const sandboxDir = fileURLToPath(new URL('../data/sandbox', import.meta.url));
const tools = createOpsTools({ sandboxDir });
const outside = mkdtempSync(join(tmpdir(), 'ctxkit-outside-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

let callNumber = 0;
const call = (toolName: string, input: unknown): ToolCallPart => ({
  type: 'tool-call',
  toolCallId: `call_${++callNumber}`,
  toolName,
  input,
});
/** Runs one call of the ops tools and gives its result with the output as text. */
const run = async (toolName: string, input: unknown) => {
  const result = await tools.run(call(toolName, input), context);
  return { ...result, output: toolOutputText(result.output) };
};

describe('the ops tools', () => {
  it('describes five tools', () => {
    expect(tools.definitions.map((tool) => tool.name)).toEqual([
      'list_containers',
      'inspect_container',
      'get_container_logs',
      'list_files',
      'read_file',
    ]);
  });

  it('lists containers like docker ps, stopped ones with all', async () => {
    const running = await run('list_containers', {});
    const all = await run('list_containers', { all: true });
    expect(running.output.split('\n')[0]).toMatch(
      /^CONTAINER ID\s+IMAGE\s+COMMAND\s+CREATED\s+STATUS\s+PORTS\s+NAMES$/,
    );
    expect(running.output).toContain('Restarting (137)');
    expect(running.output).not.toContain('auth-service');
    expect(all.output).toContain('Exited (1)');
    expect(all.output.split('\n')).toHaveLength(11);
  });

  it('returns the full inspect JSON and the tail of the logs', async () => {
    const inspect = await run('inspect_container', { name: 'payments-api' });
    const [record] = JSON.parse(inspect.output) as {
      State: { OOMKilled: boolean };
      RestartCount: number;
    }[];
    expect(record?.State.OOMKilled).toBe(true);
    expect(inspect.output.length).toBeGreaterThan(5000);
    const logs = await run('get_container_logs', { name: 'payments-api', tail: 20 });
    expect(logs.output.split('\n')).toHaveLength(20);
    expect(logs.output).toContain('JavaScript heap out of memory');
  });

  it('turns bad input and unknown tools into error results for the model', async () => {
    expect(await run('inspect_container', { name: 'nope' })).toMatchObject({
      isError: true,
      output: 'inspect_container: no such container: nope',
    });
    expect((await run('get_container_logs', { name: 'edge-nginx', tail: 0 })).output).toContain(
      '"tail" must be a whole number from 1 to 2000, got 0.',
    );
    expect((await run('read_file', {})).output).toBe(
      'read_file: the input needs "path" (a string).',
    );
    expect((await run('launch_rocket', {})).output).toContain('Unknown tool "launch_rocket"');
    expect((await run('read_file', '{"path": "README.md"}')).isError).toBeUndefined();
    expect((await run('read_file', 'not json')).isError).toBe(true);
  });

  it('lists and reads files inside the sandbox only', async () => {
    const listing = await run('list_files', { path: 'config' });
    expect(listing.output).toContain('config/nginx.conf');
    expect(listing.output).toMatch(/3 files, [\d,]+ bytes$/);
    const file = await run('read_file', { path: 'config/postgres.conf', offset: 3, limit: 2 });
    expect(file.output.split('\n')[0]).toBe('3\tport = 5432');
    expect(file.output).toContain('call read_file with offset 5 for more');
    for (const path of [
      '../containers/inspect.json',
      '/etc/passwd',
      'config/../../containers/inspect.json',
    ]) {
      const escaped = await run('read_file', { path });
      expect(escaped.isError).toBe(true);
    }
  });

  it('does not follow a symbolic link out of the sandbox', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ctxkit-sandbox-'));
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    const linked = createOpsTools({ sandboxDir: root });
    const result = await linked.run(call('read_file', { path: 'link.txt' }), context);
    expect(result).toMatchObject({
      isError: true,
      output: 'read_file: link.txt is outside the sandbox; paths are relative to the sandbox root.',
    });
    rmSync(root, { recursive: true, force: true });
  });

  it('caps one read at 50,000 characters and says where to go on', async () => {
    const result = await run('read_file', { path: 'data/orders-sample.csv' });
    expect(result.output.length).toBeLessThanOrEqual(READ_FILE_MAX_CHARS + 200);
    expect(result.output).toMatch(
      /\[data\/orders-sample\.csv: lines 1-\d+ of 601; call read_file with offset \d+ for more\]$/,
    );
  });
});
