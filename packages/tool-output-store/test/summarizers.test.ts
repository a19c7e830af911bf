import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSummarizerRegistry,
  queryToolOutput,
  type SummaryInput,
  summarizeHeadTail,
  summarizeInspect,
  summarizeList,
  summarizeLogs,
} from '../src/index.js';
import { splitLines } from '../src/split-lines.js';

const input = (output: string, toolName = 'tool'): SummaryInput => ({
  output,
  lines: splitLines(output),
  toolName,
  toolCallId: 'call_1',
});

const table = (rows: number) =>
  [
    'CONTAINER ID   IMAGE        STATUS        NAMES',
    ...Array.from(
      { length: rows },
      (_, index) => `c${index}   img:${index}   Up ${index} hours   svc-${index}`,
    ),
  ].join('\n');

describe('summarizeList', () => {
  it('keeps the heading, the first rows and the total of a text table', () => {
    const summary = summarizeList({ rows: 3 })(input(table(40)));
    const lines = summary.split('\n');
    expect(lines[0]).toBe('40 rows in all; the first 3:');
    expect(lines[1]).toMatch(/^CONTAINER ID/);
    expect(lines.slice(2)).toEqual(table(40).split('\n').slice(1, 4));
  });

  it('counts the items of a JSON array or of the one array an object holds', () => {
    const items = Array.from({ length: 12 }, (_, id) => ({ id, name: `n${id}` }));
    expect(summarizeList({ rows: 2 })(input(JSON.stringify(items)))).toBe(
      `12 items in all; the first 2:\n${JSON.stringify(items[0])}\n${JSON.stringify(items[1])}`,
    );
    const wrapped = summarizeList({ rows: 1 })(input(JSON.stringify({ total: 12, items })));
    expect(wrapped.split('\n')[0]).toBe('12 items in all at $.items; the first 1:');
  });
});

describe('summarizeInspect', () => {
  const document = [
    {
      Id: 'abc123',
      Name: '/payments-api',
      State: {
        Status: 'restarting',
        OOMKilled: true,
        ExitCode: 137,
        Health: { Status: 'unhealthy', Log: [{ ExitCode: 1 }] },
      },
      Config: { Image: 'payments:2', Env: ['NODE_OPTIONS=--max-old-space-size=384'] },
      HostConfig: { Memory: 268435456 },
      'odd key': { Status: 'x' },
    },
  ];

  it('keeps the key fields as JSON paths that read back the same values, and lists the top-level keys', () => {
    const output = JSON.stringify(document, null, 2);
    const summary = summarizeInspect()(input(output));
    const fields = summary.split('\n').filter((line) => line.startsWith('$'));
    expect(fields).toContain('$[0].State.OOMKilled: true');
    expect(fields).toContain('$[0].HostConfig.Memory: 268435456');
    expect(fields.some((line) => line.includes('Log'))).toBe(false);
    for (const line of fields) {
      const [path, value] = line.split(/: (.*)/s) as [string, string];
      const slice = queryToolOutput(
        { ref: 'toolout_0000000000000000', text: output, meta: { toolName: 'inspect' } },
        { jsonPath: path },
      );
      expect(JSON.stringify(JSON.parse(slice.text))).toBe(value);
    }
    expect(summary.split('\n').at(-1)).toBe(
      'Top-level keys at $[0]: Id, Name, State, Config, HostConfig, odd key',
    );
  });

  it('finds the fields it is told to, over random JSON objects, with paths that read back', () => {
    /** Whether some `path: value` split of the line reads back the value through the path. */
    const readsBack = (line: string, output: string) => {
      for (let at = line.indexOf(': '); at !== -1; at = line.indexOf(': ', at + 1)) {
        const [path, value] = [line.slice(0, at), line.slice(at + 2)];
        try {
          const slice = queryToolOutput(
            { ref: 'toolout_0000000000000000', text: output, meta: { toolName: 'x' } },
            { jsonPath: path },
          );
          if (JSON.stringify(JSON.parse(slice.text)) === value) return true;
        } catch {
          // Not this split: the key itself holds ': '.
        }
      }
      return false;
    };
    fc.assert(
      fc.property(fc.object({ maxDepth: 3 }), (object) => {
        const output = JSON.stringify(object);
        const keys = Object.keys(object).slice(0, 2);
        const summary = summarizeInspect({ fields: keys, maxValueChars: 1e6, maxFields: 1e6 })(
          input(output),
        );
        const fields = summary.split('\n').filter((entry) => entry.startsWith('$'));
        for (const line of fields) expect(readsBack(line, output)).toBe(true);
      }),
      fuzzParameters(100),
    );
  });

  it('gives output that is not a JSON object to its fallback', () => {
    expect(summarizeInspect({ fallback: () => 'fallback' })(input('not json'))).toBe('fallback');
    expect(summarizeInspect({ fallback: () => 'fallback' })(input('[1,2]'))).toBe('fallback');
  });
});

