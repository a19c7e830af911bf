import { Validator } from '@cfworker/json-schema';
import { ContextError, createInMemoryToolOutputStore } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  executeGetToolOutput,
  GET_TOOL_OUTPUT_TOOL,
  GREP_WORK_LIMIT,
  MAX_GET_TOOL_OUTPUT_CHARS,
  toAnthropicTool,
  toOpenAITool,
} from '../src/index.js';

const store = createInMemoryToolOutputStore();
const log = Array.from(
  { length: 300 },
  (_, index) =>
    `${String(index + 1).padStart(3, '0')} ${index % 50 === 7 ? 'ERROR disk full' : 'INFO request served in 12 ms'}`,
).join('\n');
const inspect = JSON.stringify([{ Name: '/api', Config: { Env: ['A=1', 'B=2'] } }], null, 2);
let logRef: string;
let inspectRef: string;
beforeAll(async () => {
  logRef = await store.put('c1', log, { toolName: 'get_logs' });
  inspectRef = await store.put('c1', inspect, { toolName: 'inspect_container' });
});

/** The error `executeGetToolOutput` rejects with, for a call made in `conversationId`. */
async function failure(args: unknown, conversationId = 'c1'): Promise<ContextError> {
  const error = await executeGetToolOutput(store, conversationId, args).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ContextError.isInstance(error))
    throw new Error(`expected a ContextError for ${JSON.stringify(args)}`);
  return error;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('the get_tool_output definition', () => {
  it('is a valid JSON Schema object with a ref, in the OpenAI function-tool shape', () => {
    const tool = toOpenAITool(GET_TOOL_OUTPUT_TOOL);
    expect(tool.type).toBe('function');
    expect(Object.keys(tool.function).sort()).toEqual(['description', 'name', 'parameters']);
    expect(tool.function.name).toMatch(NAME);
    expect(tool.function.parameters).toMatchObject({ type: 'object', required: ['ref'] });
    expect(JSON.parse(JSON.stringify(tool))).toEqual(tool);
    expect(() => new Validator(tool.function.parameters, '2020-12')).not.toThrow();
  });

  it('is in the Anthropic tool shape with the same schema', () => {
    const tool = toAnthropicTool(GET_TOOL_OUTPUT_TOOL);
    expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name']);
    expect(tool.name).toMatch(NAME);
    expect(tool.input_schema).toEqual(GET_TOOL_OUTPUT_TOOL.parameters);
    expect(tool.input_schema.type).toBe('object');
    expect(Object.isFrozen(GET_TOOL_OUTPUT_TOOL.parameters)).toBe(true);
    tool.input_schema.type = 'changed';
    expect(GET_TOOL_OUTPUT_TOOL.parameters.type).toBe('object');
  });

  it('accepts exactly the arguments its schema allows', async () => {
    const validator = new Validator(
      structuredClone(GET_TOOL_OUTPUT_TOOL.parameters) as Record<string, unknown>,
      '2020-12',
    );
    const maybe = <Value>(valid: fc.Arbitrary<Value>, invalid: fc.Arbitrary<unknown>) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 3, arbitrary: valid },
        { weight: 1, arbitrary: invalid },
        { weight: 1, arbitrary: fc.constant(null) },
      );
    const args = fc.record({
      ref: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('LOG', 'INSPECT') },
        { weight: 1, arbitrary: fc.constant('toolout_0000000000000000') },
        { weight: 1, arbitrary: fc.string() },
      ),
      start_line: maybe(
        fc.integer({ min: 1, max: 400 }),
        fc.oneof(fc.integer({ max: 0 }), fc.double(), fc.constant('3')),
      ),
      end_line: maybe(
        fc.integer({ min: 1, max: 400 }),
        fc.oneof(fc.integer({ max: 0 }), fc.constant(2.5)),
      ),
      grep: maybe(
        fc.constantFrom('ERROR', 'INFO|ERROR', '^0'),
        fc.oneof(fc.constant(''), fc.constant('x'.repeat(300)), fc.integer()),
      ),
      json_path: maybe(fc.constant('$'), fc.oneof(fc.constant('no dollar'), fc.integer())),
      max_chars: maybe(
        fc.integer({ min: 1, max: MAX_GET_TOOL_OUTPUT_CHARS }),
        fc.oneof(fc.constant(0), fc.constant(MAX_GET_TOOL_OUTPUT_CHARS + 1), fc.constant('10')),
      ),
      extra: maybe(fc.constant(undefined), fc.boolean()),
    });
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(args, async (generated) => {
        const input: Record<string, unknown> = Object.fromEntries(
          Object.entries(generated).filter(([, value]) => value !== undefined),
        );
        if (input.ref === 'LOG') input.ref = logRef;
        if (input.ref === 'INSPECT') input.ref = inspectRef;
        if (input.json_path === '$' && input.ref === logRef) delete input.json_path;
        // A null argument counts as absent, as models that fill in every field send it.
        const present = Object.fromEntries(
          Object.entries(input).filter(([, value]) => value !== null),
        );
        const valid = validator.validate(present).valid;
        const { start_line: start, end_line: end } = present;
        const ordered = typeof start !== 'number' || typeof end !== 'number' || end >= start;
        const known = input.ref === logRef || input.ref === inspectRef;
        const outcome = await executeGetToolOutput(store, 'c1', input).then(
          () => 'ok',
          (error: ContextError) => error.code,
        );
        outcomes.add(outcome);
        if (!valid || !ordered) expect(outcome).toBe('invalid_tool_arguments');
        else if (!known) expect(outcome).toBe('unknown_ref');
        else expect(outcome).toBe('ok');
      }),
      fuzzParameters(100),
    );
    expect([...outcomes].sort()).toEqual(['invalid_tool_arguments', 'ok', 'unknown_ref']);
  });
});

describe('executeGetToolOutput', () => {
  it('returns a header and the whole output, or the part asked for', async () => {
    const whole = await executeGetToolOutput(store, 'c1', {
      ref: logRef,
      max_chars: MAX_GET_TOOL_OUTPUT_CHARS,
    });
    const [header, ...rest] = whole.split('\n');
    expect(header).toBe(
      `[get_tool_output ref=${logRef}: get_logs output, 300 lines, ${log.length} characters; showing the whole output: 300 lines selected]`,
    );
    expect(rest.join('\n')).toBe(log);

    const errors = await executeGetToolOutput(
      store,
      'c1',
      JSON.stringify({ ref: logRef, grep: 'ERROR', start_line: 100 }),
    );
    expect(errors.split('\n').slice(1)).toEqual(
      log
        .split('\n')
        .slice(99)
        .filter((line) => line.includes('ERROR')),
    );
    expect(errors.split('\n')[0]).toContain(
      'showing lines 100-end, lines matching /ERROR/: 4 lines selected',
    );

    const env = await executeGetToolOutput(store, 'c1', {
      ref: inspectRef,
      json_path: '$[0].Config.Env',
    });
    expect(JSON.parse(env.slice(env.indexOf('\n') + 1))).toEqual(['A=1', 'B=2']);
  });

  it('caps the text at max_chars, 4000 by default, and says so', async () => {
    const capped = await executeGetToolOutput(store, 'c1', { ref: logRef });
    expect(capped.slice(capped.indexOf('\n') + 1)).toBe(log.slice(0, 4000));
    expect(capped.split('\n')[0]).toContain(
      'cut at 4000 characters (raise max_chars or narrow the query)',
    );
    const none = await executeGetToolOutput(store, 'c1', {
      ref: logRef,
      grep: 'nothing like this',
    });
    expect(none).toMatch(/0 lines selected, nothing matched\]\n$/);
  });

  it('answers a grep that would backtrack for ever in JavaScript, in full', async () => {
    const output = [...Array.from({ length: 3 }, () => `${'a'.repeat(40)}b`), 'aaa'].join('\n');
    const ref = await store.put('c1', output, { toolName: 'get_logs' });
    const result = await executeGetToolOutput(store, 'c1', { ref, grep: '^(a+)+$' });
    expect(result).toBe(
      `[get_tool_output ref=${ref}: get_logs output, 4 lines, ${output.length} characters; showing lines matching /^(a+)+$/: 1 line selected]\naaa`,
    );
  });

  it('says where grep stopped at its work limit, and how to go on', async () => {
    const grep = 'x[^y]{1000}z';
    const perLine = RE2JS.compile(grep).programSize() * 2001;
    const stop = Math.floor(GREP_WORK_LIMIT / perLine);
    const lines = Array.from({ length: stop + 3 }, (_, index) => `${index}`.padEnd(2000, 'b'));
    const ref = await store.put('c1', lines.join('\n'), { toolName: 'read_file' });
    const stopped = await executeGetToolOutput(store, 'c1', { ref, grep });
    expect(stopped.split('\n')[0]).toContain(
      `0 lines selected, nothing matched, grep stopped at its work limit after line ${stop} (go on with start_line ${stop + 1}, or use a simpler pattern)]`,
    );
    const rest = await executeGetToolOutput(store, 'c1', { ref, grep, start_line: stop + 1 });
    expect(rest.split('\n')[0]).toMatch(/0 lines selected, nothing matched\]$/);

    const long = await store.put('c1', 'b'.repeat(20_000), { toolName: 'read_file' });
    expect(await executeGetToolOutput(store, 'c1', { ref: long, grep })).toContain(
      'grep stopped at its work limit before line 1, too long to search with this pattern (use a simpler pattern, or json_path)]',
    );
  });

  it('names the argument that is wrong', async () => {
    for (const [args, field] of [
      [undefined, 'arguments'],
      ['{not json', 'arguments'],
      [[logRef], 'arguments'],
      [{}, 'ref'],
      [{ ref: 'toolout_123' }, 'ref'],
      [{ ref: logRef, start: 3 }, 'start'],
      [{ ref: logRef, start_line: 0 }, 'start_line'],
      [{ ref: logRef, start_line: 5, end_line: 2 }, 'end_line'],
      [{ ref: logRef, grep: '(' }, 'grep'],
      [{ ref: logRef, grep: '(E)\\1' }, 'grep'],
      [{ ref: logRef, grep: 'E(?=R)' }, 'grep'],
      [{ ref: logRef, grep: 'x'.repeat(257) }, 'grep'],
      [{ ref: logRef, json_path: '$.a' }, 'json_path'],
      [{ ref: inspectRef, json_path: '$[' }, 'json_path'],
      [{ ref: logRef, max_chars: MAX_GET_TOOL_OUTPUT_CHARS + 1 }, 'max_chars'],
    ] as const) {
      const error = await failure(args);
      expect(error.code).toBe('invalid_tool_arguments');
      expect(error.details.field).toBe(field);
      expect(error.message).toContain(
        `get_tool_output: ${field === 'arguments' ? 'the arguments' : `argument ${field}:`}`,
      );
    }
  });

  it('says plainly when a ref is not stored', async () => {
    const error = await failure({ ref: 'toolout_00000000000000ff' });
    expect(error.code).toBe('unknown_ref');
    expect(error.message).toContain(
      'Conversation "c1" has no tool output under toolout_00000000000000ff',
    );
  });

  it('reads only outputs of the conversation the call is made in, as if others were never stored', async () => {
    for (const args of [{ ref: logRef }, { ref: logRef, grep: 'ERROR', max_chars: 100 }]) {
      const refused = await failure(args, 'c2');
      const never = await failure({ ...args, ref: 'toolout_00000000000000ff' }, 'c2');
      expect(refused.code).toBe('unknown_ref');
      expect(refused.message.replace(logRef, '<ref>')).toBe(
        never.message.replace('toolout_00000000000000ff', '<ref>'),
      );
      expect(refused.message).not.toContain('ERROR');
    }
    expect(await executeGetToolOutput(store, 'c1', { ref: logRef })).toMatch(
      /^\[get_tool_output ref=toolout_[0-9a-f]{16}: get_logs output/,
    );
    const shared = createInMemoryToolOutputStore({ shareAcrossConversations: true });
    const ref = await shared.put('c1', log, { toolName: 'get_logs' });
    expect(await executeGetToolOutput(shared, 'c2', { ref, max_chars: 20 })).toContain(
      log.slice(0, 20),
    );
  });

  it('needs the conversation the call is made in', async () => {
    for (const conversationId of ['', undefined]) {
      await expect(
        executeGetToolOutput(store, conversationId as unknown as string, { ref: logRef }),
      ).rejects.toMatchObject({ code: 'invalid_option' });
    }
  });
});