describe('summarizeLogs and summarizeHeadTail', () => {
  const log = Array.from(
    { length: 100 },
    (_, index) =>
      `${index} ${index % 10 === 0 ? 'ERROR' : index % 7 === 0 ? 'WARN' : 'INFO'} line ${index}`,
  ).join('\n');

  it('logs keep the last lines and say how many look like errors and warnings', () => {
    const summary = summarizeLogs({ lines: 4 })(input(log));
    expect(summary.split('\n')).toEqual([
      '100 log lines (10 look like errors, 13 like warnings); the last 4:',
      ...log.split('\n').slice(-4),
    ]);
  });

  it('head and tail keep the first and last lines around a count of the rest, cutting long lines', () => {
    const summary = summarizeHeadTail({ headLines: 2, tailLines: 1, maxLineChars: 8 })(input(log));
    expect(summary.split('\n')).toEqual([
      '0 ERROR…',
      '1 INFO …',
      '[… 97 lines not shown …]',
      '99 INFO…',
    ]);
    expect(summarizeHeadTail()(input('one\ntwo'))).toBe('one\ntwo');
  });
});

describe('createSummarizerRegistry', () => {
  it('picks the built-ins by the words of a tool name, and head and tail for the rest', () => {
    const registry = createSummarizerRegistry();
    expect(registry.summarizerFor('get_container_logs')(input(table(30)))).toMatch(/^31 log lines/);
    expect(registry.summarizerFor('list_containers')(input(table(30)))).toMatch(/^30 rows in all/);
    expect(registry.summarizerFor('kubectl.describe')(input('{"Name":"x"}'))).toMatch(
      /^Key fields/,
    );
    expect(registry.summarizerFor('catalog')(input(table(30)))).toMatch(/not shown/);
  });

  it('lets users register summarizers that win over earlier ones', () => {
    const registry = createSummarizerRegistry()
      .register(/^get_/, () => 'any getter')
      .register('get_container_logs', () => 'the logs');
    expect(registry.summarize(input('x', 'get_container_logs'))).toBe('the logs');
    expect(registry.summarize(input('x', 'get_weather'))).toBe('any getter');
    expect(
      registry
        .register(
          (name) => name.endsWith('_files'),
          () => 'files',
        )
        .summarize(input('x', 'list_files')),
    ).toBe('files');
  });

  it('summarizes by head and tail when a summarizer throws', () => {
    const registry = createSummarizerRegistry().register('flaky', () => {
      throw new Error('boom');
    });
    expect(registry.summarize(input(table(20), 'flaky'))).toBe(
      summarizeHeadTail()(input(table(20))),
    );
  });

  it('rejects what is not a summarizer or a match', () => {
    expect(() => createSummarizerRegistry().register(42 as never, () => '')).toThrow(/match/);
    expect(() => createSummarizerRegistry().register('x', 'nope' as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});
